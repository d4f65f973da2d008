@testable import CognitoSRP
import Testing

/// pycognito's `pad_hex`, on numbers and on salt text.
@Suite struct PaddingTests {
    @Test func numbersGetAZeroByteOnlyWhenTheTopBitIsSet() {
        #expect(SRPPadding.pad([]) == [0])
        #expect(SRPPadding.pad([0, 0]) == [0])
        #expect(SRPPadding.pad([0x7F, 1]) == [0x7F, 1])
        #expect(SRPPadding.pad([0x80]) == [0, 0x80])
        #expect(SRPPadding.pad([0, 0, 0x0A, 0xBC]) == [0x0A, 0xBC])
        #expect(SRPPadding.pad([0, 0xFF]) == [0, 0xFF])
    }

    @Test func saltTextKeepsItsLeadingZeros() throws {
        #expect(try SRPPadding.padHexText("abc", field: "SALT") == [0x0A, 0xBC])
        #expect(try SRPPadding.padHexText("8a", field: "SALT") == [0, 0x8A])
        #expect(try SRPPadding.padHexText("F0", field: "SALT") == [0, 0xF0])
        #expect(try SRPPadding.padHexText("0000ab", field: "SALT") == [0, 0, 0xAB])
        #expect(try SRPPadding.padHexText("7f", field: "SALT") == [0x7F])
    }

    @Test func minimalHexDropsLeadingZeros() {
        #expect(SRPPadding.minimalHex([]) == "0")
        #expect(SRPPadding.minimalHex([0, 0]) == "0")
        #expect(SRPPadding.minimalHex([0, 0x0A, 0xBC]) == "abc")
        #expect(SRPPadding.minimalHex([0xFF, 0]) == "ff00")
    }
}
