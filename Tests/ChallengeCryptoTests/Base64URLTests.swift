import ChallengeCrypto
import Testing

@Suite struct Base64URLTests {
    /// RFC 4648 section 10's vectors, unpadded (base64url and base64 agree on these).
    @Test(arguments: [
        ("", ""), ("f", "Zg"), ("fo", "Zm8"), ("foo", "Zm9v"), ("foob", "Zm9vYg"), ("fooba", "Zm9vYmE"),
        ("foobar", "Zm9vYmFy"),
    ])
    func matchesTheStandardVectors(text: String, encoded: String) {
        #expect(Base64URL.encode(Array(text.utf8)) == encoded)
        #expect(Base64URL.decode(encoded) == Array(text.utf8))
    }

    @Test func usesTheURLSafeAlphabet() {
        // Plain base64 writes these bytes as "+/8=" and "++++".
        #expect(Base64URL.encode([0xFB, 0xFF]) == "-_8")
        #expect(Base64URL.encode([0xFB, 0xEF, 0xBE]) == "----")
        #expect(Base64URL.decode("-_8") == [0xFB, 0xFF])
    }

    @Test func roundTripsEveryLengthAndByte() {
        for length in 0...70 {
            let bytes = (0..<length).map { UInt8(truncatingIfNeeded: $0 &* 37 &+ length) }
            #expect(Base64URL.decode(Base64URL.encode(bytes)) == bytes)
        }
        let all = (0...255).map(UInt8.init)
        #expect(Base64URL.decode(Base64URL.encode(all)) == all)
    }

    @Test(arguments: [
        "Zg==",  // padding
        "Zm9v+", "Zm9v/", "Zm 9v",  // outside the alphabet
        "Z", "Zm9vY",  // a length no encoding produces
        "Zh", "Zm9",  // bits set past the last byte
    ])
    func rejectsWhatNoEncodingProduces(text: String) {
        #expect(Base64URL.decode(text) == nil)
    }
}
