/// Lambda's log levels, least severe first.
public enum LogLevel: Int, Sendable, Comparable, CaseIterable {
    case trace, debug, info, warn, error, fatal

    /// The name Lambda uses, as in `AWS_LAMBDA_LOG_LEVEL` and in JSON log lines.
    public var name: String {
        switch self {
        case .trace: "TRACE"
        case .debug: "DEBUG"
        case .info: "INFO"
        case .warn: "WARN"
        case .error: "ERROR"
        case .fatal: "FATAL"
        }
    }

    /// Reads a level name in any letter case (`WARNING` is accepted for `WARN`); nil for anything else.
    public init?(name: String) {
        let upper = name.uppercased()
        guard let level = Self.allCases.first(where: { $0.name == upper }) ?? (upper == "WARNING" ? .warn : nil) else {
            return nil
        }
        self = level
    }

    public static func < (lhs: LogLevel, rhs: LogLevel) -> Bool { lhs.rawValue < rhs.rawValue }
}

/// How log lines are written, from `AWS_LAMBDA_LOG_FORMAT`.
public enum LogFormat: Sendable {
    /// `timestamp<TAB>requestId<TAB>LEVEL<TAB>message`, one line per message (line breaks become carriage returns).
    case text
    /// One JSON object per line: `timestamp`, `level`, `message` and, during an invocation, `requestId`.
    case json

    /// `JSON` (any letter case) selects ``json``; anything else, or nothing, ``text``.
    public init(name: String?) {
        self = name?.uppercased() == "JSON" ? .json : .text
    }
}
