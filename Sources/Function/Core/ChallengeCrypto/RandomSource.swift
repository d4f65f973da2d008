/// A failure inside OpenSSL.
public struct CryptoError: Error, Sendable, CustomStringConvertible {
    public let operation: String

    /// A failure of `operation` ("produce random bytes"), named in the description.
    public init(operation: String) {
        self.operation = operation
    }

    public var description: String { "OpenSSL failed to \(operation)" }
}

/// Where random bytes come from: the function passes `SystemRandom` (module `Platform`, OpenSSL's generator); tests
/// inject a seeded source.
public protocol RandomSource: Sendable {
    /// Fills the buffer with random bytes.
    func fill(_ buffer: UnsafeMutableRawBufferPointer) throws

    /// A string of `count` decimal digits, each drawn uniformly. The default draws one integer per digit.
    func decimalDigits(count: Int) throws -> String
}

extension RandomSource {
    /// `count` random bytes.
    public func bytes(count: Int) throws -> [UInt8] {
        var bytes = [UInt8](repeating: 0, count: count)
        try bytes.withUnsafeMutableBytes { try fill($0) }
        return bytes
    }

    /// A uniformly distributed integer in `0..<bound`, by rejection sampling: no modulo bias.
    public func uniformInteger(below bound: UInt32) throws -> UInt32 {
        precondition(bound > 0, "bound must be positive")
        // The largest multiple of `bound` that fits in 2^32; draws at or above it are thrown away.
        let limit = UInt64(1) << 32 - (UInt64(1) << 32) % UInt64(bound)
        while true {
            var draw: UInt32 = 0
            try withUnsafeMutableBytes(of: &draw) { try fill($0) }
            if UInt64(draw) < limit { return draw % bound }
        }
    }

    /// A string of `count` decimal digits, each drawn uniformly.
    public func decimalDigits(count: Int) throws -> String {
        var digits: [UInt8] = []
        digits.reserveCapacity(count)
        for _ in 0..<count {
            digits.append(UInt8(ascii: "0") + UInt8(try uniformInteger(below: 10)))
        }
        return String(decoding: digits, as: UTF8.self)
    }
}
