import ChallengeCrypto
import LosslessJSON
import Platform

/// A software passkey authenticator together with the browser's part of the WebAuthn ceremonies: it takes the
/// options JSON a relying party sends and returns the response JSON a browser's `PublicKeyCredential.toJSON()`
/// gives, for tests and local tools.
///
/// It signs whatever it is asked to: it does not check that the origin belongs to the RP ID, so that tests can make
/// responses a browser would not. Knobs in ``RegistrationChoices`` and ``AssertionChoices`` turn flags off and break
/// attestation certificates for negative tests.
public struct SoftwareAuthenticator: Sendable {
    /// How the signature counter moves.
    public enum CounterPolicy: String, Sendable, CaseIterable {
        /// One more on every assertion (registration reports the starting 0).
        case increment
        /// Always 0, as synced passkeys report.
        case alwaysZero = "zero"
    }

    /// The AAGUID this authenticator model uses unless told otherwise.
    public static let defaultAAGUID: [UInt8] = [
        0x5A, 0x0F, 0x7E, 0x43, 0x91, 0x2C, 0x4B, 0x8D, 0xA6, 0x1E, 0x3C, 0x57, 0xD2, 0x90, 0x6B, 0xF4,
    ]

    /// The authenticator model's AAGUID (16 bytes), written into attested credential data and attestation certificates.
    public var aaguid: [UInt8]
    public var counterPolicy: CounterPolicy
    /// Every credential held, oldest first.
    public var credentials: [SoftwareCredential]
    var attestation: AttestationAuthority

    /// A new authenticator with no credentials and a fresh attestation root and key.
    public init(aaguid: [UInt8] = defaultAAGUID, counterPolicy: CounterPolicy = .increment)
        throws(SoftwareAuthenticatorError)
    {
        self.aaguid = aaguid
        self.counterPolicy = counterPolicy
        credentials = []
        attestation = try AttestationAuthority.generate()
    }

    init(
        aaguid: [UInt8], counterPolicy: CounterPolicy, credentials: [SoftwareCredential],
        attestation: AttestationAuthority
    ) {
        self.aaguid = aaguid
        self.counterPolicy = counterPolicy
        self.credentials = credentials
        self.attestation = attestation
    }

    /// The root certificate (DER) that issues this authenticator's attestation certificates: a relying party's
    /// trust anchor for it.
    public var attestationRootCertificate: [UInt8] { attestation.rootCertificate }

    /// A fresh `x5c` (DER, leaf first) of the kind a packed registration carries, shaped as `chain` says.
    public func attestationCertificates(chain: AttestationChain = .issuedByRoot) throws(SoftwareAuthenticatorError)
        -> [[UInt8]]
    {
        try attestation.certificateChain(aaguid: aaguid, flaw: nil, chain: chain)
    }

    // MARK: - Registration

    /// The attestation statement a registration carries.
    public enum AttestationFormat: Sendable, Equatable {
        /// What the options' `attestation` asks for: `none` (or absent) gives `none`, anything else `packed` with a
        /// certificate.
        case asRequested
        /// `none`, with an empty statement.
        case none
        /// `packed` self attestation: `alg` and `sig` made with the credential's own key.
        case packedSelf
        /// `packed` with `x5c`: signed with the attestation key, whose leaf certificate has `flaw` when given, in a
        /// chain shaped as `chain` says (by default the leaf alone, issued by ``attestationRootCertificate``).
        case packedCertificate(flaw: AttestationCertificateFlaw? = nil, chain: AttestationChain = .issuedByRoot)
    }

    /// How a registration departs from the defaults.
    public struct RegistrationChoices: Sendable {
        /// The key's algorithm; nil takes the first of `pubKeyCredParams` this authenticator supports.
        public var algorithm: COSEAlgorithm?
        /// The statement's format.
        public var attestation: AttestationFormat
        /// The UP flag.
        public var userPresent: Bool
        /// The UV flag.
        public var userVerified: Bool
        /// The BE flag, kept with the credential.
        public var backupEligible: Bool
        /// The BS flag, kept with the credential.
        public var backedUp: Bool

        public init(
            algorithm: COSEAlgorithm? = nil, attestation: AttestationFormat = .asRequested, userPresent: Bool = true,
            userVerified: Bool = true, backupEligible: Bool = false, backedUp: Bool = false
        ) {
            self.algorithm = algorithm
            self.attestation = attestation
            self.userPresent = userPresent
            self.userVerified = userVerified
            self.backupEligible = backupEligible
            self.backedUp = backedUp
        }
    }

    /// Creates a credential for `PublicKeyCredentialCreationOptionsJSON` as seen from `origin`, keeps it, and returns
    /// the `RegistrationResponseJSON` a browser gives. Refuses when `excludeCredentials` names a credential held for
    /// the RP ID, or when no offered algorithm is supported.
    public mutating func register(
        optionsJSON: String, origin: String, choices: RegistrationChoices = RegistrationChoices()
    ) throws(SoftwareAuthenticatorError) -> String {
        let options = try OptionsReader(json: optionsJSON)
        let challenge = try options.bytes("challenge")
        let rp = try options.object("rp")
        let rpID = try rp.optionalString("id") ?? origin.hostForRPID()
        let user = try options.object("user")
        let userHandle = try user.bytes("id")
        let userName = try user.optionalString("name") ?? ""

        for excluded in try options.optionalArray("excludeCredentials") {
            let id = try excluded.bytes("id")
            if credentials.contains(where: { $0.id == id && $0.rpID == rpID }) {
                throw .credentialExcluded(id: Base64URL.encode(id))
            }
        }
        let algorithm: COSEAlgorithm
        if let forced = choices.algorithm {
            algorithm = forced
        } else {
            algorithm = try Self.chooseAlgorithm(options.optionalArray("pubKeyCredParams"))
        }
        var format = choices.attestation
        if format == .asRequested {
            let requested = try options.optionalString("attestation") ?? "none"
            format = requested == "none" ? .none : .packedCertificate()
        }

        let key = try KeyHandle.generate(algorithm)
        let credentialID: [UInt8]
        do {
            let random = SystemRandom()
            credentialID = try random.bytes(count: 16 + Int(random.uniformInteger(below: 17)))
        } catch {
            throw .openSSL(operation: "draw a credential ID")
        }
        let credential = SoftwareCredential(
            id: credentialID, algorithm: algorithm, privateKey: try key.pkcs8DER(), rpID: rpID, userHandle: userHandle,
            userName: userName, signCount: 0, backupEligible: choices.backupEligible, backedUp: choices.backedUp)

        let clientDataJSON = Self.clientData(type: "webauthn.create", challenge: challenge, origin: origin)
        let cosePublicKey = try key.coseKey().encoded()
        let attestedCredentialData =
            aaguid + [UInt8(credentialID.count >> 8), UInt8(credentialID.count & 0xFF)]
            + credentialID + cosePublicKey
        let authenticatorData = Self.authenticatorData(
            rpID: rpID, userPresent: choices.userPresent, userVerified: choices.userVerified,
            credential: credential, signCount: credential.signCount, attestedCredentialData: attestedCredentialData)
        let signedData = authenticatorData + SHA256.hash(clientDataJSON)

        let statement: (format: String, fields: [(key: CBOR, value: CBOR)])
        switch format {
        case .none, .asRequested:
            statement = ("none", [])
        case .packedSelf:
            statement = (
                "packed",
                [("alg", .integer(Int64(algorithm.rawValue))), ("sig", .bytes(try key.sign(signedData)))]
            )
        case .packedCertificate(let flaw, let chain):
            let attestationKey = try KeyHandle.load(pkcs8DER: attestation.attestationKey, algorithm: .es256)
            let certificates = try attestation.certificateChain(aaguid: aaguid, flaw: flaw, chain: chain)
            statement = (
                "packed",
                [
                    ("alg", .integer(Int64(COSEAlgorithm.es256.rawValue))),
                    ("sig", .bytes(try attestationKey.sign(signedData))),
                    ("x5c", .array(certificates.map { .bytes($0) })),
                ]
            )
        }
        let attestationObject = CBOR.map([
            ("fmt", .text(statement.format)), ("attStmt", .map(statement.fields)),
            ("authData", .bytes(authenticatorData)),
        ]).encoded()

        credentials.append(credential)
        let response: JSONValue = [
            "clientDataJSON": .string(Base64URL.encode(clientDataJSON)),
            "attestationObject": .string(Base64URL.encode(attestationObject)),
            "transports": ["internal", "hybrid"],
            "publicKeyAlgorithm": .number(JSONNumber(algorithm.rawValue)),
            "publicKey": .string(Base64URL.encode(try key.subjectPublicKeyInfoDER())),
            "authenticatorData": .string(Base64URL.encode(authenticatorData)),
        ]
        return Self.credentialJSON(id: credentialID, response: response)
    }

    // MARK: - Authentication

    /// How an assertion departs from the defaults.
    public struct AssertionChoices: Sendable {
        /// The credential to use; nil takes the newest one that qualifies.
        public var credentialID: [UInt8]?
        /// The UP flag.
        public var userPresent: Bool
        /// The UV flag.
        public var userVerified: Bool

        public init(credentialID: [UInt8]? = nil, userPresent: Bool = true, userVerified: Bool = true) {
            self.credentialID = credentialID
            self.userPresent = userPresent
            self.userVerified = userVerified
        }
    }

    /// Signs in with a held credential for `PublicKeyCredentialRequestOptionsJSON` as seen from `origin`: one for the
    /// RP ID that `allowCredentials` lists (any for the RP ID when the list is empty or absent). Moves its counter
    /// by ``counterPolicy`` and returns the `AuthenticationResponseJSON` a browser gives.
    public mutating func authenticate(
        optionsJSON: String, origin: String, choices: AssertionChoices = AssertionChoices()
    ) throws(SoftwareAuthenticatorError) -> String {
        let options = try OptionsReader(json: optionsJSON)
        let challenge = try options.bytes("challenge")
        let rpID = try options.optionalString("rpId") ?? origin.hostForRPID()
        var allowed: [[UInt8]] = []
        for descriptor in try options.optionalArray("allowCredentials") {
            allowed.append(try descriptor.bytes("id"))
        }
        guard
            let index = credentials.lastIndex(where: { credential in
                credential.rpID == rpID && (allowed.isEmpty || allowed.contains(credential.id))
                    && (choices.credentialID.map { $0 == credential.id } ?? true)
            })
        else { throw .noCredential(rpID: rpID) }

        switch counterPolicy {
        case .increment: credentials[index].signCount &+= 1
        case .alwaysZero: credentials[index].signCount = 0
        }
        let credential = credentials[index]
        let clientDataJSON = Self.clientData(type: "webauthn.get", challenge: challenge, origin: origin)
        let authenticatorData = Self.authenticatorData(
            rpID: rpID, userPresent: choices.userPresent, userVerified: choices.userVerified, credential: credential,
            signCount: credential.signCount, attestedCredentialData: nil)
        let signature = try credential.sign(authenticatorData + SHA256.hash(clientDataJSON))
        let response: JSONValue = [
            "clientDataJSON": .string(Base64URL.encode(clientDataJSON)),
            "authenticatorData": .string(Base64URL.encode(authenticatorData)),
            "signature": .string(Base64URL.encode(signature)),
            "userHandle": .string(Base64URL.encode(credential.userHandle)),
        ]
        return Self.credentialJSON(id: credential.id, response: response)
    }

    // MARK: - Parts

    /// The first algorithm of `pubKeyCredParams` this authenticator makes; an empty list means ES256 and RS256,
    /// as browsers take it.
    private static func chooseAlgorithm(_ parameters: [OptionsReader]) throws(SoftwareAuthenticatorError)
        -> COSEAlgorithm
    {
        if parameters.isEmpty { return .es256 }
        var offered: [Int] = []
        for parameter in parameters {
            guard (try parameter.optionalString("type") ?? "public-key") == "public-key" else { continue }
            let value = try parameter.integer("alg")
            if let algorithm = COSEAlgorithm(rawValue: value) { return algorithm }
            offered.append(value)
        }
        throw .noSupportedAlgorithm(offered: offered)
    }

    /// `{"type","challenge","origin","crossOrigin":false}` as browsers serialize it.
    private static func clientData(type: String, challenge: [UInt8], origin: String) -> [UInt8] {
        let value: JSONValue = [
            "type": .string(type), "challenge": .string(Base64URL.encode(challenge)), "origin": .string(origin),
            "crossOrigin": false,
        ]
        return value.serialized()
    }

    /// rpIdHash ‖ flags ‖ signCount (big-endian) ‖ attested credential data (registration only).
    private static func authenticatorData(
        rpID: String, userPresent: Bool, userVerified: Bool, credential: SoftwareCredential, signCount: UInt32,
        attestedCredentialData: [UInt8]?
    ) -> [UInt8] {
        var flags: UInt8 = 0
        if userPresent { flags |= 0x01 }
        if userVerified { flags |= 0x04 }
        if credential.backupEligible { flags |= 0x08 }
        if credential.backedUp { flags |= 0x10 }
        if attestedCredentialData != nil { flags |= 0x40 }
        let counter = (0..<4).map { UInt8(truncatingIfNeeded: signCount >> (8 * (3 - $0))) }
        return SHA256.hash(rpID) + [flags] + counter + (attestedCredentialData ?? [])
    }

    /// The `PublicKeyCredential` JSON around a response.
    private static func credentialJSON(id: [UInt8], response: JSONValue) -> String {
        let value: JSONValue = [
            "id": .string(Base64URL.encode(id)),
            "rawId": .string(Base64URL.encode(id)),
            "type": "public-key",
            "response": response,
            "authenticatorAttachment": "platform",
            "clientExtensionResults": .object(JSONObject()),
        ]
        return value.text()
    }
}

extension String {
    /// The host of this origin (`https://example.com:8443` → `example.com`): the RP ID browsers use when the options
    /// give none. The whole text when it has no scheme.
    fileprivate func hostForRPID() -> String {
        let afterScheme = firstRange(of: "://").map { self[$0.upperBound...] } ?? self[...]
        return String(afterScheme.prefix { $0 != "/" }.prefix { $0 != ":" })
    }
}
