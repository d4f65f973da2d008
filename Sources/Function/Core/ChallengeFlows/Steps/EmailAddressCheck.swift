/// Whether a user's attributes hold an email address a code or link may be sent to.
public struct EmailAddressCheck: Sendable {
    /// The address to send to; nil when there is none fit for a code.
    public let usableAddress: String?
    /// Why there is none.
    public let problem: UnusableAddress?

    /// Reads `email` and, when `requireVerified`, `email_verified`.
    public init(attributes: [String: String], requireVerified: Bool) {
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
    /// The user has no `phone_number` attribute.
    case noPhoneNumber
    /// `phone_number_verified` is not `"true"` while verified numbers are required (`REQUIRE_VERIFIED_PHONE`).
    case phoneNumberNotVerified
    /// `phone_number` is not in the E.164 form an SMS needs (`+` and 8 to 15 digits).
    case phoneNumberNotE164
    /// `phone_number` is in a country the deployment does not text (`SMS_ALLOWED_COUNTRIES`).
    case phoneNumberCountryNotAllowed

    public var description: String {
        switch self {
        case .noEmail: "the user has no \"email\" attribute"
        case .notVerified: "the user's \"email_verified\" attribute is not \"true\" (REQUIRE_VERIFIED_EMAIL=true)"
        case .noPhoneNumber: "the user has no \"phone_number\" attribute"
        case .phoneNumberNotVerified:
            "the user's \"phone_number_verified\" attribute is not \"true\" (REQUIRE_VERIFIED_PHONE=true)"
        case .phoneNumberNotE164: "the user's \"phone_number\" attribute is not an E.164 number such as \"+14155550100\""
        case .phoneNumberCountryNotAllowed: "the user's \"phone_number\" is in a country that SMS_ALLOWED_COUNTRIES leaves out"
        }
    }
}
