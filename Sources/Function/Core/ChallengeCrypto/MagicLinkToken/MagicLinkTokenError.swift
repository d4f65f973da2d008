/// Why a token could not be issued. Descriptions quote the offending value, never a key.
public enum MagicLinkTokenError: Error, Sendable, Equatable, CustomStringConvertible {
    /// The key is shorter than ``MagicLinkToken/minimumKeyByteCount`` bytes.
    case keyTooShort(byteCount: Int)
    /// The key id is empty, longer than ``MagicLinkToken/maximumKeyIDByteCount`` bytes, or has characters other
    /// than ASCII letters, digits, `-`, `_` and `.`.
    case invalidKeyID(String)
    /// The step index is outside `0...65535`.
    case stepIndexOutOfRange(Int)
    /// The random source failed to produce the nonce.
    case randomUnavailable(String)

    public var description: String {
        switch self {
        case .keyTooShort(let count):
            "The magic-link key has \(count) bytes; it needs at least \(MagicLinkToken.minimumKeyByteCount)."
        case .invalidKeyID(let keyID):
            "The magic-link key id \"\(keyID)\" is not 1 to \(MagicLinkToken.maximumKeyIDByteCount) ASCII letters, digits, '-', '_' or '.'."
        case .stepIndexOutOfRange(let index):
            "The step index \(index) is outside 0...65535."
        case .randomUnavailable(let reason):
            "No nonce for the magic link: \(reason)."
        }
    }
}
