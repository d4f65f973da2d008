/// Why ``JWT/verify(_:key:now:)`` rejected a token.
public enum TokenError: Error, Sendable, Equatable, CustomStringConvertible {
    /// The token is not three base64url parts separated by dots, or its header or claims are not JSON objects.
    case malformed(reason: String)
    /// The header names an algorithm other than RS256 (`none` and HMAC included).
    case unsupportedAlgorithm(String)
    /// The header names a key ID other than the verifying key's.
    case unknownKeyID(String)
    /// The signature does not match the header and claims under the key.
    case invalidSignature
    /// The `exp` claim is missing or not an integer.
    case missingExpiry
    /// The token expired at `expiry` (Unix seconds), at or before `now`.
    case expired(expiry: Int64, now: Int64)

    public var description: String {
        switch self {
        case .malformed(let reason):
            "The token is malformed: \(reason)."
        case .unsupportedAlgorithm(let algorithm):
            "The token's algorithm \"\(algorithm)\" is not \"RS256\"."
        case .unknownKeyID(let keyID):
            "The token's key ID \"\(keyID)\" names no key of this pool."
        case .invalidSignature:
            "The token's signature does not match its header and claims."
        case .missingExpiry:
            "The token has no integer \"exp\" claim."
        case .expired(let expiry, let now):
            "The token expired at \(expiry), and it is now \(now) (Unix seconds)."
        }
    }
}
