/// A proleptic Gregorian calendar date and its day count from 1970-01-01.
///
/// The arithmetic counts years from March, so the leap day falls at the end of each counted year, and groups
/// years into 400-year cycles of 146,097 days, in which the calendar repeats exactly.
struct CivilDate {
    let year: Int64
    /// 1 to 12.
    let month: Int
    /// 1 to 31.
    let day: Int

    /// Days from 0000-03-01 to 1970-01-01.
    private static let epochOffset: Int64 = 719_468
    private static let daysPerCycle: Int64 = 146_097

    init(year: Int64, month: Int, day: Int) {
        self.year = year
        self.month = month
        self.day = day
    }

    init(daysSinceEpoch: Int64) {
        let shifted = daysSinceEpoch + Self.epochOffset
        let cycle = floorDivide(shifted, Self.daysPerCycle)
        let dayOfCycle = shifted - cycle * Self.daysPerCycle
        // Remove the leap days at years 4, 100 and 400 of the cycle to find the year within it.
        let yearOfCycle = (dayOfCycle - dayOfCycle / 1460 + dayOfCycle / 36_524 - dayOfCycle / 146_096) / 365
        let dayOfYear = dayOfCycle - (365 * yearOfCycle + yearOfCycle / 4 - yearOfCycle / 100)
        // Months from March: 31, 30, 31, 30, 31, 31, 30, 31, 30, 31, 31, (28 or 29) follow a 153-days-per-5 pattern.
        let monthFromMarch = (5 * dayOfYear + 2) / 153
        day = Int(dayOfYear - (153 * monthFromMarch + 2) / 5 + 1)
        month = Int(monthFromMarch < 10 ? monthFromMarch + 3 : monthFromMarch - 9)
        year = yearOfCycle + cycle * 400 + (month <= 2 ? 1 : 0)
    }

    var daysSinceEpoch: Int64 {
        let marchYear = month <= 2 ? year - 1 : year
        let cycle = floorDivide(marchYear, 400)
        let yearOfCycle = marchYear - cycle * 400
        let monthFromMarch = Int64(month <= 2 ? month + 9 : month - 3)
        let dayOfYear = (153 * monthFromMarch + 2) / 5 + Int64(day) - 1
        let dayOfCycle = 365 * yearOfCycle + yearOfCycle / 4 - yearOfCycle / 100 + dayOfYear
        return cycle * Self.daysPerCycle + dayOfCycle - Self.epochOffset
    }
}
