import ChallengeCrypto
import Platform

/// A deterministic ``RandomSource`` (SplitMix64), so that codes and CAPTCHA picks are the same on every run.
final class SeededRandom: RandomSource {
    private let state: PosixLock<UInt64>

    init(seed: UInt64) {
        state = PosixLock(seed)
    }

    func fill(_ buffer: UnsafeMutableRawBufferPointer) throws {
        state.withLock { state in
            var word: UInt64 = 0
            for index in buffer.indices {
                if index % 8 == 0 { word = Self.next(&state) }
                buffer[index] = UInt8(truncatingIfNeeded: word >> (8 * UInt64(index % 8)))
            }
        }
    }

    private static func next(_ state: inout UInt64) -> UInt64 {
        state &+= 0x9E37_79B9_7F4A_7C15
        var mixed = state
        mixed = (mixed ^ (mixed >> 30)) &* 0xBF58_476D_1CE4_E5B9
        mixed = (mixed ^ (mixed >> 27)) &* 0x94D0_49BB_1331_11EB
        return mixed ^ (mixed >> 31)
    }
}
