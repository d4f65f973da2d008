import Basics

/// The text of a code SMS: a template with `{code}` and, if wanted, `{minutes}` (whole minutes the code stays
/// valid, at least 1); any other text, braces included, is kept as written.
public struct SMSText: Sendable, Equatable {
    /// What every template must contain.
    public static let placeholder = "{code}"
    static let defaultTemplate = "Your sign-in code is {code}. It expires in {minutes} minutes."

    /// "Your sign-in code is {code}. It expires in {minutes} minutes."
    public static let defaults = SMSText(checked: defaultTemplate)

    /// The checked template.
    public let template: String

    /// Refuses a template without `{code}`, which would send a message without the code.
    public init(template: String) throws(SettingError) {
        guard template.containsText(Self.placeholder) else {
            throw SettingError(
                variable: "SMS_TEXT_TEMPLATE", problem: "has no {code} placeholder, so the text message would not carry the code")
        }
        self.init(checked: template)
    }

    private init(checked template: String) {
        self.template = template
    }

    /// The message for one code.
    public func render(code: String, validForSeconds: Int) -> String {
        template.fillingPlaceholders(["code": code, "minutes": String(max(1, validForSeconds / 60))])
    }
}
