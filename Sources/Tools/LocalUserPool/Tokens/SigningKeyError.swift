/// Why a ``TokenSigningKey`` could not be made or read.
public enum SigningKeyError: Error, Sendable, Equatable, CustomStringConvertible {
    /// The key file could not be opened; `reason` is the system's explanation.
    case unreadableFile(path: String, reason: String)
    /// The text holds no PEM private key OpenSSL can read (or an encrypted one: no passphrase is ever asked for).
    case notAPrivateKey(source: String)
    /// The key is not an RSA key; `type` is OpenSSL's name for what it is.
    case notRSA(source: String, type: String)
    /// The key has fewer bits than RS256 requires.
    case tooShort(bits: Int)
    /// An OpenSSL call failed.
    case openSSL(operation: String)

    public var description: String {
        switch self {
        case .unreadableFile(let path, let reason):
            "The key file \"\(path)\" could not be opened: \(reason)."
        case .notAPrivateKey(let source):
            "\"\(source)\" holds no unencrypted PEM private key."
        case .notRSA(let source, let type):
            "The key in \"\(source)\" is \"\(type)\", not \"RSA\"."
        case .tooShort(let bits):
            "An RSA key of \(bits) bits is shorter than the \(TokenSigningKey.minimumBits) bits RS256 requires."
        case .openSSL(let operation):
            "OpenSSL failed to \(operation)."
        }
    }
}
