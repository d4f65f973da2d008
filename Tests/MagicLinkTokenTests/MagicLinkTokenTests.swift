import ChallengeCrypto
import Platform
import Testing

@Suite struct MagicLinkTokenTests {
    @Test func rightTokenIsValidAndYieldsTheNonceOfTheDigest() throws {
        let (token, digest) = try Fixtures.issue()
        guard case .valid(let nonce) = Fixtures.verify(token) else {
            Issue.record("expected valid, got \(Fixtures.verify(token))")
            return
        }
        #expect(nonce == (0..<16).map { 7 + UInt8($0) })
        #expect(MagicLinkToken.digest(ofNonce: nonce) == digest)
        #expect(digest == SHA256.hash(nonce))
    }

    @Test func tokenIsUnpaddedBase64URLAndShowsNeitherPoolNorUser() throws {
        let (token, _) = try Fixtures.issue()
        #expect(token.utf8.allSatisfy { byte in
            (0x30...0x39).contains(byte) || (0x41...0x5A).contains(byte) || (0x61...0x7A).contains(byte)
                || byte == UInt8(ascii: "-") || byte == UInt8(ascii: "_")
        })
        let bytes = try #require(Base64URL.decode(token))
        let text = String(decoding: bytes, as: UTF8.self)
        #expect(!text.contains(Fixtures.user) && !text.contains(Fixtures.pool))
        #expect(text.contains("k2024"))
        #expect(token.count < 120)
    }

    @Test func noncesDifferSoDoTokensAndDigests() throws {
        let first = try Fixtures.issue(seed: 1)
        let second = try Fixtures.issue(seed: 2)
        #expect(first.token != second.token)
        #expect(first.digest != second.digest)
        let real = try MagicLinkToken.issue(
            key: Fixtures.key, keyID: "k2024", userPoolId: Fixtures.pool, userName: Fixtures.user, stepIndex: 0, expiresAt: Fixtures.expiresAt,
            random: SystemRandom())
        let again = try MagicLinkToken.issue(
            key: Fixtures.key, keyID: "k2024", userPoolId: Fixtures.pool, userName: Fixtures.user, stepIndex: 0, expiresAt: Fixtures.expiresAt,
            random: SystemRandom())
        #expect(real.token != again.token)
    }

    @Test func expiresAtItsExpirySecond() throws {
        let (token, _) = try Fixtures.issue()
        #expect(Fixtures.verify(token, now: Fixtures.expiresAt - 1) != .expired)
        #expect(Fixtures.verify(token, now: Fixtures.expiresAt) == .expired)
        #expect(Fixtures.verify(token, now: Fixtures.expiresAt + 86_400) == .expired)
    }

    @Test func everyFlippedBitOfTheTokenBytesIsRefused() throws {
        let (token, _) = try Fixtures.issue()
        let bytes = try #require(Base64URL.decode(token))
        for index in bytes.indices {
            for bit in 0..<8 {
                var altered = bytes
                altered[index] ^= 1 << bit
                let verdict = Fixtures.verify(Base64URL.encode(altered))
                guard case .valid = verdict else { continue }
                Issue.record("flipping bit \(bit) of byte \(index) still verified")
            }
        }
    }

    @Test func everyReplacedCharacterOfTheTokenIsRefused() throws {
        let (token, _) = try Fixtures.issue()
        let characters = Array(token)
        for index in characters.indices {
            for replacement in ["A", "z", "-", "_", "0", "=", "+", "%"] where Character(replacement) != characters[index] {
                var altered = characters
                altered[index] = Character(replacement)
                if case .valid = Fixtures.verify(String(altered)) {
                    Issue.record("replacing character \(index) with \(replacement) still verified")
                }
            }
        }
    }

    @Test func alteredPayloadWithTheSameKeyIDIsTampered() throws {
        let (token, _) = try Fixtures.issue()
        var bytes = try #require(Base64URL.decode(token))
        // The expiry's low byte: 2 + 5 (k2024) + 2 (step) + 7.
        bytes[16] ^= 0x01
        #expect(Fixtures.verify(Base64URL.encode(bytes)) == .tampered)
        // Signed with another key under this key id.
        let forged = try Fixtures.issue(key: Fixtures.otherKey)
        #expect(Fixtures.verify(forged.token) == .tampered)
    }

    @Test func anotherUsersOrPoolsTokenIsOtherUser() throws {
        let (token, _) = try Fixtures.issue()
        #expect(Fixtures.verify(token, user: "someone-else") == .otherUser)
        #expect(Fixtures.verify(token, pool: "eu-west-1_Other") == .otherUser)
        // The length prefixes keep the split between pool and name from moving.
        let joined = try Fixtures.issue(pool: "ab", user: "c")
        #expect(Fixtures.verify(joined.token, pool: "a", user: "bc") == .otherUser)
    }

    @Test func anotherStepsTokenIsOtherStep() throws {
        let (token, _) = try Fixtures.issue(step: 2)
        #expect(Fixtures.verify(token, step: 3) == .otherStep)
        #expect(Fixtures.verify(token, step: -1) == .otherStep)
        #expect(Fixtures.verify(token, step: 65_538) == .otherStep)
    }

    @Test func unknownKeyIDIsUnknownKey() throws {
        let (token, _) = try Fixtures.issue(keyID: "k2023")
        #expect(Fixtures.verify(token) == .unknownKey)
        #expect(Fixtures.verify(token, keys: [:]) == .unknownKey)
        // The second key verifies its own tokens: keys rotate by id.
        let rotated = try Fixtures.issue(key: Fixtures.otherKey, keyID: "k2025")
        guard case .valid = Fixtures.verify(rotated.token) else {
            Issue.record("a token of the second key did not verify")
            return
        }
    }

    @Test(arguments: [
        "", "A", "AAAA", "not a token", "abc=", "++//", String(repeating: "A", count: 10_000), "%41%41",
        "AQVrMjAyNAACAAAAAGjqVUw",
    ])
    func malformedStringsAreMalformed(text: String) {
        #expect(Fixtures.verify(text) == .malformed)
    }

    @Test func wrongVersionOrLengthsAreMalformed() throws {
        let (token, _) = try Fixtures.issue()
        let bytes = try #require(Base64URL.decode(token))
        var version = bytes
        version[0] = 2
        #expect(Fixtures.verify(Base64URL.encode(version)) == .malformed)
        #expect(Fixtures.verify(Base64URL.encode(bytes.dropLast())) == .malformed)
        #expect(Fixtures.verify(Base64URL.encode(bytes + [0])) == .malformed)
        var keyLength = bytes
        keyLength[1] = 200
        #expect(Fixtures.verify(Base64URL.encode(keyLength)) == .malformed)
        var keyCharacter = bytes
        keyCharacter[2] = UInt8(ascii: "/")
        #expect(Fixtures.verify(Base64URL.encode(keyCharacter)) == .malformed)
    }

    @Test func issuingRefusesBadInputsWithSentences() throws {
        #expect(throws: MagicLinkTokenError.keyTooShort(byteCount: 8)) { try Fixtures.issue(key: Array(repeating: 1, count: 8)) }
        #expect(throws: MagicLinkTokenError.invalidKeyID("")) { try Fixtures.issue(keyID: "") }
        #expect(throws: MagicLinkTokenError.invalidKeyID("key id")) { try Fixtures.issue(keyID: "key id") }
        #expect(throws: MagicLinkTokenError.invalidKeyID(String(repeating: "k", count: 33))) {
            try Fixtures.issue(keyID: String(repeating: "k", count: 33))
        }
        #expect(throws: MagicLinkTokenError.stepIndexOutOfRange(70_000)) { try Fixtures.issue(step: 70_000) }
        #expect(throws: MagicLinkTokenError.stepIndexOutOfRange(-1)) { try Fixtures.issue(step: -1) }
        do {
            _ = try MagicLinkToken.issue(
                key: Fixtures.key, keyID: "k", userPoolId: "p", userName: "u", stepIndex: 0, expiresAt: 0, random: BrokenRandom())
            Issue.record("issued a token without randomness")
        } catch {
            #expect(error == .randomUnavailable("the entropy pool is empty"))
            #expect("\(error)" == "No nonce for the magic link: the entropy pool is empty.")
        }
        #expect("\(MagicLinkTokenError.keyTooShort(byteCount: 8))" == "The magic-link key has 8 bytes; it needs at least 16.")
        #expect("\(MagicLinkTokenError.invalidKeyID("key id"))".hasPrefix("The magic-link key id \"key id\" is not"))
    }

    @Test func verdictsDescribeThemselvesWithoutTheNonce() throws {
        let (token, _) = try Fixtures.issue()
        let verdict = Fixtures.verify(token)
        #expect("\(verdict)" == "the sign-in link is valid")
        #expect("\(MagicLinkVerdict.otherStep)" == "the sign-in link was issued for another step of the sign-in")
    }
}
