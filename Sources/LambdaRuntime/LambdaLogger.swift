import LosslessJSON

#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// Writes log lines to standard error in Lambda's text or JSON format, dropping those below its level.
///
/// Messages are built only when their level is enabled. Never log codes, answers, secrets or whole events.
public struct LambdaLogger: Sendable {
    public let format: LogFormat
    public let minimumLevel: LogLevel
    /// The invocation the lines belong to, if any.
    public let requestID: String?

    public init(format: LogFormat = .text, minimumLevel: LogLevel = .info, requestID: String? = nil) {
        self.format = format
        self.minimumLevel = minimumLevel
        self.requestID = requestID
    }

    /// The same logger, tagging its lines with another invocation.
    public func forInvocation(_ requestID: String) -> LambdaLogger {
        LambdaLogger(format: format, minimumLevel: minimumLevel, requestID: requestID)
    }

    public func isEnabled(_ level: LogLevel) -> Bool { level >= minimumLevel }

    public func log(_ level: LogLevel, _ message: @autoclosure () -> String) {
        guard isEnabled(level) else { return }
        let line = render(level, message(), at: WallClock.sinceEpoch())
        line.withUnsafeBytes { bytes in
            var offset = 0
            while offset < bytes.count {
                let written = write(STDERR_FILENO, bytes.baseAddress! + offset, bytes.count - offset)
                if written < 0 && errno == EINTR { continue }
                guard written > 0 else { return }
                offset += written
            }
        }
    }

    public func trace(_ message: @autoclosure () -> String) { log(.trace, message()) }
    public func debug(_ message: @autoclosure () -> String) { log(.debug, message()) }
    public func info(_ message: @autoclosure () -> String) { log(.info, message()) }
    public func warn(_ message: @autoclosure () -> String) { log(.warn, message()) }
    public func error(_ message: @autoclosure () -> String) { log(.error, message()) }
    public func fatal(_ message: @autoclosure () -> String) { log(.fatal, message()) }

    /// One complete line, newline included.
    func render(_ level: LogLevel, _ message: String, at time: Duration) -> [UInt8] {
        let timestamp = Timestamp.iso8601(time)
        switch format {
        case .text:
            var line = timestamp
            if let requestID { line += "\t" + requestID }
            line += "\t" + level.name + "\t"
            line += message.contains("\n") ? String(message.map { $0 == "\n" ? "\r" : $0 }) : message
            return Array((line + "\n").utf8)
        case .json:
            var fields: [(String, JSONValue)] = [
                ("timestamp", .string(timestamp)), ("level", .string(level.name)), ("message", .string(message)),
            ]
            if let requestID { fields.append(("requestId", .string(requestID))) }
            return JSONValue.object(JSONObject(fields)).serialized() + [UInt8(ascii: "\n")]
        }
    }
}

/// UTC timestamps with milliseconds, as Lambda writes them: `2024-05-01T12:34:56.789Z`.
enum Timestamp {
    static func iso8601(_ sinceEpoch: Duration) -> String {
        let (seconds, attoseconds) = sinceEpoch.components
        var time = time_t(seconds)
        var parts = tm()
        gmtime_r(&time, &parts)
        let milliseconds = Int(attoseconds / 1_000_000_000_000_000)
        return digits(Int(parts.tm_year) + 1900, 4) + "-" + digits(Int(parts.tm_mon) + 1, 2) + "-"
            + digits(Int(parts.tm_mday), 2) + "T" + digits(Int(parts.tm_hour), 2) + ":" + digits(Int(parts.tm_min), 2)
            + ":" + digits(Int(parts.tm_sec), 2) + "." + digits(milliseconds, 3) + "Z"
    }

    private static func digits(_ value: Int, _ width: Int) -> String {
        let text = String(value)
        return String(repeating: "0", count: max(0, width - text.count)) + text
    }
}
