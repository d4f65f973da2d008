/// The `TIMESTAMP` of a password claim, in UTC: "Tue Nov 3 07:04:05 UTC 2026". The day of the month has no
/// leading zero; hours, minutes and seconds have two digits. This is pycognito's and amazon-cognito-identity-js's
/// format, and the one Cognito signs with.
public enum CognitoTimestamp {
    private static let weekdayNames = ["Mon", "Tue", "Wed", "Thu", "Fri", "Sat", "Sun"]
    private static let monthNames = ["Jan", "Feb", "Mar", "Apr", "May", "Jun", "Jul", "Aug", "Sep", "Oct", "Nov", "Dec"]
    private static let secondsPerDay: Int64 = 86_400

    /// The timestamp for `unixSeconds` (seconds since 1970-01-01 00:00:00 UTC).
    public static func format(unixSeconds: Int64) -> String {
        let days = floorDivide(unixSeconds, secondsPerDay)
        let secondOfDay = unixSeconds - days * secondsPerDay
        let date = CivilDate(daysSinceEpoch: days)
        // 1970-01-01 was a Thursday, index 3 from Monday.
        let weekday = weekdayNames[Int(floorModulo(days + 3, 7))]
        let time = [secondOfDay / 3600, secondOfDay / 60 % 60, secondOfDay % 60].map(twoDigits).joined(separator: ":")
        return "\(weekday) \(monthNames[date.month - 1]) \(date.day) \(time) UTC \(date.year)"
    }

    /// The Unix seconds of a timestamp in exactly the form ``format(unixSeconds:)`` writes, for years 1 to 9999.
    /// A wrong weekday, a zero-padded day, an impossible date or time, or any other spelling is refused.
    public static func parse(_ text: String) throws(SRPError) -> Int64 {
        let fields = text.split(separator: " ", omittingEmptySubsequences: false).map(String.init)
        guard fields.count == 6, fields[4] == "UTC",
            let monthIndex = monthNames.firstIndex(of: fields[1]),
            let day = number(fields[2]), let year = number(fields[5]), (1...9999).contains(year)
        else { throw .malformedTimestamp(text) }
        let clock = fields[3].split(separator: ":", omittingEmptySubsequences: false).map { number(String($0)) }
        guard clock.count == 3, let hour = clock[0], let minute = clock[1], let second = clock[2] else {
            throw .malformedTimestamp(text)
        }
        let days = CivilDate(year: year, month: monthIndex + 1, day: Int(day)).daysSinceEpoch
        let seconds = days * secondsPerDay + hour * 3600 + minute * 60 + second
        // Out-of-range fields (Feb 30, 24:00:00) or a wrong weekday do not survive the round trip.
        guard format(unixSeconds: seconds) == text else { throw .malformedTimestamp(text) }
        return seconds
    }

    /// A non-negative decimal of one to four ASCII digits.
    private static func number(_ text: String) -> Int64? {
        guard (1...4).contains(text.utf8.count), text.utf8.allSatisfy({ (48...57).contains($0) }) else { return nil }
        return Int64(text)
    }

    private static func twoDigits(_ value: Int64) -> String {
        value < 10 ? "0\(value)" : "\(value)"
    }
}

/// Division and remainder rounding towards negative infinity, so dates before 1970 come out right.
func floorDivide(_ dividend: Int64, _ divisor: Int64) -> Int64 {
    let quotient = dividend / divisor
    return dividend % divisor < 0 ? quotient - 1 : quotient
}

func floorModulo(_ dividend: Int64, _ divisor: Int64) -> Int64 {
    dividend - floorDivide(dividend, divisor) * divisor
}
