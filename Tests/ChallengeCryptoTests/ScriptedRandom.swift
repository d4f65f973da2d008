import ChallengeCrypto
import Platform

/// A `RandomSource` that hands out the bytes a test scripted, so the test decides every draw.
/// It throws when the script runs out, so a loop that keeps drawing cannot hang.
final class ScriptedRandom: RandomSource {
    struct ScriptExhausted: Error {}

    private let remaining: PosixLock<[UInt8]>

    init(bytes: [UInt8]) {
        remaining = PosixLock(bytes)
    }

    /// Four-byte draws, laid out in memory as a `UInt32` is.
    convenience init(draws: [UInt32]) {
        self.init(bytes: draws.flatMap { draw in withUnsafeBytes(of: draw) { Array($0) } })
    }

    var unusedByteCount: Int {
        remaining.withLock { $0.count }
    }

    func fill(_ buffer: UnsafeMutableRawBufferPointer) throws {
        try remaining.withLock { bytes throws(ScriptExhausted) in
            guard bytes.count >= buffer.count else { throw ScriptExhausted() }
            buffer.copyBytes(from: bytes.prefix(buffer.count))
            bytes.removeFirst(buffer.count)
        }
    }
}
