/// Why an SRP computation or a password claim was refused.
public enum SRPError: Error, Sendable, Equatable, CustomStringConvertible {
    /// A public value (`SRP_A`, `SRP_B` or `SALT`) is not non-empty hexadecimal text of bounded length.
    case malformedHex(field: String, value: String)
    /// A signature or secret block is not standard base64.
    case malformedBase64(field: String, value: String)
    /// The other side's public value is a multiple of N, which would make the shared secret predictable.
    case publicValueIsZeroModN(field: String)
    /// u = H(pad(A) ‖ pad(B)) came out zero, which would let the password drop out of the shared secret.
    case scramblingParameterIsZero
    /// The claim's timestamp is not in the form "Tue Nov 3 07:04:05 UTC 2026".
    case malformedTimestamp(String)
    /// The claim's timestamp is further from the server's clock than the accepted skew.
    case staleTimestamp(timestamp: String, skewSeconds: Int64, maximumSkewSeconds: Int64)
    /// The user-pool id has no "_" to split the region from the pool name.
    case malformedUserPoolId(String)
    /// The random source failed to produce a secret exponent.
    case randomSourceFailed(String)
    /// OpenSSL failed in a big-number operation (in practice: out of memory).
    case bigNumberFailure(operation: String)

    public var description: String {
        switch self {
        case .malformedHex(let field, let value):
            "\(field) \"\(value.prefix(80))\" is not hexadecimal text of 1 to \(SRPGroup.maximumHexDigits) digits"
        case .malformedBase64(let field, let value):
            "\(field) \"\(value.prefix(80))\" is not standard base64"
        case .publicValueIsZeroModN(let field):
            "\(field) is zero modulo N; the exchange is refused"
        case .scramblingParameterIsZero:
            "the scrambling parameter u = H(A, B) is zero; the exchange is refused"
        case .malformedTimestamp(let text):
            "timestamp \"\(text)\" is not in the form \"Tue Nov 3 07:04:05 UTC 2026\""
        case .staleTimestamp(let timestamp, let skew, let maximum):
            "timestamp \"\(timestamp)\" is \(skew) seconds from the server's clock; at most \(maximum) are accepted"
        case .malformedUserPoolId(let id):
            "user-pool id \"\(id)\" has no \"_\" between the region and the pool name"
        case .randomSourceFailed(let reason):
            "the random source failed: \"\(reason)\""
        case .bigNumberFailure(let operation):
            "OpenSSL failed to \"\(operation)\""
        }
    }
}
