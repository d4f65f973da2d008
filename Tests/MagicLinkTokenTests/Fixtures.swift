import ChallengeCrypto

/// Random bytes counted up from a seed, so tokens are reproducible.
struct CountingRandom: RandomSource {
    var seed: UInt8 = 0

    func fill(_ buffer: UnsafeMutableRawBufferPointer) throws {
        for index in buffer.indices {
            buffer[index] = seed &+ UInt8(truncatingIfNeeded: index)
        }
    }
}

/// A random source that always fails, as OpenSSL's would without entropy.
struct BrokenRandom: RandomSource {
    struct Failure: Error, CustomStringConvertible {
        var description: String { "the entropy pool is empty" }
    }

    func fill(_ buffer: UnsafeMutableRawBufferPointer) throws {
        throw Failure()
    }
}

enum Fixtures {
    static let key = [UInt8](repeating: 0x5A, count: 32)
    static let otherKey = [UInt8](repeating: 0xA5, count: 32)
    static let keys = ["k2024": key, "k2025": otherKey]
    static let pool = "eu-west-1_AbCdEfGhI"
    static let user = "8f4c2e1a-0b9d-4c7e-9a55-1d2e3f405162"
    static let issuedAt: Int64 = 1_760_000_000
    static let expiresAt = issuedAt + 900

    static func issue(
        key: [UInt8] = key, keyID: String = "k2024", pool: String = pool, user: String = user, step: Int = 2,
        expiresAt: Int64 = expiresAt, seed: UInt8 = 7
    ) throws -> (token: String, digest: [UInt8]) {
        try MagicLinkToken.issue(
            key: key, keyID: keyID, userPoolId: pool, userName: user, stepIndex: step, expiresAt: expiresAt,
            random: CountingRandom(seed: seed))
    }

    static func verify(
        _ token: String, keys: [String: [UInt8]] = keys, pool: String = pool, user: String = user, step: Int = 2,
        now: Int64 = issuedAt + 60
    ) -> MagicLinkVerdict {
        MagicLinkToken.verify(token: token, keys: keys, userPoolId: pool, userName: user, stepIndex: step, now: now)
    }
}
