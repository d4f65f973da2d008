import ChallengeCrypto
import Testing

@Suite struct HMACSHA1Tests {
    /// RFC 2202 section 3: HMAC-SHA-1 test cases 1 to 3.
    @Test(arguments: [
        (key: [UInt8](repeating: 0x0B, count: 20), data: Array("Hi There".utf8),
         mac: "b617318655057264e28bc0b6fb378c8ef146be00"),
        (key: Array("Jefe".utf8), data: Array("what do ya want for nothing?".utf8),
         mac: "effcdf6ae5eb2fa2d27416d5f184df9c259a7c79"),
        (key: [UInt8](repeating: 0xAA, count: 20), data: [UInt8](repeating: 0xDD, count: 50),
         mac: "125d7342b9ac11cd91a39af48aa17b4f63f175d3"),
    ])
    func matchesRFC2202(key: [UInt8], data: [UInt8], mac: String) {
        let code = HMACSHA1.authenticationCode(key: key, message: data)
        #expect(Hex.encode(code) == mac)
        #expect(code.count == HMACSHA1.byteCount)
    }
}
