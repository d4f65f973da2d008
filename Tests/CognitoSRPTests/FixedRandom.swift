import ChallengeCrypto

/// A `RandomSource` that answers every draw with the start of the same scripted bytes, so a test fixes a secret
/// exponent (one 128-byte draw) or a salt (one 16-byte draw).
struct FixedRandom: RandomSource {
    struct TooShort: Error, CustomStringConvertible {
        let requested: Int
        var description: String { "the script is shorter than the \(requested) bytes requested" }
    }

    let bytes: [UInt8]

    func fill(_ buffer: UnsafeMutableRawBufferPointer) throws {
        guard bytes.count >= buffer.count else { throw TooShort(requested: buffer.count) }
        buffer.copyBytes(from: bytes.prefix(buffer.count))
    }
}
