import LosslessJSON
import Platform

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
        // Built before the line's memory is taken: a message may log on its own.
        let message = message()
        let time = WallTime.now()
        FileDescriptorOutput.standardError.writeLine { line in render(level, message, at: time, to: &line) }
    }

    public func trace(_ message: @autoclosure () -> String) { log(.trace, message()) }
    public func debug(_ message: @autoclosure () -> String) { log(.debug, message()) }
    public func info(_ message: @autoclosure () -> String) { log(.info, message()) }
    public func warn(_ message: @autoclosure () -> String) { log(.warn, message()) }
    public func error(_ message: @autoclosure () -> String) { log(.error, message()) }
    public func fatal(_ message: @autoclosure () -> String) { log(.fatal, message()) }

    /// One complete line, newline included: the only line break in it is the last byte, whatever the message
    /// holds, so a message cannot forge a line of its own.
    func render(_ level: LogLevel, _ message: String, at time: WallTime) -> [UInt8] {
        var line: [UInt8] = []
        render(level, message, at: time, to: &line)
        return line
    }

    /// Appends the line to `line`.
    func render(_ level: LogLevel, _ message: String, at time: WallTime, to line: inout [UInt8]) {
        switch format {
        case .text:
            line.reserveCapacity(line.count + Timestamp.length + (requestID?.utf8.count ?? 0) + message.utf8.count + 16)
            Timestamp.append(time, to: &line)
            if let requestID {
                line.append(UInt8(ascii: "\t"))
                LineBreaks.appendEscaping(requestID, to: &line)
            }
            line.append(UInt8(ascii: "\t"))
            line.append(contentsOf: level.name.utf8)
            line.append(UInt8(ascii: "\t"))
            LineBreaks.appendEscaping(message, to: &line)
            line.append(UInt8(ascii: "\n"))
        case .json:
            var fields: [(String, JSONValue)] = [
                ("timestamp", .string(Timestamp.iso8601(time))), ("level", .string(level.name)), ("message", .string(message)),
            ]
            if let requestID { fields.append(("requestId", .string(requestID))) }
            let record = JSONValue.object(JSONObject(fields)).serialized()
            line += LineBreaks.escapingUnicodeLineBreaks(inJSON: record)
            line.append(UInt8(ascii: "\n"))
        }
    }
}

/// Whole writes to the process's standard output or error.
public struct FileDescriptorOutput: Sendable {
    /// The descriptor written to.
    public let descriptor: Int32
    /// The memory lines are built in, kept from one line to the next, so that writing a line allocates nothing; the
    /// lock also keeps lines written from two threads apart.
    private let room = PosixLock<[UInt8]>([])

    /// Lines longer than this give their memory back once written.
    static let keptCapacity = 16 * 1024

    public init(descriptor: Int32) {
        self.descriptor = descriptor
    }

    /// The process's standard output, for metric lines.
    public static let standardOutput = FileDescriptorOutput(descriptor: STDOUT_FILENO)
    /// The process's standard error, for log lines.
    public static let standardError = FileDescriptorOutput(descriptor: STDERR_FILENO)

    /// Builds one line with `build`, which appends its bytes (newline included) to an empty array, and writes it whole.
    public func writeLine(_ build: (inout [UInt8]) -> Void) {
        room.withLock { line in
            line.removeAll(keepingCapacity: true)
            build(&line)
            Self.write(line, to: descriptor)
            if line.capacity > Self.keptCapacity { line = [] }
        }
    }

    /// Writes all of `bytes` to `descriptor` (e.g. `STDOUT_FILENO` for a metric line), going on after a partial
    /// write or an interrupted one; gives up quietly when the stream is closed.
    public static func write(_ bytes: [UInt8], to descriptor: Int32) {
        bytes.withUnsafeBytes { bytes in
            var offset = 0
            while offset < bytes.count {
                #if canImport(Glibc)
                let written = Glibc.write(descriptor, bytes.baseAddress! + offset, bytes.count - offset)
                #else
                let written = Darwin.write(descriptor, bytes.baseAddress! + offset, bytes.count - offset)
                #endif
                if written < 0 && errno == EINTR { continue }
                guard written > 0 else { return }
                offset += written
            }
        }
    }
}

/// The characters a log reader may take for the end of a line: Swift's `Character.isNewline` set,
/// LF, VT, FF, CR, NEL (U+0085), LS (U+2028) and PS (U+2029).
///
/// They are found scalar by scalar: `"\r\n"` is a single `Character`, equal to neither `"\r"` nor `"\n"`.
enum LineBreaks {
    /// The escape written in place of a line break in a text line, or nil when the scalar is not one.
    /// The escapes are JSON's, so a reader sees the same text in either format.
    static func escape(_ scalar: Unicode.Scalar) -> String? {
        switch scalar.value {
        case 0x0A: #"\n"#
        case 0x0B: #"\u000b"#
        case 0x0C: #"\u000c"#
        case 0x0D: #"\r"#
        case 0x85: #"\u0085"#
        case 0x2028: #"\u2028"#
        case 0x2029: #"\u2029"#
        default: nil
        }
    }

    /// Appends `text` as UTF-8, each line break written as its escape.
    static func appendEscaping(_ text: String, to output: inout [UInt8]) {
        // Line breaks are rare: copy the bytes whole unless one may be there. A plain run of ASCII (found eight bytes
        // at a time) has none. Past one, in UTF-8, LF, VT, FF and CR are bytes 0A to 0D, and NEL, LS and PS start with
        // C2 or E2, bytes that only ever start a scalar.
        var text = text
        let copied = text.withUTF8 { utf8 in
            let plainEnd = utf8.plainRunEnd(from: 0)
            for byte in utf8[plainEnd...] where byte &- 0x0A < 4 || byte == 0xC2 || byte == 0xE2 { return false }
            output.append(contentsOf: utf8)
            return true
        }
        if copied { return }
        for scalar in text.unicodeScalars {
            if let escaped = escape(scalar) {
                output.append(contentsOf: escaped.utf8)
            } else {
                output.append(contentsOf: UTF8.encode(scalar)!)
            }
        }
    }

    /// Serialized JSON with NEL, LS and PS escaped, which the writer leaves raw as JSON allows (it already
    /// escapes LF, VT, FF and CR). They occur only inside strings, where an escape means the same scalar.
    static func escapingUnicodeLineBreaks(inJSON json: [UInt8]) -> [UInt8] {
        // In UTF-8, NEL is C2 85, LS E2 80 A8 and PS E2 80 A9; C2 and E2 only ever start a scalar.
        guard json.contains(where: { $0 == 0xC2 || $0 == 0xE2 }) else { return json }
        var output: [UInt8] = []
        output.reserveCapacity(json.count + 12)
        var index = 0
        while index < json.count {
            let byte = json[index]
            if byte == 0xC2, index + 1 < json.count, json[index + 1] == 0x85 {
                output.append(contentsOf: #"\u0085"#.utf8)
                index += 2
            } else if byte == 0xE2, index + 2 < json.count, json[index + 1] == 0x80,
                json[index + 2] == 0xA8 || json[index + 2] == 0xA9
            {
                output.append(contentsOf: (json[index + 2] == 0xA8 ? #"\u2028"# : #"\u2029"#).utf8)
                index += 3
            } else {
                output.append(byte)
                index += 1
            }
        }
        return output
    }
}

/// A day of the proleptic Gregorian calendar, from its number of days since 1970-01-01.
///
/// Computed rather than asked of `gmtime_r`, which reads the time zone database (`/etc/localtime`) the first time
/// it runs: six system calls on the first log line, which a cold sign-in waits for.
struct CivilDate: Equatable {
    let year: Int
    let month: Int
    let day: Int

    init(daysSinceEpoch days: Int) {
        // Count from 0000-03-01, so that the leap day ends each 4-, 100- and 400-year cycle.
        let shifted = days + 719_468
        let era = (shifted >= 0 ? shifted : shifted - 146_096) / 146_097
        let dayOfEra = shifted - era * 146_097
        let yearOfEra = (dayOfEra - dayOfEra / 1460 + dayOfEra / 36_524 - dayOfEra / 146_096) / 365
        let dayOfYear = dayOfEra - (365 * yearOfEra + yearOfEra / 4 - yearOfEra / 100)
        let monthFromMarch = (5 * dayOfYear + 2) / 153
        day = dayOfYear - (153 * monthFromMarch + 2) / 5 + 1
        month = monthFromMarch < 10 ? monthFromMarch + 3 : monthFromMarch - 9
        year = yearOfEra + era * 400 + (month <= 2 ? 1 : 0)
    }
}

/// UTC timestamps with milliseconds, as Lambda writes them: `2024-05-01T12:34:56.789Z`.
enum Timestamp {
    /// The length of every timestamp (years 0 to 9999).
    static let length = 24

    static func iso8601(_ time: WallTime) -> String {
        var bytes: [UInt8] = []
        append(time, to: &bytes)
        return String(decoding: bytes, as: UTF8.self)
    }

    /// Writes the timestamp's bytes at the end of `output`, without building a string.
    static func append(_ time: WallTime, to output: inout [UInt8]) {
        let (days, secondOfDay) = Int(time.seconds).quotientAndRemainder(dividingBy: 86_400)
        let date = CivilDate(daysSinceEpoch: secondOfDay < 0 ? days - 1 : days)
        let second = secondOfDay < 0 ? secondOfDay + 86_400 : secondOfDay
        let milliseconds = Int(time.nanoseconds / 1_000_000)
        // `YYYY-MM-DDThh:mm:ss.sssZ`, filled in place and appended at once.
        var text: (UInt64, UInt64, UInt64) = (0, 0, 0)
        withUnsafeMutableBytes(of: &text) { text in
            func put(_ value: Int, _ width: Int, at offset: Int, then separator: UInt8) {
                var rest = value
                for position in (offset..<offset + width).reversed() {
                    text[position] = UInt8(ascii: "0") + UInt8(truncatingIfNeeded: rest % 10)
                    rest /= 10
                }
                text[offset + width] = separator
            }
            put(date.year, 4, at: 0, then: UInt8(ascii: "-"))
            put(date.month, 2, at: 5, then: UInt8(ascii: "-"))
            put(date.day, 2, at: 8, then: UInt8(ascii: "T"))
            put(second / 3600, 2, at: 11, then: UInt8(ascii: ":"))
            put(second / 60 % 60, 2, at: 14, then: UInt8(ascii: ":"))
            put(second % 60, 2, at: 17, then: UInt8(ascii: "."))
            put(milliseconds, 3, at: 20, then: UInt8(ascii: "Z"))
            output.append(contentsOf: text)
        }
    }
}
