/// Whether a user's attributes hold an address a code may be sent to.
struct EmailAddressCheck: Sendable {
    /// The address to send to; nil when there is none fit for a code.
    let usableAddress: String?
    /// Why there is none.
    let problem: UnusableAddress?

    init(attributes: [String: String], requireVerified: Bool) {
        guard let email = attributes["email"], !email.isEmpty else {
            usableAddress = nil
            problem = .noEmail
            return
        }
        guard !requireVerified || attributes["email_verified"] == "true" else {
            usableAddress = nil
            problem = .notVerified
            return
        }
        usableAddress = email
        problem = nil
    }
}

/// Why a real user's address cannot receive a code. Such a user is answered as an unknown user would be.
public enum UnusableAddress: Sendable, Equatable, CustomStringConvertible {
    /// The user has no `email` attribute.
    case noEmail
    /// `email_verified` is not `"true"` while verified addresses are required (`REQUIRE_VERIFIED_EMAIL`).
    case notVerified

    public var description: String {
        switch self {
        case .noEmail: "the user has no \"email\" attribute"
        case .notVerified: "the user's \"email_verified\" attribute is not \"true\" (REQUIRE_VERIFIED_EMAIL=true)"
        }
    }
}
