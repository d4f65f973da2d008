import ChallengeCrypto

/// What an authentication ceremony (WebAuthn §7.2) must match, besides the user's credentials.
public struct AssertionExpectation: Sendable {
    /// The challenge the relying party issued (single use; the caller checks that).
    public var challenge: [UInt8]
    public var relyingParty: RelyingParty
    /// The user's opaque handle; an assertion that carries a `userHandle` must carry this one.
    public var userHandle: [UInt8]
    /// True when the UV flag must be set (a passkey alone signs in).
    public var requireUserVerification: Bool

    public init(challenge: [UInt8], relyingParty: RelyingParty, userHandle: [UInt8], requireUserVerification: Bool) {
        self.challenge = challenge
        self.relyingParty = relyingParty
        self.userHandle = userHandle
        self.requireUserVerification = requireUserVerification
    }
}

/// A verified assertion: what to store back on the credential that made it.
public struct VerifiedAssertion: Sendable, Equatable {
    /// Which of the user's credentials signed.
    public var credentialID: [UInt8]
    /// The new signature counter to store.
    public var signCount: UInt32
    /// The BS flag to store.
    public var backedUp: Bool
    /// The UV flag.
    public var userVerified: Bool
}

/// Which attestation a registration must carry.
public struct AttestationPolicy: Sendable, Equatable {
    /// What the relying party asks for in the creation options.
    public enum Conveyance: String, Sendable, Equatable {
        /// `none` (the default): any format is accepted; `packed` statements are still verified when present.
        case none
        /// `direct`: only a `packed` statement with a certificate chain (x5c) that verifies is accepted.
        case direct
    }

    public var conveyance: Conveyance
    /// When set, only authenticators with one of these AAGUIDs (16 bytes each) may register, and only with a
    /// `packed` statement whose certificate chain verifies to one of ``trustedRoots`` (an AAGUID alone is the
    /// authenticator's own claim); with no roots, every registration is refused.
    public var allowedAAGUIDs: [[UInt8]]?
    /// The trust anchors (DER certificates, such as the FIDO Metadata Service's attestation roots): when any is
    /// given, a `packed` statement's `x5c` must verify to one of them (OpenSSL path validation against these
    /// only, never the system's store).
    public var trustedRoots: [[UInt8]]

    public init(conveyance: Conveyance = .none, allowedAAGUIDs: [[UInt8]]? = nil, trustedRoots: [[UInt8]] = []) {
        self.conveyance = conveyance
        self.allowedAAGUIDs = allowedAAGUIDs
        self.trustedRoots = trustedRoots
    }
}

/// What a registration ceremony (WebAuthn §7.1) must match.
public struct RegistrationExpectation: Sendable {
    /// The challenge the relying party issued in the creation options.
    public var challenge: [UInt8]
    public var relyingParty: RelyingParty
    /// True when the UV flag must be set.
    public var requireUserVerification: Bool
    public var attestation: AttestationPolicy
    /// IDs of credentials already registered (to anyone): a new credential must not reuse one.
    public var registeredCredentialIDs: [[UInt8]]

    public init(
        challenge: [UInt8], relyingParty: RelyingParty, requireUserVerification: Bool = true,
        attestation: AttestationPolicy = AttestationPolicy(), registeredCredentialIDs: [[UInt8]] = []
    ) {
        self.challenge = challenge
        self.relyingParty = relyingParty
        self.requireUserVerification = requireUserVerification
        self.attestation = attestation
        self.registeredCredentialIDs = registeredCredentialIDs
    }
}

/// A verified registration: the credential to store.
public struct VerifiedRegistration: Sendable, Equatable {
    /// The credential, named `name` with `createdAt` 0; the caller sets both before storing it.
    public var credential: StoredCredential
    /// The COSE algorithm of its key (-7 ES256, -8 EdDSA, -257 RS256).
    public var algorithm: Int
    /// The attestation format the authenticator sent (`none`, `packed`, …).
    public var attestationFormat: String
    /// True when the statement was verified against a certificate chain (x5c), not self or none; with trusted roots
    /// configured, the chain also verified to one of them.
    public var attestedByCertificate: Bool
}

/// The WebAuthn ceremonies, verified on OpenSSL.
public enum WebAuthn {
    /// The COSE algorithms accepted, in order of preference: EdDSA (-8), ES256 (-7), RS256 (-257).
    public static let supportedAlgorithms: [Int] = [-8, -7, -257]

    /// Verifies an `AuthenticationResponseJSON` (what `PublicKeyCredential.toJSON()` gives after
    /// `navigator.credentials.get`) against the expectation and the user's credentials, with every check of §7.2.
    public static func verifyAssertion(
        _ responseJSON: String, expecting expectation: AssertionExpectation, credentials: [StoredCredential]
    ) throws(WebAuthnError) -> VerifiedAssertion {
        let credential = try PublicKeyCredentialJSON(responseJSON)
        let clientDataJSON = try credential.response.bytes("clientDataJSON")
        let authenticatorDataBytes = try credential.response.bytes("authenticatorData")
        let signature = try credential.response.bytes("signature")
        // §7.2: the credential is one of the user's, and a user handle, when given, is the user's.
        guard let stored = credentials.first(where: { $0.id == credential.rawID }) else { throw .unknownCredential }
        if let userHandle = try credential.response.optionalBytes("userHandle"),
            !constantTimeEquals(userHandle, expectation.userHandle)
        {
            throw .userHandleMismatch
        }
        // The client data.
        let clientData = try ClientData(clientDataJSON)
        try check(clientData, type: "webauthn.get", challenge: expectation.challenge, relyingParty: expectation.relyingParty)
        // The authenticator data, and BE as registered.
        let authenticatorData = try AuthenticatorData(authenticatorDataBytes)
        try check(
            authenticatorData, relyingParty: expectation.relyingParty,
            requireUserVerification: expectation.requireUserVerification)
        guard authenticatorData.flags.contains(.backupEligible) == stored.backupEligible else {
            throw .backupFlagsInvalid
        }
        // The signature over authenticatorData ‖ SHA-256(clientDataJSON).
        let key = try COSEKey(bytes: stored.publicKey)
        guard key.verify(signature, of: authenticatorDataBytes + SHA256.hash(clientDataJSON)) else {
            throw .badSignature
        }
        // The counter rises, unless the authenticator keeps none (both zero).
        let received = authenticatorData.signCount
        if received != 0 || stored.signCount != 0, received <= stored.signCount {
            throw .counterRegression(stored: stored.signCount, received: received)
        }
        return VerifiedAssertion(
            credentialID: stored.id, signCount: received, backedUp: authenticatorData.flags.contains(.backedUp),
            userVerified: authenticatorData.flags.contains(.userVerified))
    }

    /// Verifies a `RegistrationResponseJSON` (what `PublicKeyCredential.toJSON()` gives after
    /// `navigator.credentials.create`) with every check of §7.1, including the attestation statement (`none`,
    /// `packed` self and x5c).
    public static func verifyRegistration(
        _ responseJSON: String, expecting expectation: RegistrationExpectation
    ) throws(WebAuthnError) -> VerifiedRegistration {
        let credential = try PublicKeyCredentialJSON(responseJSON)
        let clientDataJSON = try credential.response.bytes("clientDataJSON")
        let transports = try credential.response.strings("transports")
        guard transports.count <= 16, transports.allSatisfy({ $0.utf8.count <= 32 }) else {
            throw .malformed("response.transports holds too many or too long names")
        }
        // §7.1: the client data.
        let clientData = try ClientData(clientDataJSON)
        try check(
            clientData, type: "webauthn.create", challenge: expectation.challenge, relyingParty: expectation.relyingParty)
        // The attestation object.
        let attestationObjectBytes = try credential.response.bytes("attestationObject")
        let attestationObject: CBORValue
        do {
            attestationObject = try CBORDecoder.decode(attestationObjectBytes)
        } catch {
            throw .malformed("attestationObject: \(error)")
        }
        guard attestationObject.mapValue != nil, let format = attestationObject["fmt"]?.textValue,
            let statement = attestationObject["attStmt"], statement.mapValue != nil,
            let authenticatorDataBytes = attestationObject["authData"]?.bytesValue
        else { throw .malformed("attestationObject is not a map of fmt, attStmt and authData") }
        // The authenticator data.
        let authenticatorData = try AuthenticatorData(authenticatorDataBytes)
        try check(
            authenticatorData, relyingParty: expectation.relyingParty,
            requireUserVerification: expectation.requireUserVerification)
        guard let attested = authenticatorData.attestedCredential else {
            throw .malformed("the authenticator data has no attested credential data (AT)")
        }
        // The credential key's algorithm is one the options offer, and the key is sound.
        let key = try COSEKey(attested.publicKey)
        guard supportedAlgorithms.contains(key.algorithm) else { throw .unsupportedAlgorithm(key.algorithm) }
        // The attestation statement, under the relying party's policy.
        let clientDataHash = SHA256.hash(clientDataJSON)
        let result: AttestationResult
        switch format {
        case "none":
            guard statement.mapValue?.isEmpty == true else { throw .attestation("a none statement must be empty") }
            result = .unverified
        case "packed":
            result = try PackedAttestation.verify(
                statement, authenticatorData: authenticatorData, credential: attested, credentialKey: key,
                clientDataHash: clientDataHash, trustedRoots: expectation.attestation.trustedRoots)
        default:
            result = .unverified
        }
        if expectation.attestation.conveyance == .direct, result != .packedCertificate {
            throw .attestation("direct attestation needs a packed statement with a certificate chain, not \(format)")
        }
        if let allowed = expectation.attestation.allowedAAGUIDs {
            // An AAGUID is the authenticator's own claim: it names a model only when a chain to a root vouches for it.
            guard !expectation.attestation.trustedRoots.isEmpty else {
                throw .attestation("an AAGUID allow-list needs trusted roots to verify attestation certificate chains against")
            }
            guard result == .packedCertificate else {
                throw .attestation(
                    "an allowed AAGUID counts only with a certificate chain to a trusted root, which this \(format) statement does not carry")
            }
            guard allowed.contains(attested.aaguid) else {
                throw .attestation("the authenticator's AAGUID is not one of the allowed")
            }
        }
        // The credential ID: the response's, and new.
        guard attested.credentialID == credential.rawID else {
            throw .malformed("the attested credential ID is not the response's rawId")
        }
        guard !expectation.registeredCredentialIDs.contains(attested.credentialID) else {
            throw .credentialAlreadyRegistered
        }
        return VerifiedRegistration(
            credential: StoredCredential(
                id: attested.credentialID, publicKey: attested.publicKeyBytes, signCount: authenticatorData.signCount,
                transports: transports, aaguid: attested.aaguid,
                backupEligible: authenticatorData.flags.contains(.backupEligible),
                backedUp: authenticatorData.flags.contains(.backedUp), name: "", createdAt: 0),
            algorithm: key.algorithm, attestationFormat: format, attestedByCertificate: result == .packedCertificate)
    }

    /// The client data checks both ceremonies share: type, challenge, origin and cross-origin use.
    static func check(
        _ clientData: ClientData, type: String, challenge: [UInt8], relyingParty: RelyingParty
    ) throws(WebAuthnError) {
        guard clientData.type == type else { throw .wrongType(expected: type, found: clientData.type) }
        guard constantTimeEquals(clientData.challenge, challenge) else { throw .challengeMismatch }
        guard isAllowed(clientData.origin, relyingParty) else { throw .originNotAllowed(clientData.origin) }
        guard !clientData.crossOrigin else { throw .crossOrigin }
        if let topOrigin = clientData.topOrigin, !isAllowed(topOrigin, relyingParty) { throw .crossOrigin }
    }

    /// Whether `origin` is one of the relying party's, byte for byte (not Swift's Unicode equivalence).
    static func isAllowed(_ origin: String, _ relyingParty: RelyingParty) -> Bool {
        relyingParty.allowedOrigins.contains { $0.utf8.elementsEqual(origin.utf8) }
    }

    /// The authenticator data checks both ceremonies share: rpIdHash, UP, UV when required, and BS only with BE.
    static func check(
        _ authenticatorData: AuthenticatorData, relyingParty: RelyingParty, requireUserVerification: Bool
    ) throws(WebAuthnError) {
        guard constantTimeEquals(authenticatorData.rpIDHash, SHA256.hash(relyingParty.id)) else { throw .rpIDMismatch }
        guard authenticatorData.flags.contains(.userPresent) else { throw .userNotPresent }
        if requireUserVerification, !authenticatorData.flags.contains(.userVerified) { throw .userNotVerified }
        if authenticatorData.flags.contains(.backedUp), !authenticatorData.flags.contains(.backupEligible) {
            throw .backupFlagsInvalid
        }
    }
}

/// The members a `RegistrationResponseJSON` and an `AuthenticationResponseJSON` share (WebAuthn §5.1).
struct PublicKeyCredentialJSON {
    /// `rawId`, decoded; `id` is the same bytes.
    let rawID: [UInt8]
    /// The `response` object.
    let response: JSONFields

    init(_ json: String) throws(WebAuthnError) {
        let root = try JSONFields(Array(json.utf8), what: "credential")
        let id = try root.bytes("id")
        rawID = try root.bytes("rawId")
        guard id == rawID else { throw .malformed("credential.id and credential.rawId differ") }
        guard try root.string("type") == "public-key" else { throw .malformed("credential.type is not \"public-key\"") }
        response = try root.object("response")
    }
}
