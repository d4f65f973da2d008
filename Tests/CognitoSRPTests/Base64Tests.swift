import CognitoSRP
import Testing

@Suite struct Base64Tests {
    /// RFC 4648 section 10.
    @Test(arguments: [
        ("", ""), ("f", "Zg=="), ("fo", "Zm8="), ("foo", "Zm9v"), ("foob", "Zm9vYg=="), ("fooba", "Zm9vYmE="),
        ("foobar", "Zm9vYmFy"),
    ])
    func matchesRFC4648(plain: String, encoded: String) {
        #expect(Base64.encode(Array(plain.utf8)) == encoded)
        #expect(Base64.decode(encoded) == Array(plain.utf8))
    }

    @Test func everyByteValueRoundTrips() {
        let bytes = (0...255).map(UInt8.init)
        for length in 0...bytes.count {
            #expect(Base64.decode(Base64.encode(bytes.prefix(length))) == Array(bytes.prefix(length)))
        }
        #expect(Base64.encode([0xFB, 0xFF]) == "+/8=")
    }

    @Test(arguments: ["Zg", "Zg=", "Zg===", "Z===", "Zg==Zg==", "Zm9v!A==", "Zh==", "Zm9=", "Zm 9v", "=Zm9"])
    func refusesNonCanonicalText(text: String) {
        #expect(Base64.decode(text) == nil)
    }
}
