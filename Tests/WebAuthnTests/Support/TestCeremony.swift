import ChallengeCrypto
import ChallengeFlows
@testable import CognitoChallengeTesting
import LosslessJSON
@testable import WebAuthnCeremonies

/// Flag bytes for authenticator data.
enum Flag {
    static let up: UInt8 = 0x01
    static let uv: UInt8 = 0x04
    static let be: UInt8 = 0x08
    static let bs: UInt8 = 0x10
    static let at: UInt8 = 0x40
    static let ed: UInt8 = 0x80
}

/// The relying party and expectations every ceremony test starts from.
enum Fixture {
    static let relyingParty = RelyingParty(
        id: "example.com", name: "Example", allowedOrigins: ["https://example.com", "https://login.example.com"])
    static let origin = "https://example.com"
    static let challenge: [UInt8] = Array(0..<32)
    static let userHandle: [UInt8] = Array(repeating: 0xa5, count: 32)
    static let aaguid: [UInt8] = Array(0x10..<0x20)

    /// rpIdHash ‖ flags ‖ signCount ‖ [AAGUID ‖ length ‖ credential ID ‖ COSE key] ‖ [extensions], with any flags
    /// (the software authenticator sets only those its choices allow).
    static func authenticatorData(
        rpID: String = "example.com", flags: UInt8, signCount: UInt32,
        attested: (aaguid: [UInt8], credentialID: [UInt8], coseKey: [UInt8])? = nil, extensions: [UInt8] = []
    ) -> [UInt8] {
        var bytes = SHA256.hash(rpID) + [flags] + withUnsafeBytes(of: signCount.bigEndian, Array.init)
        if let attested {
            let length = UInt16(truncatingIfNeeded: attested.credentialID.count)
            bytes += attested.aaguid + withUnsafeBytes(of: length.bigEndian, Array.init)
            bytes += attested.credentialID + attested.coseKey
        }
        return bytes + extensions
    }

    /// The `PublicKeyCredential` JSON around `response`.
    static func credentialJSON(id: [UInt8], rawID: [UInt8], response: JSONObject) -> String {
        JSONValue.object(JSONObject([
            ("id", .string(Base64URL.encode(id))), ("rawId", .string(Base64URL.encode(rawID))), ("type", "public-key"),
            ("response", .object(response)), ("authenticatorAttachment", "platform"),
            ("clientExtensionResults", .object(JSONObject())),
        ])).text()
    }
}

/// The client data a ceremony signs; the defaults are what a browser writes at the fixture's origin.
struct ClientDataFields {
    var type: String
    var challenge = Fixture.challenge
    var origin = Fixture.origin
    /// Nil leaves the member out.
    var crossOrigin: Bool? = false
    var topOrigin: String?

    /// The `clientDataJSON` bytes.
    var json: [UInt8] {
        var object = JSONObject([
            ("type", .string(type)), ("challenge", .string(Base64URL.encode(challenge))), ("origin", .string(origin)),
        ])
        if let crossOrigin { object["crossOrigin"] = .bool(crossOrigin) }
        if let topOrigin { object["topOrigin"] = .string(topOrigin) }
        return JSONValue.object(object).serialized()
    }
}

/// What both ceremonies let a test change.
protocol TestCeremony {
    var clientData: ClientDataFields { get set }
    var rpID: String { get set }
    var flags: UInt8 { get set }
}

extension TestCeremony {
    /// The changes both ceremonies must refuse alike, each with the error, for a ceremony whose client data type
    /// `otherType` is not: the client data (type, challenge, origin, framing), the RP ID and the flags.
    func refusedAlike(otherType: String) -> [(what: String, error: WebAuthnError, change: (inout Self) -> Void)] {
        [
            ("type", .wrongType(expected: clientData.type, found: otherType), { $0.clientData.type = otherType }),
            ("another challenge", .challengeMismatch, { $0.clientData.challenge = Array(1...32) }),
            ("no challenge", .challengeMismatch, { $0.clientData.challenge = [] }),
            ("another origin", .originNotAllowed("https://evil.example"), { $0.clientData.origin = "https://evil.example" }),
            ("a trailing slash", .originNotAllowed("https://example.com/"), { $0.clientData.origin = "https://example.com/" }),
            ("http", .originNotAllowed("http://example.com"), { $0.clientData.origin = "http://example.com" }),
            ("cross-origin", .crossOrigin, { $0.clientData.crossOrigin = true }),
            ("a top origin", .crossOrigin, { $0.clientData.topOrigin = "https://framing.example" }),
            ("another RP ID", .rpIDMismatch, { $0.rpID = "evil.example" }),
            ("no UP", .userNotPresent, { $0.flags = Flag.uv }),
            ("no UV", .userNotVerified, { $0.flags = Flag.up }),
            ("BS without BE", .backupFlagsInvalid, { $0.flags = Flag.up | Flag.uv | Flag.bs }),
        ]
    }
}

/// The knobs of one authentication ceremony; the defaults make an assertion that verifies.
struct AssertionCeremony: TestCeremony {
    var key: KeyHandle
    var credentialID: [UInt8] = Array(repeating: 0x42, count: 16)
    var rawID: [UInt8]?
    var clientData = ClientDataFields(type: "webauthn.get")
    var rpID = "example.com"
    var flags: UInt8 = Flag.up | Flag.uv
    var signCount: UInt32 = 7
    var userHandle: [UInt8]? = Fixture.userHandle
    /// Signs these bytes instead of the right ones.
    var signedBytes: [UInt8]?
    var extensions: [UInt8] = []

    init(_ key: KeyHandle) {
        self.key = key
    }

    /// The credential as the relying party stored it at registration.
    func stored(signCount: UInt32 = 3, backupEligible: Bool = false) throws -> StoredCredential {
        StoredCredential(
            id: credentialID, publicKey: try key.coseBytes, signCount: signCount, transports: ["internal"],
            aaguid: Fixture.aaguid, backupEligible: backupEligible, backedUp: false, name: "laptop", createdAt: 1)
    }

    var expectation: AssertionExpectation {
        AssertionExpectation(
            challenge: Fixture.challenge, relyingParty: Fixture.relyingParty, userHandle: Fixture.userHandle,
            requireUserVerification: true)
    }

    /// The `AuthenticationResponseJSON`.
    var json: String {
        get throws {
            let authenticatorData = Fixture.authenticatorData(
                rpID: rpID, flags: flags, signCount: signCount, extensions: extensions)
            let clientDataJSON = clientData.json
            let signature = try key.sign(signedBytes ?? authenticatorData + SHA256.hash(clientDataJSON))
            var response = JSONObject([
                ("clientDataJSON", .string(Base64URL.encode(clientDataJSON))),
                ("authenticatorData", .string(Base64URL.encode(authenticatorData))),
                ("signature", .string(Base64URL.encode(signature))),
            ])
            if let userHandle { response["userHandle"] = .string(Base64URL.encode(userHandle)) }
            return Fixture.credentialJSON(id: credentialID, rawID: rawID ?? credentialID, response: response)
        }
    }
}

/// The knobs of one registration ceremony; the defaults make a `none` attestation that verifies.
struct RegistrationCeremony: TestCeremony {
    /// How the attestation statement is made.
    enum Statement {
        case none
        /// `packed` signed by the credential key, claiming `algorithm` (nil: the key's).
        case packedSelf(algorithm: Int?)
        /// `packed` signed by `signer`, whose certificate (DER) is the leaf of `x5c`.
        case packedCertificate(certificate: [UInt8], signer: KeyHandle)
        /// Any format and statement, as given.
        case custom(format: String, statement: CBOR)
    }

    var key: KeyHandle
    var credentialID: [UInt8] = Array(repeating: 0x17, count: 20)
    /// The response's `id` and `rawId` (nil: the credential ID).
    var rawID: [UInt8]?
    var clientData = ClientDataFields(type: "webauthn.create")
    var rpID = "example.com"
    var flags: UInt8 = Flag.up | Flag.uv | Flag.be | Flag.bs
    var signCount: UInt32 = 0
    var aaguid = Fixture.aaguid
    /// The COSE key in the attested credential data (nil: the key's).
    var coseKey: [UInt8]?
    var statement = Statement.none
    /// Signs these bytes instead of the right ones (packed).
    var signedBytes: [UInt8]?
    var transports = ["internal", "hybrid"]
    var includeAttestedData = true

    init(_ key: KeyHandle) {
        self.key = key
    }

    var expectation: RegistrationExpectation {
        RegistrationExpectation(challenge: Fixture.challenge, relyingParty: Fixture.relyingParty)
    }

    var authenticatorData: [UInt8] {
        get throws {
            Fixture.authenticatorData(
                rpID: rpID, flags: flags | (includeAttestedData ? Flag.at : 0), signCount: signCount,
                attested: includeAttestedData ? (aaguid, credentialID, try coseKey ?? key.coseBytes) : nil)
        }
    }

    /// The attestation statement's format and map.
    func attestationStatement(signing signed: [UInt8]) throws -> (format: String, statement: CBOR) {
        switch statement {
        case .none:
            return ("none", .map([]))
        case .packedSelf(let algorithm):
            let alg = Int64(algorithm ?? key.algorithm.rawValue)
            return ("packed", .map([("alg", .integer(alg)), ("sig", .bytes(try key.sign(signed)))]))
        case .packedCertificate(let certificate, let signer):
            return ("packed", .map([
                ("alg", .integer(Int64(signer.algorithm.rawValue))), ("sig", .bytes(try signer.sign(signed))),
                ("x5c", .array([.bytes(certificate)])),
            ]))
        case .custom(let format, let statement):
            return (format, statement)
        }
    }

    /// The `RegistrationResponseJSON`.
    var json: String {
        get throws {
            let authenticatorData = try authenticatorData
            let clientDataJSON = clientData.json
            let (format, attStmt) = try attestationStatement(
                signing: signedBytes ?? authenticatorData + SHA256.hash(clientDataJSON))
            let attestationObject = CBOR.map([
                ("fmt", .text(format)), ("attStmt", attStmt), ("authData", .bytes(authenticatorData)),
            ]).encoded()
            let response = JSONObject([
                ("clientDataJSON", .string(Base64URL.encode(clientDataJSON))),
                ("attestationObject", .string(Base64URL.encode(attestationObject))),
                ("transports", .array(transports.map { .string($0) })),
            ])
            return Fixture.credentialJSON(id: rawID ?? credentialID, rawID: rawID ?? credentialID, response: response)
        }
    }
}
