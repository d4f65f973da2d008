@testable import ChallengeFlows
@testable import CognitoChallengeTesting
import Testing
@testable import WebAuthnCeremonies

@Suite struct COSEKeyTests {
    @Test(arguments: COSEAlgorithm.allCases)
    func loadsEachKindAndVerifiesItsSignatures(algorithm: COSEAlgorithm) throws {
        let key = KeyHandle.shared[algorithm]!
        let cose = try COSEKey(bytes: key.coseBytes)
        #expect(cose.algorithm == algorithm.rawValue)
        let message = Array("authenticator data and client data hash".utf8)
        #expect(cose.verify(try key.sign(message), of: message))
        #expect(!cose.verify(try key.sign(message), of: message + [0]))
        #expect(!cose.verify(try KeyHandle.others[algorithm]!.sign(message), of: message))
        #expect(!cose.verify([], of: message))
    }

    @Test func refusesASignatureOfAnotherAlgorithm() throws {
        let message: [UInt8] = [1, 2, 3]
        let key = KeyHandle.shared[.es256]!
        let ec = try COSEKey(bytes: key.coseBytes)
        #expect(!ec.publicKey.verify(try key.sign(message), of: message, algorithm: -257))
        #expect(!ec.publicKey.verify(try key.sign(message), of: message, algorithm: -8))
    }

    /// The ES256 key with one member replaced (nil: removed).
    static func es256(replacing key: CBOR, with value: CBOR?) throws -> [UInt8] {
        guard case .map(var pairs) = try KeyHandle.shared[.es256]!.coseKey() else { throw CaseError("not a map") }
        pairs.removeAll { $0.key == key }
        if let value { pairs.append((key, value)) }
        return CBOR.map(pairs).encoded()
    }

    @Test func refusesMalformedOrUnsupportedKeys() throws {
        let x = try #require(try KeyHandle.shared[.es256]!.coseKey()[-2])
        #expect(throws: WebAuthnError.unsupportedAlgorithm(-35)) { try COSEKey(bytes: Self.es256(replacing: 3, with: -35)) }
        #expect(throws: WebAuthnError.unsupportedAlgorithm(-7)) { try COSEKey(bytes: Self.es256(replacing: -1, with: 2)) }
        #expect(throws: WebAuthnError.malformed("the COSE key has no algorithm (3)")) {
            try COSEKey(bytes: Self.es256(replacing: 3, with: nil))
        }
        #expect(throws: WebAuthnError.malformed("ES256 COSE key of key type 1, not EC2 (2)")) {
            try COSEKey(bytes: Self.es256(replacing: 1, with: 1))
        }
        #expect(throws: WebAuthnError.malformed("the P-256 COSE key needs x (-2) and y (-3) of 32 bytes each")) {
            try COSEKey(bytes: Self.es256(replacing: -3, with: .bytes(Array(repeating: 1, count: 31))))
        }
        // x repeated as y: not a point on the curve (with overwhelming probability, and for this fixed key surely).
        #expect(throws: WebAuthnError.malformed("the P-256 public key is not a point on the curve")) {
            try COSEKey(bytes: Self.es256(replacing: -3, with: x))
        }
        #expect(throws: WebAuthnError.malformed("the credential public key is not a CBOR map")) {
            try COSEKey(bytes: CBOR.bytes([1]).encoded())
        }
        #expect(throws: WebAuthnError.malformed("credential public key: bytes follow the CBOR item (byte 1)")) {
            try COSEKey(bytes: [0xa0, 0x00])
        }
    }

    @Test func refusesShortOrEvenRSAKeys() throws {
        let rsa = try KeyHandle.shared[.rs256]!.coseKey()
        guard case .bytes(let n)? = rsa[-1] else { throw CaseError("the RSA key has no modulus") }
        let short = CBOR.map([(1, 3), (3, -257), (-1, .bytes(Array(n.prefix(128)))), (-2, .bytes([1, 0, 1]))])
        #expect(throws: WebAuthnError.malformed("the RSA modulus has 1024 bits; 2048 to 8192 are accepted")) {
            try COSEKey(bytes: short.encoded())
        }
        let even = CBOR.map([(1, 3), (3, -257), (-1, .bytes(n)), (-2, .bytes([1, 0, 0]))])
        #expect(throws: WebAuthnError.malformed("the RSA public exponent is not an odd number above 1")) {
            try COSEKey(bytes: even.encoded())
        }
        #expect(try COSEKey(bytes: rsa.encoded()).publicKey.isA("RSA"))
    }

    @Test func refusesAnEd25519KeyOfTheWrongSize() {
        let key = CBOR.map([(1, 1), (3, -8), (-1, 6), (-2, .bytes([1, 2]))])
        #expect(throws: WebAuthnError.malformed("the Ed25519 COSE key needs x (-2) of 32 bytes")) { try COSEKey(bytes: key.encoded()) }
        let x448 = CBOR.map([(1, 1), (3, -8), (-1, 7), (-2, .bytes([1, 2]))])
        #expect(throws: WebAuthnError.unsupportedAlgorithm(-8)) { try COSEKey(bytes: x448.encoded()) }
    }
}
