/// Why a ceremony was refused. The description names the check that failed and never holds key material.
public enum WebAuthnError: Error, Sendable, Equatable, CustomStringConvertible {
    /// The response is not well-formed: JSON, base64url, CBOR, authenticator data or a COSE key.
    case malformed(String)
    /// `clientDataJSON.type` is not the ceremony's (`webauthn.get` or `webauthn.create`).
    case wrongType(expected: String, found: String)
    /// `clientDataJSON.challenge` is not the issued challenge.
    case challengeMismatch
    /// `clientDataJSON.origin` is not one of the allowed origins.
    case originNotAllowed(String)
    /// The ceremony ran in a cross-origin iframe or under another top-level origin.
    case crossOrigin
    /// `rpIdHash` is not SHA-256 of the RP ID.
    case rpIDMismatch
    /// UP is not set.
    case userNotPresent
    /// UV is not set although required.
    case userNotVerified
    /// BE/BS are inconsistent (BS without BE, or BE not as registered).
    case backupFlagsInvalid
    /// The credential is not one of this user's.
    case unknownCredential
    /// The assertion's `userHandle` is not this user's.
    case userHandleMismatch
    /// The key's COSE algorithm or curve is not supported.
    case unsupportedAlgorithm(Int)
    /// The signature does not verify.
    case badSignature
    /// The counter did not rise: possibly a cloned authenticator.
    case counterRegression(stored: UInt32, received: UInt32)
    /// The credential ID is registered already.
    case credentialAlreadyRegistered
    /// The attestation statement is missing, of a refused format, or does not verify (§8.2.1 names the rule).
    case attestation(String)

    public var description: String {
        switch self {
        case .malformed(let detail): "malformed response: \(detail)"
        case .wrongType(let expected, let found): "clientDataJSON.type is \"\(found)\", expected \"\(expected)\""
        case .challengeMismatch: "the challenge is not the one issued"
        case .originNotAllowed(let origin): "origin \"\(origin)\" is not allowed"
        case .crossOrigin: "the ceremony ran cross-origin"
        case .rpIDMismatch: "rpIdHash does not match the RP ID"
        case .userNotPresent: "the user-present flag is not set"
        case .userNotVerified: "the user-verified flag is not set"
        case .backupFlagsInvalid: "the backup flags are inconsistent"
        case .unknownCredential: "the credential is not registered to this user"
        case .userHandleMismatch: "the user handle is not this user's"
        case .unsupportedAlgorithm(let algorithm): "COSE algorithm \(algorithm) is not supported"
        case .badSignature: "the signature does not verify"
        case .counterRegression(let stored, let received):
            "the signature counter went from \(stored) to \(received): possibly a cloned authenticator"
        case .credentialAlreadyRegistered: "the credential is registered already"
        case .attestation(let detail): "attestation refused: \(detail)"
        }
    }
}
