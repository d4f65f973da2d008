import ChallengeCrypto
import Testing

@Suite struct DigestTests {
    /// FIPS 180-2 appendix B and the NIST "SHA-256 examples" vectors.
    @Test(arguments: [
        ("", "e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855"),
        ("abc", "ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad"),
        ("abcdbcdecdefdefgefghfghighijhijkijkljklmklmnlmnomnopnopq",
         "248d6a61d20638b8e5c026930c3e6039a33ce45964ff2167f6ecedd419db06c1"),
        ("abcdefghbcdefghicdefghijdefghijkefghijklfghijklmghijklmnhijklmnoijklmnopjklmnopqklmnopqrlmnopqrsmnopqrstnopqrstu",
         "cf5b16a778af8380036ce59e7b0492370b249b11e8f07a51afac45037afee9d1"),
    ])
    func sha256MatchesTheStandardVectors(message: String, digest: String) {
        #expect(Hex.encode(SHA256.hash(message)) == digest)
        #expect(Hex.encode(SHA256.hash(Array(message.utf8))) == digest)
        #expect(SHA256.hash(message).count == SHA256.byteCount)
    }

    @Test func sha256OfOneMillionAs() {
        let digest = SHA256.hash([UInt8](repeating: UInt8(ascii: "a"), count: 1_000_000))
        #expect(Hex.encode(digest) == "cdc76e5c9914fb9281a1c7e284d73e67f1809a48a497200e046d39ccc7112cd0")
    }

    @Test func sha256ReadsAnyCollectionOfBytes() {
        let message = Array("abc".utf8)
        let expected = SHA256.hash(message)
        #expect(SHA256.hash(message.lazy.map { $0 }) == expected)
        #expect(SHA256.hash(Array("xabcx".utf8)[1..<4]) == expected)
        #expect(SHA256.hash("abc".utf8) == expected)
    }

    /// RFC 4231 section 4: HMAC-SHA-256 test cases 1 to 7.
    @Test(arguments: [
        (key: [UInt8](repeating: 0x0B, count: 20), data: Array("Hi There".utf8),
         mac: "b0344c61d8db38535ca8afceaf0bf12b881dc200c9833da726e9376c2e32cff7"),
        (key: Array("Jefe".utf8), data: Array("what do ya want for nothing?".utf8),
         mac: "5bdcc146bf60754e6a042426089575c75a003f089d2739839dec58b964ec3843"),
        (key: [UInt8](repeating: 0xAA, count: 20), data: [UInt8](repeating: 0xDD, count: 50),
         mac: "773ea91e36800e46854db8ebd09181a72959098b3ef8c122d9635514ced565fe"),
        (key: Array(UInt8(1)...UInt8(25)), data: [UInt8](repeating: 0xCD, count: 50),
         mac: "82558a389a443c0ea4cc819899f2083a85f0faa3e578f8077a2e3ff46729665b"),
        // Case 5 publishes only the first 128 bits.
        (key: [UInt8](repeating: 0x0C, count: 20), data: Array("Test With Truncation".utf8),
         mac: "a3b6167473100ee06e0c796c2955552b"),
        // Cases 6 and 7: a 131-byte key, longer than SHA-256's 64-byte block, is hashed first.
        (key: [UInt8](repeating: 0xAA, count: 131), data: Array("Test Using Larger Than Block-Size Key - Hash Key First".utf8),
         mac: "60e431591ee0b67f0d8a26aacbf5b77f8e0bc6213728c5140546040f0ee37f54"),
        (key: [UInt8](repeating: 0xAA, count: 131),
         data: Array(("This is a test using a larger than block-size key and a larger than block-size data. "
             + "The key needs to be hashed before being used by the HMAC algorithm.").utf8),
         mac: "9b09ffa71b942fcb27635fbcd5b0e944bfdc63644f0713938a7f51535c3a35e2"),
    ])
    func hmacMatchesRFC4231(key: [UInt8], data: [UInt8], mac: String) throws {
        let code = HMACSHA256.authenticationCode(key: key, message: data)
        #expect(code.count == SHA256.byteCount)
        let expected = try #require(Hex.decode(mac))
        #expect(Array(code.prefix(expected.count)) == expected)
    }

    /// Keys whose lengths straddle SHA-256's 64-byte block, past which a key is hashed first, and messages of none,
    /// one and several blocks; a key made ready once gives every message its own MAC, however many came before.
    @Test func hmacMatchesItsDefinitionForAnyKeyLengthAndAKeyMadeReadyOnce() {
        let messages = [[], Array("one block".utf8), (0..<200).map { UInt8(truncatingIfNeeded: $0 &* 7) }]
        for (index, length) in [1, 32, 63, 64, 65, 131].enumerated() {
            let key = (0..<length).map { UInt8(truncatingIfNeeded: $0 &* 37 &+ index &+ 101) }
            let ready = HMACSHA256.Key(key)
            for message in messages + messages.reversed() {
                let expected = hmacFromItsDefinition(key: key, message: message)
                #expect(HMACSHA256.authenticationCode(key: key, message: message) == expected)
                #expect(ready.authenticationCode(for: message) == expected)
            }
        }
    }

    /// RFC 2104's H(K ^ opad, H(K ^ ipad, message)), on ``SHA256`` alone.
    private func hmacFromItsDefinition(key: [UInt8], message: [UInt8]) -> [UInt8] {
        let blockKey = (key.count > 64 ? SHA256.hash(key) : key) + [UInt8](repeating: 0, count: 64)
        let padded = blockKey.prefix(64)
        let innerDigest = SHA256.hash(padded.map { $0 ^ 0x36 } + message)
        return SHA256.hash(padded.map { $0 ^ 0x5C } + innerDigest)
    }

    @Test func hmacStringMessageIsItsUTF8() {
        let key = Array("Jefe".utf8)
        let code = HMACSHA256.authenticationCode(key: key, message: "what do ya want for nothing?")
        #expect(Hex.encode(code) == "5bdcc146bf60754e6a042426089575c75a003f089d2739839dec58b964ec3843")
        #expect(HMACSHA256.authenticationCode(key: key, message: "é") == HMACSHA256.authenticationCode(key: key, message: [0xC3, 0xA9]))
    }

    @Test func hmacWithEmptyKeyAndMessage() {
        // Empty buffers must still reach OpenSSL as a valid, zero-length key and message.
        let code = HMACSHA256.authenticationCode(key: [UInt8](), message: [UInt8]())
        #expect(Hex.encode(code) == "b613679a0814d9ec772f95d778c35fc5ff1697c493715653c6c712144292c5ad")
    }

    @Test func hmacReadsAnyCollectionOfBytes() {
        let key = [UInt8](repeating: 0x0B, count: 20)
        let expected = HMACSHA256.authenticationCode(key: key, message: Array("Hi There".utf8))
        #expect(HMACSHA256.authenticationCode(key: key.lazy.map { $0 }, message: "Hi There".utf8.lazy.map { $0 }) == expected)
    }

    @Test func hmacDependsOnEveryByteOfKeyAndMessage() {
        let key = [UInt8](repeating: 7, count: 32)
        let message = Array("123456".utf8)
        let code = HMACSHA256.authenticationCode(key: key, message: message)
        for position in key.indices {
            var changed = key
            changed[position] ^= 1
            #expect(HMACSHA256.authenticationCode(key: changed, message: message) != code)
        }
        #expect(HMACSHA256.authenticationCode(key: key, message: Array("123457".utf8)) != code)
    }

    @Test(arguments: [
        ([UInt8](), [UInt8](), true),
        ([1, 2, 3], [1, 2, 3], true),
        ([1, 2, 3], [1, 2, 4], false),
        ([0, 2, 3], [1, 2, 3], false),
        ([1, 2, 3], [1, 2], false),
        ([1, 2], [1, 2, 3], false),
        ([], [0], false),
        ([0], [], false),
    ] as [([UInt8], [UInt8], Bool)])
    func constantTimeEqualsComparesContentAndLength(lhs: [UInt8], rhs: [UInt8], equal: Bool) {
        #expect(constantTimeEquals(lhs, rhs) == equal)
        #expect(constantTimeEquals(rhs, lhs) == equal)
    }

    @Test func constantTimeEqualsOnDigests() {
        let code = SHA256.hash("123456")
        #expect(constantTimeEquals(code, SHA256.hash("123456")))
        #expect(!constantTimeEquals(code, SHA256.hash("123457")))
        var lastByteDiffers = code
        lastByteDiffers[31] ^= 0x80
        #expect(!constantTimeEquals(code, lastByteDiffers))
    }
}
