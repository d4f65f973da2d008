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
            // The bytes up to the first "=" and after it, each decoded once (ill-formed UTF-8 repaired, as
            // `String(cString:)` does); searching a decoded String for "=" would walk it character by character.
            let entryBytes = UnsafeRawPointer(pointer).assumingMemoryBound(to: UInt8.self)
            let bytes = UnsafeBufferPointer(start: entryBytes, count: strlen(pointer))
            if let separator = bytes.firstIndex(of: UInt8(ascii: "=")) {
                let name = String(decoding: bytes[..<separator], as: UTF8.self)
                if variables[name] == nil {
                    variables[name] = String(decoding: bytes[(separator + 1)...], as: UTF8.self)
                }
            }
            entry += 1
        }
        return variables
    }
}
