import ChallengeCrypto
import Testing

@Suite struct HexTests {
    @Test func encodesLowerCaseTwoDigitsPerByte() {
        #expect(Hex.encode([0x00, 0x01, 0x0A, 0xAB, 0xF0, 0xFF]) == "00010aabf0ff")
        #expect(Hex.encode([]) == "")
    }

    @Test func everyByteRoundTrips() {
        let all = (0...255).map { UInt8($0) }
        let text = Hex.encode(all)
        #expect(text.utf8.count == 512)
        #expect(Hex.decode(text) == all)
    }

    @Test func upperAndMixedCaseAreAccepted() {
        #expect(Hex.decode("00010AABF0FF") == [0x00, 0x01, 0x0A, 0xAB, 0xF0, 0xFF])
        #expect(Hex.decode("aBcD") == [0xAB, 0xCD])
        #expect(Hex.decode("") == [])
    }

    @Test(arguments: ["0", "abc", "0g", "g0", "zz", " 00", "00 ", "0x00", "-1", "+1", "éé", "0\u{0}", "٠١"])
    func malformedTextIsRejected(text: String) {
        #expect(Hex.decode(text) == nil)
    }
}
