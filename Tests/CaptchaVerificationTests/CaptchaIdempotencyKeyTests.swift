import ChallengeCrypto
import ServiceClients
import Testing

@Suite("Turnstile idempotency keys")
struct CaptchaIdempotencyKeyTests {
    @Test func sixteenBytesBecomeAVersion4UUID() {
        #expect(CaptchaIdempotencyKey.derive(from: Array(0..<16)) == "00010203-0405-4607-8809-0a0b0c0d0e0f")
        #expect(CaptchaIdempotencyKey.derive(from: Array(repeating: 0xFF, count: 32)) == "ffffffff-ffff-4fff-bfff-ffffffffffff")
    }

    @Test func keysAreDerivedNotRandom() {
        let key = CaptchaIdempotencyKey.derive(challenge: "nonce-1", token: "token-a")
        #expect(key == CaptchaIdempotencyKey.derive(challenge: "nonce-1", token: "token-a"))
        #expect(key != CaptchaIdempotencyKey.derive(challenge: "nonce-2", token: "token-a"))
        #expect(key != CaptchaIdempotencyKey.derive(challenge: "nonce-1", token: "token-b"))
        // The length prefixes keep the two parts apart.
        #expect(
            CaptchaIdempotencyKey.derive(challenge: "ab", token: "c") != CaptchaIdempotencyKey.derive(challenge: "a", token: "bc"))
        #expect(key == CaptchaIdempotencyKey.derive(from: SHA256.hash("7:nonce-17:token-a")))
    }

    @Test func keysHaveTheUUIDShape() {
        for index in 0..<64 {
            let key = Array(CaptchaIdempotencyKey.derive(challenge: "nonce", token: "token-\(index)"))
            #expect(key.count == 36)
            #expect([8, 13, 18, 23].allSatisfy { key[$0] == "-" })
            #expect(key[14] == "4")
            #expect("89ab".contains(key[19]))
            #expect(key.enumerated().allSatisfy { [8, 13, 18, 23].contains($0.offset) || "0123456789abcdef".contains($0.element) })
        }
    }
}
