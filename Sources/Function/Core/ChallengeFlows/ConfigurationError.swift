import Basics

/// A configuration value that cannot work, found at start-up.
public enum ConfigurationError: Error, Sendable, Equatable, CustomStringConvertible {
    case missing(variable: String, hint: String)
    case invalid(variable: String, value: String, expected: String)
    /// A setting read by another part (code delivery, CAPTCHA provider, state store, …), as that part reported it.
    case setting(SettingError)
    /// A value that would work but is unsafe; the reason names the risk and how to accept it where that is allowed.
    case refused(variable: String, value: String, reason: String)
    /// A challenge step that cannot join a ``StepRegistry``: the problem says why.
    case step(name: String, problem: String)

    public var description: String {
        switch self {
        case .missing(let variable, let hint): "\(variable) is not set: \(hint)"
        case .invalid(let variable, let value, let expected): "\(variable)=\"\(value)\" is not valid: expected \(expected)"
        case .setting(let error): error.description
        case .refused(let variable, let value, let reason): "\(variable)=\"\(value)\" is refused: \(reason)"
        case .step(let name, let problem): "The challenge step \"\(name)\" cannot be used: \(problem)."
        }
    }
}
