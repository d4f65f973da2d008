#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// Colours for terminal output, switched off when the output is not a terminal or `NO_COLOR` is set.
public struct TerminalStyle: Sendable {
    public enum Colour: String, Sendable {
        case bold = "1", dim = "2", red = "31", green = "32", yellow = "33", blue = "34", magenta = "35", cyan = "36"
    }

    public let enabled: Bool

    public init(enabled: Bool) {
        self.enabled = enabled
    }

    /// Colour for a stream: on for a terminal, unless `NO_COLOR` is set (https://no-color.org) or `disabled`.
    public static func detect(fileDescriptor: Int32, environment: [String: String], disabled: Bool = false) -> Self {
        let noColor = !(environment["NO_COLOR"] ?? "").isEmpty
        return TerminalStyle(enabled: !disabled && !noColor && isatty(fileDescriptor) == 1)
    }

    public func paint(_ text: String, _ colours: Colour...) -> String {
        guard enabled, !colours.isEmpty else { return text }
        return "\u{1B}[\(colours.map(\.rawValue).joined(separator: ";"))m\(text)\u{1B}[0m"
    }
}

/// Where a command writes: results to standard output, diagnostics to standard error. Tests capture both.
public struct Console: Sendable {
    /// Writes one line of results.
    public let output: @Sendable (String) -> Void
    /// Writes one line of diagnostics (summaries, REPORT lines, errors).
    public let diagnostics: @Sendable (String) -> Void
    /// Styling for `output`.
    public let style: TerminalStyle
    /// Styling for `diagnostics`.
    public let diagnosticStyle: TerminalStyle

    public init(
        output: @escaping @Sendable (String) -> Void, diagnostics: @escaping @Sendable (String) -> Void,
        style: TerminalStyle = TerminalStyle(enabled: false), diagnosticStyle: TerminalStyle = TerminalStyle(enabled: false)
    ) {
        self.output = output
        self.diagnostics = diagnostics
        self.style = style
        self.diagnosticStyle = diagnosticStyle
    }

    /// The process's standard output and error, coloured where they are terminals.
    public static func standard(environment: [String: String], colourDisabled: Bool = false) -> Console {
        Console(
            output: { StandardStream.write($0 + "\n", to: STDOUT_FILENO) },
            diagnostics: { StandardStream.write($0 + "\n", to: STDERR_FILENO) },
            style: .detect(fileDescriptor: STDOUT_FILENO, environment: environment, disabled: colourDisabled),
            diagnosticStyle: .detect(fileDescriptor: STDERR_FILENO, environment: environment, disabled: colourDisabled))
    }
}

/// Unbuffered writes to a file descriptor, so that lines from this process and a child's interleave in order.
public enum StandardStream {
    public static func write(_ text: String, to descriptor: Int32) {
        var bytes = Array(text.utf8)[...]
        while !bytes.isEmpty {
            let written = bytes.withUnsafeBytes { systemWrite(descriptor, $0.baseAddress, $0.count) }
            if written < 0 {
                if errno == EINTR { continue }
                return
            }
            bytes = bytes.dropFirst(written)
        }
    }
}

private func systemWrite(_ descriptor: Int32, _ buffer: UnsafeRawPointer?, _ count: Int) -> Int {
    write(descriptor, buffer, count)
}
