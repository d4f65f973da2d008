/// A CAPTCHA configuration variable is missing or malformed. The problem quotes the value it found, except for
/// `CAPTCHA_SECRET`, whose value is never shown.
public struct CaptchaConfigurationError: Error, Sendable, Equatable, CustomStringConvertible {
    /// The environment variable at fault, such as `CAPTCHA_TIMEOUT_MS`.
    public let variable: String
    /// What is wrong with it, as the end of a sentence that starts with the variable's name.
    public let problem: String

    public init(variable: String, problem: String) {
        self.variable = variable
        self.problem = problem
    }

    public var description: String { "CAPTCHA configuration: \(variable) \(problem)." }
}
