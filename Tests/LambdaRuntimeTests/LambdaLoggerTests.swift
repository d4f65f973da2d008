@testable import LambdaRuntime
import LosslessJSON
import Testing

#if canImport(Glibc)
import Glibc
#endif

/// Lambda's two log formats and levels, as `LambdaLogger.render` writes them.
struct LambdaLoggerTests {
    /// 2024-05-01T12:34:56.789Z.
    static let instant = WallTime(seconds: 1_714_566_896, nanoseconds: 789_000_000)

    @Test func textLinesAreTabSeparatedWithTheRequestID() {
        let logger = LambdaLogger(format: .text, requestID: "8f2c")
        let line = String(decoding: logger.render(.warn, "slow delivery", at: Self.instant), as: UTF8.self)
        #expect(line == "2024-05-01T12:34:56.789Z\t8f2c\tWARN\tslow delivery\n")
    }

    @Test func textLinesOutsideAnInvocationHaveNoRequestIDAndStayOneLine() {
        let line = String(decoding: LambdaLogger().render(.info, "first\nsecond", at: Self.instant), as: UTF8.self)
        #expect(line == "2024-05-01T12:34:56.789Z\tINFO\tfirst\\nsecond\n")
    }

    /// Every scalar a reader may end a line at, and the escape a text line shows instead. `"\r\n"` is a single
    /// Swift `Character`, equal to neither `"\r"` nor `"\n"`: a check by Character let it through.
    static let lineBreaks: [(String, String)] = [
        ("user\r\n2024-05-01T00:00:00.000Z\tINFO\tforged", "user\\r\\n2024-05-01T00:00:00.000Z\tINFO\tforged"),
        ("lone\rCR", "lone\\rCR"),
        ("lone\nLF", "lone\\nLF"),
        ("next\u{85}line", "next\\u0085line"),
        ("line\u{2028}separator", "line\\u2028separator"),
        ("paragraph\u{2029}separator", "paragraph\\u2029separator"),
        ("vertical\u{0B}tab\u{0C}form feed", "vertical\\u000btab\\u000cform feed"),
        ("\r\n\r\n\n\r", "\\r\\n\\r\\n\\n\\r"),
        // Past a plain run of ASCII longer than a word, and past the quote that ends one.
        ("a plain run of ASCII, then a\nbreak", "a plain run of ASCII, then a\\nbreak"),
        ("a plain run that \"quotes\" and\u{2028}breaks", "a plain run that \"quotes\" and\\u2028breaks"),
    ]

    /// LF, VT, FF, CR, NEL, LS and PS: Unicode's line breaks, counted scalar by scalar.
    static func lineBreakCount(_ bytes: [UInt8]) -> Int {
        let breaks: Set<UInt32> = [0x0A, 0x0B, 0x0C, 0x0D, 0x85, 0x2028, 0x2029]
        return String(decoding: bytes, as: UTF8.self).unicodeScalars.filter { breaks.contains($0.value) }.count
    }

    @Test(arguments: lineBreaks)
    func textLinesEscapeEveryLineBreak(message: String, escaped: String) {
        let bytes = LambdaLogger(format: .text, requestID: "8f2c").render(.info, message, at: Self.instant)
        #expect(String(decoding: bytes, as: UTF8.self) == "2024-05-01T12:34:56.789Z\t8f2c\tINFO\t\(escaped)\n")
        #expect(Self.lineBreakCount(bytes) == 1)
    }

    @Test(arguments: lineBreaks)
    func jsonLinesEscapeEveryLineBreak(message: String, escaped: String) throws {
        let bytes = LambdaLogger(format: .json, requestID: "8f2c").render(.info, message, at: Self.instant)
        #expect(bytes.last == UInt8(ascii: "\n"))
        #expect(Self.lineBreakCount(bytes) == 1)
        let entry = try #require(try JSONValue(parsing: bytes.dropLast()).objectValue)
        #expect(entry["message"] == .string(message))
    }

    @Test func requestIDsCannotBreakATextLineEither() {
        let bytes = LambdaLogger(format: .text, requestID: "8f2c\r\nforged").render(.info, "m", at: Self.instant)
        #expect(String(decoding: bytes, as: UTF8.self) == "2024-05-01T12:34:56.789Z\t8f2c\\r\\nforged\tINFO\tm\n")
    }

    @Test func textWithoutLineBreaksIsWrittenAsItIs() {
        let message = "naïve e\u{301} 中文 😀 \u{84}\u{86}\u{2027}\u{202A} back\\slash \"quoted\"\ttab"
        let bytes = LambdaLogger().render(.info, message, at: Self.instant)
        #expect(bytes == Array("2024-05-01T12:34:56.789Z\tINFO\t\(message)\n".utf8))
    }

    @Test func jsonLinesCarryTimestampLevelMessageAndRequestID() throws {
        let logger = LambdaLogger(format: .json, requestID: "8f2c")
        let bytes = logger.render(.error, "tab\there \"quoted\"\nnext", at: Self.instant)
        #expect(bytes.last == UInt8(ascii: "\n"))
        #expect(bytes.dropLast().allSatisfy { $0 != UInt8(ascii: "\n") })
        let entry = try #require(try JSONValue(parsing: bytes.dropLast()).objectValue)
        #expect(entry.keys == ["timestamp", "level", "message", "requestId"])
        #expect(entry["timestamp"] == "2024-05-01T12:34:56.789Z")
        #expect(entry["level"] == "ERROR")
        #expect(entry["message"] == "tab\there \"quoted\"\nnext")
        #expect(entry["requestId"] == "8f2c")
    }

    @Test func levelsBelowTheMinimumAreDropped() {
        let logger = LambdaLogger(minimumLevel: .warn)
        #expect(LogLevel.allCases.filter(logger.isEnabled) == [.warn, .error, .fatal])
    }

    @Test(arguments: [("debug", LogLevel.debug), ("WARNING", .warn), ("Fatal", .fatal), ("TRACE", .trace)])
    func levelNamesAreReadInAnyCase(name: String, level: LogLevel) {
        #expect(LogLevel(name: name) == level)
    }

    @Test func unknownLevelNamesAndFormatsAreTold() {
        #expect(LogLevel(name: "verbose") == nil)
        #expect(LogFormat(name: "json") == .json)
        #expect(LogFormat(name: "Text") == .text)
        #expect(LogFormat(name: nil) == .text)
    }

    /// Lines built in memory kept from line to line: each one is written whole, with nothing left of a longer one
    /// before it, and a line too long to keep memory for is written like any other.
    @Test func linesWrittenOneAfterAnotherAreEachWrittenWhole() throws {
        var ends: [Int32] = [0, 0]
        #expect(pipe(&ends) == 0)
        defer { close(ends[0]) }
        let output = FileDescriptorOutput(descriptor: ends[1])
        let long = String(repeating: "x", count: FileDescriptorOutput.keptCapacity + 1)
        let lines = ["a longer line first\n", "short\n", long + "\n", "after\n"]
        // The pipe holds 64 KiB, more than all the lines, so nothing waits for a reader.
        for line in lines { output.writeLine { $0 += Array(line.utf8) } }
        close(ends[1])
        var read: [UInt8] = []
        var chunk = [UInt8](repeating: 0, count: 4096)
        while true {
            let count = chunk.withUnsafeMutableBytes { Glibc.read(ends[0], $0.baseAddress, $0.count) }
            guard count > 0 else { break }
            read += chunk[..<count]
        }
        #expect(String(decoding: read, as: UTF8.self) == lines.joined())
    }
}
