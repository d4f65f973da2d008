/// Reads the `challenge_ts` timestamps of `siteverify` answers without Foundation.
enum ISO8601Time {
    /// Whole seconds since 1970-01-01T00:00:00Z (fractions dropped) of `YYYY-MM-DDThh:mm:ss`, with optional fractional
    /// seconds, then `Z` or an offset `+hh:mm`, `-hh:mm`, `+hhmm`; nil for anything else, including impossible dates.
    /// A leap second (`:60`) counts as the second before it.
    static func unixSeconds(_ text: String) -> Int64? {
        var reader = DigitReader(Array(text.utf8))
        guard let year = reader.number(digits: 4), reader.skip("-"),
            let month = reader.number(digits: 2), reader.skip("-"),
            let day = reader.number(digits: 2), reader.skip("T") || reader.skip("t"),
            let hour = reader.number(digits: 2), reader.skip(":"),
            let minute = reader.number(digits: 2), reader.skip(":"),
            let second = reader.number(digits: 2)
        else { return nil }
        if reader.skip(".") {
            guard reader.skipDigits() > 0 else { return nil }
        }
        let offsetSeconds: Int64
        if reader.skip("Z") || reader.skip("z") {
            offsetSeconds = 0
        } else {
            let sign: Int64
            if reader.skip("+") { sign = 1 } else if reader.skip("-") { sign = -1 } else { return nil }
            guard let offsetHours = reader.number(digits: 2) else { return nil }
            _ = reader.skip(":")
            guard let offsetMinutes = reader.number(digits: 2), offsetHours <= 23, offsetMinutes <= 59 else { return nil }
            offsetSeconds = sign * (offsetHours * 3600 + offsetMinutes * 60)
        }
        guard reader.isAtEnd, (1...12).contains(month), (1...daysIn(month: month, year: year)).contains(day),
            hour <= 23, minute <= 59, second <= 60
        else { return nil }
        let days = daysSinceEpoch(year: year, month: month, day: day)
        return days * 86_400 + hour * 3600 + minute * 60 + min(second, 59) - offsetSeconds
    }

    private static func daysIn(month: Int64, year: Int64) -> Int64 {
        switch month {
        case 2: year % 4 == 0 && (year % 100 != 0 || year % 400 == 0) ? 29 : 28
        case 4, 6, 9, 11: 30
        default: 31
        }
    }

    /// Days from 1970-01-01 to a date of the proleptic Gregorian calendar, counting in 400-year eras that start on
    /// March 1st so that February's length only matters at the end of a year.
    private static func daysSinceEpoch(year: Int64, month: Int64, day: Int64) -> Int64 {
        let marchYear = month <= 2 ? year - 1 : year
        let era = (marchYear >= 0 ? marchYear : marchYear - 399) / 400
        let yearOfEra = marchYear - era * 400
        let dayOfYear = (153 * (month > 2 ? month - 3 : month + 9) + 2) / 5 + day - 1
        let dayOfEra = yearOfEra * 365 + yearOfEra / 4 - yearOfEra / 100 + dayOfYear
        return era * 146_097 + dayOfEra - 719_468
    }
}

/// Reads fixed-width decimal numbers and single characters from ASCII bytes.
private struct DigitReader {
    private let bytes: [UInt8]
    private var index = 0

    init(_ bytes: [UInt8]) {
        self.bytes = bytes
    }

    var isAtEnd: Bool { index == bytes.count }

    mutating func number(digits: Int) -> Int64? {
        guard bytes.count - index >= digits else { return nil }
        var value: Int64 = 0
        for byte in bytes[index..<index + digits] {
            guard (0x30...0x39).contains(byte) else { return nil }
            value = value * 10 + Int64(byte - 0x30)
        }
        index += digits
        return value
    }

    mutating func skip(_ character: Unicode.Scalar) -> Bool {
        guard index < bytes.count, bytes[index] == UInt8(ascii: character) else { return false }
        index += 1
        return true
    }

    /// Skips a run of digits and says how long it was.
    mutating func skipDigits() -> Int {
        let start = index
        while index < bytes.count, (0x30...0x39).contains(bytes[index]) { index += 1 }
        return index - start
    }
}
