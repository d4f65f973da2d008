/// What ``MagicLinkToken/verify(token:keys:userPoolId:userName:stepIndex:now:)`` found.
///
/// Only `valid` lets a sign-in go on; the other cases say why not, for logs and metrics. A token must be authentic
/// (its MAC checks out under a known key) before it is judged `otherUser`, `otherStep` or `expired`.
public enum MagicLinkVerdict: Sendable, Equatable, CustomStringConvertible {
    /// Authentic, for this user and step, and not yet expired. The nonce tells one issued link from another: its
    /// ``MagicLinkToken/digest(ofNonce:)`` is what ``MagicLinkToken/issue(key:keyID:userPoolId:userName:stepIndex:expiresAt:random:)``
    /// returned as `digest`.
    case valid(nonce: [UInt8])
    /// Authentic, for this user and step, but its expiry time has passed.
    case expired
    /// Its key is known but its MAC does not match: altered, or made without the key.
    case tampered
    /// Authentic, but issued for another user name or user pool.
    case otherUser
    /// Authentic and for this user, but issued for another step of the sign-in.
    case otherStep
    /// Names a key id that is not among the verification keys (retired, or never issued here).
    case unknownKey
    /// Not a token at all: not base64url, too short or too long, or of an unknown version.
    case malformed

    public var description: String {
        switch self {
        case .valid: "the sign-in link is valid"
        case .expired: "the sign-in link has expired"
        case .tampered: "the sign-in link's signature does not match: it was altered or forged"
        case .otherUser: "the sign-in link was issued for another user"
        case .otherStep: "the sign-in link was issued for another step of the sign-in"
        case .unknownKey: "the sign-in link was signed with a key that is not configured"
        case .malformed: "the sign-in link's token is not a well-formed token"
        }
    }
}
