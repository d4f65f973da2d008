import Basics

/// Reads `KEY=VALUE` files in the format most tools share (`docker --env-file`, dotenv):
///
/// - one assignment per line; blank lines and lines starting with `#` are ignored;
/// - an optional `export ` before the key;
/// - values may be wrapped in double quotes (with `\n`, `\"`, `\\` escapes) or single quotes (taken literally);
/// - an unquoted value ends at ` #` (a trailing comment) and is trimmed.
public enum EnvironmentFile {
    /// A line that is not an assignment.
    public struct SyntaxError: Error, Sendable, Equatable, CustomStringConvertible {
        public let line: Int
        public let reason: String

        public var description: String { "line \(line): \(reason)" }
    }

    /// The assignments in `text`, later lines overriding earlier ones.
    public static func parse(_ text: String) throws(SyntaxError) -> [String: String] {
        var values: [String: String] = [:]
        for (offset, rawLine) in text.split(separator: "\n", omittingEmptySubsequences: false).enumerated() {
            var line = Substring(rawLine.hasSuffix("\r") ? rawLine.dropLast() : rawLine).trimmingWhitespace()
            if line.isEmpty || line.hasPrefix("#") { continue }
            if line.hasPrefix("export ") { line = line.dropFirst("export ".count).trimmingWhitespace() }
            guard let equals = line.firstIndex(of: "=") else {
                throw SyntaxError(line: offset + 1, reason: "expected KEY=VALUE")
            }
            let key = line[..<equals].trimmingWhitespace()
            guard isValidKey(key) else {
                throw SyntaxError(line: offset + 1, reason: "\"\(key)\" is not a variable name (letters, digits, _)")
            }
            values[String(key)] = try value(line[line.index(after: equals)...].trimmingWhitespace(), line: offset + 1)
        }
        return values
    }

    private static func value(_ text: Substring, line: Int) throws(SyntaxError) -> String {
        guard let quote = text.first, quote == "\"" || quote == "'" else {
            var end = text.endIndex
            for index in text.indices where text[index] == "#" && index > text.startIndex {
                if text[text.index(before: index)].isWhitespace {
                    end = index
                    break
                }
            }
            return String(text[..<end].trimmingWhitespace())
        }
        var result = ""
        var index = text.index(after: text.startIndex)
        while index < text.endIndex {
            let character = text[index]
            if character == quote {
                let rest = text[text.index(after: index)...].trimmingWhitespace()
                guard rest.isEmpty || rest.hasPrefix("#") else {
                    throw SyntaxError(line: line, reason: "unexpected text after the closing quote")
                }
                return result
            }
            if quote == "\"", character == "\\", text.index(after: index) < text.endIndex {
                index = text.index(after: index)
                switch text[index] {
                case "n": result.append("\n")
                case "t": result.append("\t")
                case let escaped: result.append(escaped)
                }
            } else {
                result.append(character)
            }
            index = text.index(after: index)
        }
        throw SyntaxError(line: line, reason: "the value's closing \(quote) is missing")
    }

    private static func isValidKey(_ key: Substring) -> Bool {
        guard let first = key.first, first == "_" || first.isLetter else { return false }
        return key.allSatisfy { $0 == "_" || ($0.isASCII && ($0.isLetter || $0.isNumber)) }
    }
}
