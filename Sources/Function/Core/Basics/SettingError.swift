/// A setting — an environment variable the function reads at start-up — is missing or cannot be used.
///
/// The one error type of every module's configuration: it names the variable, and its problem never quotes a
/// secret's value.
public struct SettingError: Error, Sendable, Equatable, CustomStringConvertible {
    /// The environment variable at fault, such as `STATE_TABLE`.
    public let variable: String
    /// What is wrong with it, as the rest of a sentence that starts with the variable's name.
    public let problem: String

    /// The error for `variable`; `problem` must not quote a secret.
    public init(variable: String, problem: String) {
        self.variable = variable
        self.problem = problem
    }

    /// `STATE_TABLE is not set: …`
    public var description: String { "\(variable) \(problem)" }
}
