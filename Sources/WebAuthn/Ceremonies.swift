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
    /// When set, only authenticators with one of these AAGUIDs (16 bytes each) may register (needs `direct`).
    public var allowedAAGUIDs: [[UInt8]]?

    public init(conveyance: Conveyance = .none, allowedAAGUIDs: [[UInt8]]? = nil) {
        self.conveyance = conveyance
        self.allowedAAGUIDs = allowedAAGUIDs
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
    /// True when the statement was verified against a certificate chain (x5c), not self or none.
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
        throw .malformed("not implemented yet")
    }

    /// Verifies a `RegistrationResponseJSON` (what `PublicKeyCredential.toJSON()` gives after
    /// `navigator.credentials.create`) with every check of §7.1, including the attestation statement (`none`,
    /// `packed` self and x5c).
    public static func verifyRegistration(
        _ responseJSON: String, expecting expectation: RegistrationExpectation
    ) throws(WebAuthnError) -> VerifiedRegistration {
        throw .malformed("not implemented yet")
    }
}
