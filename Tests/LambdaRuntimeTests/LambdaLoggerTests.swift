@testable import LambdaRuntime
import LosslessJSON
import Testing

/// Lambda's two log formats and levels, as `LambdaLogger.render` writes them.
struct LambdaLoggerTests {
    /// 2024-05-01T12:34:56.789Z.
    static let instant = Duration.seconds(1_714_566_896) + .milliseconds(789)

    @Test func textLinesAreTabSeparatedWithTheRequestID() {
        let logger = LambdaLogger(format: .text, requestID: "8f2c")
        let line = String(decoding: logger.render(.warn, "slow delivery", at: Self.instant), as: UTF8.self)
        #expect(line == "2024-05-01T12:34:56.789Z\t8f2c\tWARN\tslow delivery\n")
    }

    @Test func textLinesOutsideAnInvocationHaveNoRequestIDAndStayOneLine() {
        let line = String(decoding: LambdaLogger().render(.info, "first\nsecond", at: Self.instant), as: UTF8.self)
        #expect(line == "2024-05-01T12:34:56.789Z\tINFO\tfirst\rsecond\n")
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
}
