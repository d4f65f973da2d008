/// The environment a process started with, read one variable at a time; an empty value counts as unset.
///
/// Every configuration of the function reads its variables through one of these, so that an empty value, a
/// missing one and a malformed one are told apart the same way everywhere.
public struct EnvironmentReader: Sendable {
    /// Every variable, as the process got them.
    public let variables: [String: String]

    public init(_ variables: [String: String]) {
        self.variables = variables
    }

    /// The variable's value; nil when it is unset or empty.
    public func value(_ variable: String) -> String? {
        guard let text = variables[variable], !text.isEmpty else { return nil }
        return text
    }

    /// The variable's value without leading and trailing white space; nil when that leaves nothing.
    public func trimmedValue(_ variable: String) -> String? {
        guard let text = value(variable)?.trimmingWhitespace(), !text.isEmpty else { return nil }
        return String(text)
    }

    /// The variable's value; `purpose` (what to set it to) completes the error when it is unset or empty.
    public func required(_ variable: String, purpose: String) throws(SettingError) -> String {
        guard let text = value(variable) else { throw SettingError(variable: variable, problem: "is not set: \(purpose)") }
        return text
    }

    /// A whole number within `range`, in `unit` (named in the error, e.g. "milliseconds"); `fallback` when unset.
    public func integer(
        _ variable: String, default fallback: Int, in range: ClosedRange<Int>, unit: String
    ) throws(SettingError) -> Int {
        guard let text = value(variable) else { return fallback }
        guard let number = Int(text), range.contains(number) else {
            throw SettingError(
                variable: variable,
                problem: "is \"\(text)\"; expected whole \(unit) from \(range.lowerBound) to \(range.upperBound)")
        }
        return number
    }

    /// A time in whole milliseconds within `range`; `fallback` when unset.
    public func milliseconds(
        _ variable: String, default fallback: Duration, in range: ClosedRange<Int>
    ) throws(SettingError) -> Duration {
        guard value(variable) != nil else { return fallback }
        return .milliseconds(try integer(variable, default: range.lowerBound, in: range, unit: "milliseconds"))
    }
}
