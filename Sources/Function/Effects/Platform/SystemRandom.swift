import COpenSSL
import ChallengeCrypto

#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// OpenSSL's CSPRNG (`RAND_bytes`).
///
/// Its DRBG is set up on the first call (seeding and algorithm fetches): the bootstrap makes that call during init, so
/// that the first sign-in code does not pay for it. Before that first call, the process's generator is made a
/// Hash_DRBG over SHA-256 (NIST SP 800-90A, like OpenSSL's default CTR_DRBG over AES-256): building CTR_DRBG fetches
/// every cipher OpenSSL provides, 3.6 M instructions, a sixth of the bootstrap's start; Hash_DRBG needs only SHA-256.
public struct SystemRandom: RandomSource {
    public init() {}

    /// Whether OpenSSL took Hash_DRBG: it does unless something in the process drew random bytes first, which keeps
    /// the default generator, as good, only slower to set up.
    private static let hashDRBGChosen = RAND_set_DRBG_type(nil, "HASH-DRBG", nil, nil, "SHA256") == 1

    /// Small draws (a code's bytes, a nonce) come from ``RandomReserve``; larger ones straight from OpenSSL.
    public func fill(_ buffer: UnsafeMutableRawBufferPointer) throws {
        guard buffer.count > 0 else { return }
        if buffer.count <= RandomReserve.largestTake {
            try Self.reserve.take(into: buffer)
        } else {
            try Self.draw(into: buffer)
        }
    }

    private static let reserve = RandomReserve()

    /// Fills `buffer` from OpenSSL's generator.
    static func draw(into buffer: UnsafeMutableRawBufferPointer) throws(CryptoError) {
        _ = hashDRBGChosen
        guard RAND_bytes(buffer.baseAddress!.assumingMemoryBound(to: UInt8.self), Int32(buffer.count)) == 1 else {
            throw CryptoError(operation: "produce random bytes")
        }
    }

    /// Digits from bytes below 250 (25 × 10, so each digit is equally likely), with the bytes for a whole code
    /// drawn in one call rather than one per digit.
    public func decimalDigits(count: Int) throws -> String {
        // A byte is refused with probability 6/256: two spare bytes cover the refusals of a 6-digit code but once in
        // about 1,500 codes (three refusals or more in eight), when a second round is drawn. Every byte drawn costs the
        // generator about 150 instructions, so the spares are few. The draws sit on the stack and the digits are
        // written straight into the string: an array made with a given size is not specialized by the standard
        // library, which looks its storage's generic metadata up in the runtime's cache on every call.
        try withUnsafeTemporaryAllocation(of: UInt8.self, capacity: count + 2) { draws in
            defer { draws.initialize(repeating: 0) }
            return try String(unsafeUninitializedCapacity: count) { digits in
                var written = 0
                while written < count {
                    try fill(UnsafeMutableRawBufferPointer(draws))
                    for byte in draws where byte < 250 && written < count {
                        digits[written] = UInt8(ascii: "0") + byte % 10
                        written += 1
                    }
                }
                return written
            }
        }
    }
}

/// Bytes drawn from OpenSSL's generator a block at a time and handed out once each, wiped as they go.
///
/// Most of a small draw's cost is the generator's fixed work per call (a locked Hash_DRBG state update: about 14 k
/// instructions for a 6-digit code), so one call of ``blockSize`` bytes serves many codes: 4 KiB, about 500 codes, as
/// the call comes rarely enough that its code is out of the caches each time (with 256-byte blocks, refills took
/// 0.3 % of a Create's CPU; with 4 KiB, 0.1 %). The bytes are as secret as the generator's state, which lives in the
/// same memory. A block drawn by another process (before a `fork`) is thrown away, as OpenSSL itself reseeds after one.
final class RandomReserve: Sendable {
    static let blockSize = 4096
    /// The most bytes one take may ask for.
    static let largestTake = 64

    private struct Block {
        let bytes = UnsafeMutableRawBufferPointer.allocate(byteCount: RandomReserve.blockSize, alignment: 8)
        /// How many bytes from the start are handed out (and wiped).
        var used = RandomReserve.blockSize
        /// The process the bytes were drawn in.
        var process: pid_t = 0
    }

    private let block = PosixLock(Block())

    func take(into buffer: UnsafeMutableRawBufferPointer) throws(CryptoError) {
        precondition(buffer.count <= Self.largestTake)
        try block.withLock { block throws(CryptoError) in
            let process = getpid()
            if block.used + buffer.count > Self.blockSize || block.process != process {
                try SystemRandom.draw(into: block.bytes)
                block.used = 0
                block.process = process
            }
            let taken = block.bytes.baseAddress! + block.used
            buffer.baseAddress!.copyMemory(from: taken, byteCount: buffer.count)
            OPENSSL_cleanse(taken, buffer.count)
            block.used += buffer.count
        }
    }
}
