@testable import ChallengeFlows
import CognitoChallengeTesting
import Testing
@testable import WebAuthnCeremonies

@Suite struct CBORTests {
    @Test func readsEveryKindWebAuthnUses() throws {
        // {1: 2, 3: -7, "fmt": "none", -2: h'0102', "a": [true, false, null, 500, -1000, 4294967296]}
        let bytes: [UInt8] = [
            0xa5, 0x01, 0x02, 0x03, 0x26, 0x63, 0x66, 0x6d, 0x74, 0x64, 0x6e, 0x6f, 0x6e, 0x65, 0x21, 0x42, 0x01, 0x02,
            0x61, 0x61, 0x86, 0xf5, 0xf4, 0xf6, 0x19, 0x01, 0xf4, 0x39, 0x03, 0xe7,
            0x1b, 0x00, 0x00, 0x00, 0x01, 0x00, 0x00, 0x00, 0x00,
        ]
        let value = try CBORDecoder.decode(bytes)
        #expect(value[1]?.intValue == 2)
        #expect(value[3]?.intValue == -7)
        #expect(value["fmt"]?.textValue == "none")
        #expect(value[-2]?.bytesValue == [1, 2])
        #expect(value["a"] == .array([.bool(true), .bool(false), .null, .unsigned(500), .negative(999), .unsigned(1 << 32)]))
        #expect(value.mapValue?.map(\.key) == [.int(1), .int(3), .text("fmt"), .int(-2), .text("a")])
    }

    @Test func readsWhatTheSoftwareAuthenticatorWrites() throws {
        let written = CBOR.map([
            ("authData", .bytes(Array(repeating: 7, count: 300))), (-3, "é ✓"),
            (.integer(.min), [.integer(.max), 0, -24, -25, 255, 65536]),
        ]).encoded()
        let value = try CBORDecoder.decode(written)
        #expect(value["authData"] == .bytes(Array(repeating: 7, count: 300)))
        #expect(value[-3] == .text("é ✓"))
        #expect(value[Int.min] == .array([
            .unsigned(UInt64(Int.max)), .unsigned(0), .negative(23), .negative(24), .unsigned(255), .unsigned(65536),
        ]))
        #expect(value.mapValue?.count == 3)
    }

    @Test func reportsTheLengthOfAPrefixItem() throws {
        let key = CBOR.map([(1, 1), (-2, .bytes([1, 2, 3]))]).encoded()
        let bytes: [UInt8] = [0xaa, 0xbb] + key + [0xa1, 0x61, 0x78, 0x01]
        let (value, length) = try CBORDecoder.decodePrefix(bytes, from: 2)
        #expect(length == key.count)
        #expect(value[-2]?.bytesValue == [1, 2, 3])
        #expect(throws: CBORError.trailingBytes(offset: key.count)) { try CBORDecoder.decode(key + [0x00]) }
    }

    @Test(arguments: [
        ([0x18] as [UInt8], CBORError.truncated(offset: 1)),
        ([0x42, 0x01], .truncated(offset: 0)),
        ([0x5b, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff], .truncated(offset: 0)),
        ([0x82, 0x01], .truncated(offset: 2)),
        ([], .truncated(offset: 0)),
        ([0x5f, 0x41, 0x00, 0xff], .indefiniteLength(offset: 0)),
        ([0x9f, 0xff], .indefiniteLength(offset: 0)),
        ([0xbf, 0xff], .indefiniteLength(offset: 0)),
        ([0x1c], .reserved(offset: 0)),
        ([0xff], .reserved(offset: 0)),
        ([0xc2, 0x41, 0x01], .unsupported("tag", offset: 0)),
        ([0xf9, 0x3c, 0x00], .unsupported("floating-point number", offset: 0)),
        ([0xf7], .unsupported("simple value", offset: 0)),
        ([0x62, 0xc3, 0x28], .invalidUTF8(offset: 0)),
        ([0xa1, 0x41, 0x00, 0x01], .unsupportedMapKey(offset: 1)),
        ([0xa1, 0x1b, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0x01], .unsupportedMapKey(offset: 1)),
        ([0xa2, 0x01, 0x02, 0x01, 0x03], .duplicateMapKey(offset: 3)),
        ([0x99, 0x01, 0x01], .tooManyItems(257, offset: 0)),
        ([0xbb, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff], .tooManyItems(Int.max, offset: 0)),
    ])
    func refusesMalformedInput(bytes: [UInt8], error: CBORError) {
        #expect(throws: error) { try CBORDecoder.decode(bytes) }
    }

    @Test func limitsNestingDepth() throws {
        let eight: [UInt8] = Array(repeating: 0x81, count: 7) + [0x80]
        #expect(try CBORDecoder.decode(eight) != .null)
        let nine: [UInt8] = Array(repeating: 0x81, count: 8) + [0x80]
        #expect(throws: CBORError.tooDeep(offset: 8)) { try CBORDecoder.decode(nine) }
        // Maps count too: eight maps nest, a ninth does not.
        var nested = CBOR.map([])
        for _ in 0..<8 { nested = .map([(.integer(0), nested)]) }
        #expect(throws: CBORError.tooDeep(offset: 16)) { try CBORDecoder.decode(nested.encoded()) }
    }

    @Test func limitsItemsAndInputSize() throws {
        let full = CBOR.array(Array(repeating: .integer(1), count: 256)).encoded()
        #expect(try CBORDecoder.decode(full) == .array(Array(repeating: .unsigned(1), count: 256)))
        let largest = CBOR.bytes(Array(repeating: 0, count: 64 * 1024 - 3)).encoded()
        #expect(largest.count == 64 * 1024)
        #expect(try CBORDecoder.decode(largest).bytesValue?.count == 64 * 1024 - 3)
        #expect(throws: CBORError.inputTooLarge(64 * 1024 + 1)) { try CBORDecoder.decode(largest + [0]) }
    }

    @Test func describesErrorsForAPerson() {
        #expect(CBORError.tooDeep(offset: 3).description == "CBOR nested deeper than 8 levels (byte 3)")
        #expect(CBORError.truncated(offset: 9).description == "CBOR ends inside an item (byte 9)")
    }
}
