#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// The process's environment variables, read without Foundation.
public enum ProcessEnvironment {
    /// Every `NAME=value` pair of the environment; a name given twice keeps its first value, as `getenv` does.
    public static func variables() -> [String: String] {
        var variables: [String: String] = [:]
        var entry = environ
        while let pointer = entry.pointee {
            let text = String(cString: pointer)
            if let separator = text.firstIndex(of: "=") {
                let name = String(text[..<separator])
                if variables[name] == nil { variables[name] = String(text[text.index(after: separator)...]) }
            }
            entry += 1
        }
        return variables
    }
}
