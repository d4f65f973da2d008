/// Whether a user's attributes hold a phone number a code may be texted to.
public struct PhoneNumberCheck: Sendable {
    /// The E.164 number to text; nil when there is none fit for a code.
    public let usableNumber: String?
    /// Why there is none.
    public let problem: UnusableAddress?

    /// Reads `phone_number` and, when `requireVerified`, `phone_number_verified`; a number outside `allowedCountries`
    /// (when given) is unusable.
    public init(attributes: [String: String], requireVerified: Bool, allowedCountries: CallingCodes? = nil) {
        guard let number = attributes["phone_number"], !number.isEmpty else {
            (usableNumber, problem) = (nil, .noPhoneNumber)
            return
        }
        guard PhoneNumberFormat.isE164(number) else {
            (usableNumber, problem) = (nil, .phoneNumberNotE164)
            return
        }
        guard allowedCountries?.allow(number) ?? true else {
            (usableNumber, problem) = (nil, .phoneNumberCountryNotAllowed)
            return
        }
        guard !requireVerified || attributes["phone_number_verified"] == "true" else {
            (usableNumber, problem) = (nil, .phoneNumberNotVerified)
            return
        }
        (usableNumber, problem) = (number, nil)
    }
}
