import ChallengeCrypto
import CognitoChallengeTesting
import Testing

@Suite struct CBORTests {
    /// Each encoding worked out from RFC 8949 §3: the initial byte is major type << 5 | additional information, with
    /// arguments of 24 and up in the following 1, 2, 4 or 8 bytes (additional 24–27), negative n as -1 - n.
    @Test(
        arguments: [
            (CBOR.integer(0), "00"),
            (23, "17"),  // the largest argument held in the initial byte
            (24, "1818"),  // the smallest that needs one more byte
            (255, "18ff"),
            (256, "190100"),
            (65535, "19ffff"),
            (65536, "1a00010000"),
            (4_294_967_295, "1affffffff"),
            (4_294_967_296, "1b0000000100000000"),
            (-1, "20"),  // major 1 (0x20), argument 0
            (-24, "37"),
            (-25, "3818"),
            (-257, "390100"),  // RS256: argument 256 in two bytes
            (.integer(Int64.min), "3b7fffffffffffffff"),
            ("", "60"),
            ("fmt", "63666d74"),
            ("attStmt", "6761747453746d74"),
            (.bytes([]), "40"),
            (.bytes([0x01, 0x02, 0xFF]), "430102ff"),
            (.bytes([UInt8](repeating: 0xAB, count: 24)), "5818" + String(repeating: "ab", count: 24)),
            ([], "80"),
            ([1, "a", [true]], "830161618 1f5".replacingSpaces()),
            (.map([]), "a0"),
            (false, "f4"),
            (true, "f5"),
            (.null, "f6"),
        ] as [(CBOR, String)])
    func encodesItemsInTheirShortestForm(item: CBOR, hex: String) {
        #expect(Hex.encode(item.encoded()) == hex)
        #expect(CBOR(decoding: item.encoded()) == item)
    }

    /// RFC 8949 §4.2.1: map keys in the order of their encoded bytes, whatever order they were given in.
    @Test func sortsMapKeysByTheirEncodedBytes() {
        // A COSE EC2 key's labels given backwards: 1 (01), 3 (03), -1 (20), -2 (21), -3 (22) is the sorted order.
        let key = CBOR.map([(-3, .bytes([0xCC])), (-2, .bytes([0xBB])), (-1, 1), (3, -7), (1, 2)])
        #expect(Hex.encode(key.encoded()) == "a5" + "0102" + "0326" + "2001" + "2141bb" + "2241cc")
        // Text keys: the length is in the first byte, so shorter keys come first ("fmt", "attStmt", "authData").
        let object = CBOR.map([("authData", .bytes([])), ("fmt", "none"), ("attStmt", .map([]))])
        #expect(
            Hex.encode(object.encoded())
                == "a3" + "63666d74" + "646e6f6e65" + "6761747453746d74" + "a0"
                + "6861757468446174 61".replacingSpaces()
                + "40")
        // An integer key (major 0) sorts before any text key (major 3).
        #expect(Hex.encode(CBOR.map([("a", 1), (10, 2)]).encoded()) == "a2" + "0a02" + "616101")
    }

    @Test(arguments: [
        "", "18", "1900", "5f", "7f", "9f", "bf", "a1", "a101", "f7", "fa00000000", "c0", "0000", "62c328",
    ])
    func decodingRefusesWhatItDoesNotRead(hex: String) {
        #expect(CBOR(decoding: Hex.decode(hex) ?? [0xFF]) == nil)
    }

    @Test func replacingAMapValueKeepsTheOtherPairs() throws {
        let statement = CBOR.map([("alg", -7), ("sig", .bytes([1, 2]))])
        let changed = try #require(statement.replacing("sig", with: .bytes([3])))
        #expect(changed["alg"] == -7)
        #expect(changed["sig"] == .bytes([3]))
        #expect(CBOR.integer(1).replacing("sig", with: 2) == nil)
    }
}

extension String {
    /// The text without spaces (lets a long hex literal be grouped).
    fileprivate func replacingSpaces() -> String { String(filter { $0 != " " }) }
}
