#if canImport(Glibc)
import Glibc
#endif
@testable import LambdaRuntime
import Testing

@Suite("Log timestamps: UTC computed without the time zone database")
struct TimestampTests {
    /// The C library's answer, which the computed one must match.
    private func gmtimeText(_ seconds: Int, milliseconds: Int) -> String {
        var time = time_t(seconds)
        var parts = tm()
        gmtime_r(&time, &parts)
        func padded(_ value: Int32, _ width: Int) -> String {
            let digits = String(value)
            return String(repeating: "0", count: max(0, width - digits.count)) + digits
        }
        let millis = String(milliseconds)
        return "\(padded(parts.tm_year + 1900, 4))-\(padded(parts.tm_mon + 1, 2))-\(padded(parts.tm_mday, 2))T"
            + "\(padded(parts.tm_hour, 2)):\(padded(parts.tm_min, 2)):\(padded(parts.tm_sec, 2))."
            + String(repeating: "0", count: 3 - millis.count) + millis + "Z"
    }

    @Test("known instants, leap days and century years included", arguments: [
        (0, "1970-01-01T00:00:00.000Z"),
        (951_782_400, "2000-02-29T00:00:00.000Z"),
        (4_107_542_399, "2100-02-28T23:59:59.000Z"),
        (4_107_542_400, "2100-03-01T00:00:00.000Z"),
        (-1, "1969-12-31T23:59:59.000Z"),
        (-2_203_977_600, "1900-02-28T00:00:00.000Z"),
        (-2_203_891_200, "1900-03-01T00:00:00.000Z"),
        (253_402_300_799, "9999-12-31T23:59:59.000Z"),
    ])
    func knownInstants(seconds: Int, expected: String) {
        #expect(Timestamp.iso8601(WallTime(seconds: Int64(seconds))) == expected)
    }

    @Test("every day from 1900 to 2400 and random instants agree with gmtime_r")
    func agreesWithTheCLibrary() {
        for day in -25_567...157_000 {
            let seconds = day * 86_400 + 45_296
            #expect(Timestamp.iso8601(WallTime(seconds: Int64(seconds))) == gmtimeText(seconds, milliseconds: 0))
        }
        var generator = SystemRandomNumberGenerator()
        for _ in 0..<20_000 {
            let seconds = Int.random(in: 0...253_402_300_799, using: &generator)
            let milliseconds = Int.random(in: 0...999, using: &generator)
            let instant = WallTime(seconds: Int64(seconds), nanoseconds: Int32(milliseconds) * 1_000_000 + 999_999)
            #expect(Timestamp.iso8601(instant) == gmtimeText(seconds, milliseconds: milliseconds))
        }
    }
}
