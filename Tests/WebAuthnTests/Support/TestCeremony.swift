import ChallengeCrypto
import LosslessJSON
@testable import WebAuthn

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

    /// rpIdHash ‖ flags ‖ signCount ‖ [AAGUID ‖ length ‖ credential ID ‖ COSE key] ‖ [extensions].
    static func authenticatorData(
        rpID: String = "example.com", flags: UInt8, signCount: UInt32,
        attested: (aaguid: [UInt8], credentialID: [UInt8], coseKey: [UInt8])? = nil, extensions: [UInt8] = []
    ) -> [UInt8] {
        var bytes = SHA256.hash(rpID) + [flags] + CBORValue.bigEndian(UInt64(signCount), count: 4)
        if let attested {
            bytes += attested.aaguid + CBORValue.bigEndian(UInt64(attested.credentialID.count), count: 2)
            bytes += attested.credentialID + attested.coseKey
        }
        return bytes + extensions
    }

    /// A `clientDataJSON` as a browser writes it.
    static func clientDataJSON(
        type: String, challenge: [UInt8] = challenge, origin: String = origin, crossOrigin: Bool? = false,
        topOrigin: String? = nil
    ) -> [UInt8] {
        var object = JSONObject([
            ("type", .string(type)), ("challenge", .string(Base64URL.encode(challenge))), ("origin", .string(origin)),
        ])
        if let crossOrigin { object["crossOrigin"] = .bool(crossOrigin) }
        if let topOrigin { object["topOrigin"] = .string(topOrigin) }
        return JSONValue.object(object).serialized()
    }
}

/// The knobs of one authentication ceremony; the defaults make an assertion that verifies.
struct AssertionCeremony {
    var key: TestKey
    var credentialID: [UInt8] = Array(repeating: 0x42, count: 16)
    var rawID: [UInt8]?
    var type = "webauthn.get"
    var challenge = Fixture.challenge
    var origin = Fixture.origin
    var crossOrigin: Bool? = false
    var topOrigin: String?
    var rpID = "example.com"
    var flags: UInt8 = Flag.up | Flag.uv
    var signCount: UInt32 = 7
    var userHandle: [UInt8]? = Fixture.userHandle
    /// Signs these bytes instead of the right ones.
    var signedBytes: [UInt8]?
    var extensions: [UInt8] = []

    init(_ key: TestKey) {
        self.key = key
    }

    /// The credential as the relying party stored it at registration.
    func stored(signCount: UInt32 = 3, backupEligible: Bool = false) -> StoredCredential {
        StoredCredential(
            id: credentialID, publicKey: key.coseBytes, signCount: signCount, transports: ["internal"],
            aaguid: Fixture.aaguid, backupEligible: backupEligible, backedUp: false, name: "laptop", createdAt: 1)
    }

    var expectation: AssertionExpectation {
        AssertionExpectation(
            challenge: Fixture.challenge, relyingParty: Fixture.relyingParty, userHandle: Fixture.userHandle,
            requireUserVerification: true)
    }

    /// The `AuthenticationResponseJSON`.
    var json: String {
        let authenticatorData = Fixture.authenticatorData(
            rpID: rpID, flags: flags, signCount: signCount, extensions: extensions)
        let clientData = Fixture.clientDataJSON(
            type: type, challenge: challenge, origin: origin, crossOrigin: crossOrigin, topOrigin: topOrigin)
        let signature = key.sign(signedBytes ?? authenticatorData + SHA256.hash(clientData))
        var response = JSONObject([
            ("clientDataJSON", .string(Base64URL.encode(clientData))),
            ("authenticatorData", .string(Base64URL.encode(authenticatorData))),
            ("signature", .string(Base64URL.encode(signature))),
        ])
        if let userHandle { response["userHandle"] = .string(Base64URL.encode(userHandle)) }
        return JSONValue.object(JSONObject([
            ("id", .string(Base64URL.encode(credentialID))), ("rawId", .string(Base64URL.encode(rawID ?? credentialID))),
            ("type", "public-key"), ("response", .object(response)), ("authenticatorAttachment", "platform"),
            ("clientExtensionResults", .object(JSONObject())),
        ])).text()
    }
}

/// The knobs of one registration ceremony; the defaults make a `none` attestation that verifies.
struct RegistrationCeremony {
    /// How the attestation statement is made.
    enum Statement {
        case none
        /// `packed` signed by the credential key, claiming `algorithm` (nil: the key's).
        case packedSelf(algorithm: Int?)
        /// `packed` signed by `signer`, whose certificate (DER) is the leaf of `x5c`.
        case packedCertificate(certificate: [UInt8], signer: TestKey)
        /// Any format and statement, as given.
        case custom(format: String, statement: CBORValue)
    }

    var key: TestKey
    var credentialID: [UInt8] = Array(repeating: 0x17, count: 20)
    /// The response's `id` and `rawId` (nil: the credential ID).
    var rawID: [UInt8]?
    var type = "webauthn.create"
    var challenge = Fixture.challenge
    var origin = Fixture.origin
    var crossOrigin: Bool? = false
    var topOrigin: String?
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

    init(_ key: TestKey) {
        self.key = key
    }

    var expectation: RegistrationExpectation {
        RegistrationExpectation(challenge: Fixture.challenge, relyingParty: Fixture.relyingParty)
    }

    var authenticatorData: [UInt8] {
        Fixture.authenticatorData(
            rpID: rpID, flags: flags | (includeAttestedData ? Flag.at : 0), signCount: signCount,
            attested: includeAttestedData ? (aaguid, credentialID, coseKey ?? key.coseBytes) : nil)
    }

    /// The `RegistrationResponseJSON`.
    var json: String {
        let authenticatorData = authenticatorData
        let clientData = Fixture.clientDataJSON(
            type: type, challenge: challenge, origin: origin, crossOrigin: crossOrigin, topOrigin: topOrigin)
        let signed = signedBytes ?? authenticatorData + SHA256.hash(clientData)
        let format: String
        let attStmt: CBORValue
        switch statement {
        case .none:
            (format, attStmt) = ("none", .entries([]))
        case .packedSelf(let algorithm):
            format = "packed"
            attStmt = .entries([
                (.text("alg"), .int(algorithm ?? key.kind.algorithm)), (.text("sig"), .bytes(key.sign(signed))),
            ])
        case .packedCertificate(let certificate, let signer):
            format = "packed"
            attStmt = .entries([
                (.text("alg"), .int(signer.kind.algorithm)), (.text("sig"), .bytes(signer.sign(signed))),
                (.text("x5c"), .array([.bytes(certificate)])),
            ])
        case .custom(let customFormat, let customStatement):
            (format, attStmt) = (customFormat, customStatement)
        }
        let attestationObject = CBORValue.entries([
            (.text("fmt"), .text(format)), (.text("attStmt"), attStmt), (.text("authData"), .bytes(authenticatorData)),
        ]).encoded
        return JSONValue.object(JSONObject([
            ("id", .string(Base64URL.encode(rawID ?? credentialID))), ("rawId", .string(Base64URL.encode(rawID ?? credentialID))),
            ("type", "public-key"),
            ("response", .object(JSONObject([
                ("clientDataJSON", .string(Base64URL.encode(clientData))),
                ("attestationObject", .string(Base64URL.encode(attestationObject))),
                ("transports", .array(transports.map { .string($0) })),
            ]))),
            ("clientExtensionResults", .object(JSONObject())),
        ])).text()
    }
}
