import CognitoSRP
import Testing

@Suite struct CognitoTimestampTests {
    @Test(arguments: [
        (Int64(0), "Thu Jan 1 00:00:00 UTC 1970"),
        (1_793_689_445, "Tue Nov 3 07:04:05 UTC 2026"),
        (1_709_164_799, "Wed Feb 28 23:59:59 UTC 2024"),
        (1_709_164_800, "Thu Feb 29 00:00:00 UTC 2024"),
        (951_782_400, "Tue Feb 29 00:00:00 UTC 2000"),
        (4_107_542_399, "Sun Feb 28 23:59:59 UTC 2100"),
        (4_107_542_400, "Mon Mar 1 00:00:00 UTC 2100"),
        (-1, "Wed Dec 31 23:59:59 UTC 1969"),
        (-2_208_988_800, "Mon Jan 1 00:00:00 UTC 1900"),
        (253_402_300_799, "Fri Dec 31 23:59:59 UTC 9999"),
    ])
    func formatsAndParses(unixSeconds: Int64, text: String) throws {
        #expect(CognitoTimestamp.format(unixSeconds: unixSeconds) == text)
        #expect(try CognitoTimestamp.parse(text) == unixSeconds)
    }

    @Test func roundTripsAcrossFourHundredYears() throws {
        // A step that is not a whole number of days visits every weekday, day of month and time of day.
        var seconds: Int64 = -2_208_988_800
        while seconds < 10_413_792_000 {
            #expect(try CognitoTimestamp.parse(CognitoTimestamp.format(unixSeconds: seconds)) == seconds)
            seconds += 3_600_007
        }
    }

    @Test(arguments: [
        "Tue Nov 03 07:04:05 UTC 2026", "Wed Nov 3 07:04:05 UTC 2026", "Tue Nov 3 7:04:05 UTC 2026",
        "Tue Nov 3 07:04:05 GMT 2026", "Tue Nov  3 07:04:05 UTC 2026", "Mon Feb 30 00:00:00 UTC 2026",
        "Tue Nov 3 24:00:00 UTC 2026", "Tue Nov 3 07:04:60 UTC 2026", "tue nov 3 07:04:05 UTC 2026",
        "Tue Nov 3 07:04:05 UTC 0", "Tue Nov 3 07:04:05 UTC 20266", "Tue Nov 3 07:04 UTC 2026", "",
        "Tue Nov 3 07:04:05 UTC 2026 ", "Tue Nov +3 07:04:05 UTC 2026",
    ])
    func refusesOtherSpellings(text: String) {
        #expect(throws: SRPError.malformedTimestamp(text)) { try CognitoTimestamp.parse(text) }
    }
}
