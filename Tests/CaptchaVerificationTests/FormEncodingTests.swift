@testable import ServiceClients
import Testing

@Suite("form encoding")
struct FormEncodingTests {
    @Test func reservedBytesArePercentEncoded() {
        let body = FormEncoding.encode([("secret", "a+b/c=d&e f"), ("response", "0.Ab-_~é")])
        #expect(String(decoding: body, as: UTF8.self) == "secret=a%2Bb%2Fc%3Dd%26e%20f&response=0.Ab-_~%C3%A9")
    }
}
