#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// The instant a request is signed, in whole seconds since 1970-01-01T00:00:00Z, with the two UTC forms
/// Signature Version 4 writes: `20150830T123600Z` and `20150830`.
public struct SigningDate: Sendable, Equatable {
    public let secondsSince1970: Int64

    public init(secondsSince1970: Int64) {
        self.secondsSince1970 = secondsSince1970
    }

    /// The wall clock now.
    public static func now() -> SigningDate {
        SigningDate(secondsSince1970: systemSeconds())
    }

    /// The wall clock as Unix seconds; the default clock of anything that signs.
    @Sendable public static func systemSeconds() -> Int64 {
        var now = timespec()
        clock_gettime(CLOCK_REALTIME, &now)
        return Int64(now.tv_sec)
    }

    /// `yyyyMMdd'T'HHmmss'Z'`, the value of `X-Amz-Date`.
    public var timestamp: String {
        let remainder = Int(secondsSince1970 % 86_400)
        let secondOfDay = remainder < 0 ? remainder + 86_400 : remainder
        return dateStamp + "T" + twoDigits(secondOfDay / 3600) + twoDigits(secondOfDay / 60 % 60)
            + twoDigits(secondOfDay % 60) + "Z"
    }

    /// `yyyyMMdd`, the date of the credential scope.
    public var dateStamp: String {
        let (year, month, day) = Self.civilDate(daysSince1970: daysSince1970)
        let yearText = String(year)
        return String(repeating: "0", count: max(0, 4 - yearText.count)) + yearText + twoDigits(month) + twoDigits(day)
    }

    private var daysSince1970: Int {
        // Floor division, so that instants before 1970 fall on the right day; no step can overflow, even at the
        // ends of the range.
        let (days, remainder) = secondsSince1970.quotientAndRemainder(dividingBy: 86_400)
        return Int(remainder < 0 ? days - 1 : days)
    }

    /// The proleptic Gregorian date of a day count, by splitting time into 400-year eras of 146 097 days
    /// whose years start on 1 March (so the leap day ends a year).
    private static func civilDate(daysSince1970 days: Int) -> (year: Int, month: Int, day: Int) {
        let shifted = days + 719_468  // days from 0000-03-01 to 1970-01-01
        let era = (shifted >= 0 ? shifted : shifted - 146_096) / 146_097
        let dayOfEra = shifted - era * 146_097
        let yearOfEra = (dayOfEra - dayOfEra / 1460 + dayOfEra / 36_524 - dayOfEra / 146_096) / 365
        let dayOfYear = dayOfEra - (365 * yearOfEra + yearOfEra / 4 - yearOfEra / 100)
        let monthFromMarch = (5 * dayOfYear + 2) / 153
        let day = dayOfYear - (153 * monthFromMarch + 2) / 5 + 1
        let month = monthFromMarch < 10 ? monthFromMarch + 3 : monthFromMarch - 9
        let year = yearOfEra + era * 400 + (month <= 2 ? 1 : 0)
        return (year, month, day)
    }

    private func twoDigits(_ value: Int) -> String {
        value < 10 ? "0" + String(value) : String(value)
    }
}
