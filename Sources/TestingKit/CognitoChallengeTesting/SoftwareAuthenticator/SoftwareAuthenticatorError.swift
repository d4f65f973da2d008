/// Why the authenticator refused a ceremony, or could not read or write its file.
public enum SoftwareAuthenticatorError: Error, Sendable, Equatable, CustomStringConvertible {
    /// The options JSON is not what WebAuthn's `…OptionsJSON` dictionaries look like; `reason` says what is wrong.
    case malformedOptions(String)
    /// None of the algorithms the relying party offered (`pubKeyCredParams`) is one this authenticator makes.
    case noSupportedAlgorithm(offered: [Int])
    /// The relying party listed, in `excludeCredentials`, a credential this authenticator already holds for it
    /// (a browser reports `InvalidStateError`).
    case credentialExcluded(id: String)
    /// The authenticator holds no credential for the RP ID that the request allows (a browser reports
    /// `NotAllowedError`).
    case noCredential(rpID: String)
    /// The authenticator's file could not be read or written; `reason` is the system's explanation.
    case fileAccess(path: String, reason: String)
    /// The authenticator's file is not one ``SoftwareAuthenticator/save(to:)`` wrote; `reason` says what is wrong.
    case malformedFile(path: String, reason: String)
    /// An OpenSSL call failed.
    case openSSL(operation: String)

    public var description: String {
        switch self {
        case .malformedOptions(let reason):
            "The WebAuthn options are malformed: \(reason)."
        case .noSupportedAlgorithm(let offered):
            "None of the offered algorithms \(offered) is supported; the authenticator makes ES256 (-7), EdDSA (-8) "
                + "and RS256 (-257) keys."
        case .credentialExcluded(let id):
            "The authenticator already holds the excluded credential \(id) for this relying party."
        case .noCredential(let rpID):
            "The authenticator holds no credential for \"\(rpID)\" that the request allows."
        case .fileAccess(let path, let reason):
            "The authenticator file \"\(path)\" could not be accessed: \(reason)."
        case .malformedFile(let path, let reason):
            "The authenticator file \"\(path)\" is malformed: \(reason)."
        case .openSSL(let operation):
            "OpenSSL failed to \(operation)."
        }
    }
}
