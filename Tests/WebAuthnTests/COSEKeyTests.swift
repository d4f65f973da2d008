import Testing
@testable import WebAuthn

@Suite struct COSEKeyTests {
    @Test(arguments: TestKey.Kind.allCases)
    func loadsEachKindAndVerifiesItsSignatures(kind: TestKey.Kind) throws {
        let key = TestKey.shared[kind]!
        let cose = try COSEKey(bytes: key.coseBytes)
        #expect(cose.algorithm == kind.algorithm)
        let message = Array("authenticator data and client data hash".utf8)
        #expect(cose.verify(key.sign(message), of: message))
        #expect(!cose.verify(key.sign(message), of: message + [0]))
        #expect(!cose.verify(TestKey.others[kind]!.sign(message), of: message))
        #expect(!cose.verify([], of: message))
    }

    @Test func refusesASignatureOfAnotherAlgorithm() throws {
        let message: [UInt8] = [1, 2, 3]
        let ec = try COSEKey(bytes: TestKey.shared[.es256]!.coseBytes)
        #expect(!ec.publicKey.verify(TestKey.shared[.es256]!.sign(message), of: message, algorithm: -257))
        #expect(!ec.publicKey.verify(TestKey.shared[.es256]!.sign(message), of: message, algorithm: -8))
    }

    /// The ES256 key with one member replaced (nil: removed).
    static func es256(replacing key: Int, with value: CBORValue?) -> [UInt8] {
        var entries = TestKey.shared[.es256]!.cose.mapValue!
        entries.removeAll { $0.key == .int(key) }
        if let value { entries.append(CBORMapEntry(key: .int(key), value: value)) }
        return CBORValue.map(entries).encoded
    }

    @Test func refusesMalformedOrUnsupportedKeys() {
        let x = TestKey.shared[.es256]!.cose[-2]!
        #expect(throws: WebAuthnError.unsupportedAlgorithm(-35)) { try COSEKey(bytes: Self.es256(replacing: 3, with: .int(-35))) }
        #expect(throws: WebAuthnError.unsupportedAlgorithm(-7)) { try COSEKey(bytes: Self.es256(replacing: -1, with: .int(2))) }
        #expect(throws: WebAuthnError.malformed("the COSE key has no algorithm (3)")) {
            try COSEKey(bytes: Self.es256(replacing: 3, with: nil))
        }
        #expect(throws: WebAuthnError.malformed("ES256 COSE key of key type 1, not EC2 (2)")) {
            try COSEKey(bytes: Self.es256(replacing: 1, with: .int(1)))
        }
        #expect(throws: WebAuthnError.malformed("the P-256 COSE key needs x (-2) and y (-3) of 32 bytes each")) {
            try COSEKey(bytes: Self.es256(replacing: -3, with: .bytes(Array(repeating: 1, count: 31))))
        }
        // x repeated as y: not a point on the curve (with overwhelming probability, and for this fixed key surely).
        #expect(throws: WebAuthnError.malformed("the P-256 public key is not a point on the curve")) {
            try COSEKey(bytes: Self.es256(replacing: -3, with: x))
        }
        #expect(throws: WebAuthnError.malformed("the credential public key is not a CBOR map")) {
            try COSEKey(bytes: CBORValue.bytes([1]).encoded)
        }
        #expect(throws: WebAuthnError.malformed("credential public key: bytes follow the CBOR item (byte 1)")) {
            try COSEKey(bytes: [0xa0, 0x00])
        }
    }

    @Test func refusesShortOrEvenRSAKeys() throws {
        let rsa = TestKey.shared[.rs256]!.cose
        let n = rsa[-1]!.bytesValue!
        let short = CBORValue.entries([(.int(1), .int(3)), (.int(3), .int(-257)), (.int(-1), .bytes(Array(n.prefix(128)))), (.int(-2), .bytes([1, 0, 1]))])
        #expect(throws: WebAuthnError.malformed("the RSA modulus has 1024 bits; 2048 to 8192 are accepted")) {
            try COSEKey(bytes: short.encoded)
        }
        let even = CBORValue.entries([(.int(1), .int(3)), (.int(3), .int(-257)), (.int(-1), .bytes(n)), (.int(-2), .bytes([1, 0, 0]))])
        #expect(throws: WebAuthnError.malformed("the RSA public exponent is not an odd number above 1")) {
            try COSEKey(bytes: even.encoded)
        }
        #expect(try COSEKey(bytes: rsa.encoded).publicKey.type != 0)
    }

    @Test func refusesAnEd25519KeyOfTheWrongSize() {
        let key = CBORValue.entries([(.int(1), .int(1)), (.int(3), .int(-8)), (.int(-1), .int(6)), (.int(-2), .bytes([1, 2]))])
        #expect(throws: WebAuthnError.malformed("the Ed25519 COSE key needs x (-2) of 32 bytes")) { try COSEKey(bytes: key.encoded) }
        let x448 = CBORValue.entries([(.int(1), .int(1)), (.int(3), .int(-8)), (.int(-1), .int(7)), (.int(-2), .bytes([1, 2]))])
        #expect(throws: WebAuthnError.unsupportedAlgorithm(-8)) { try COSEKey(bytes: x448.encoded) }
    }
}
