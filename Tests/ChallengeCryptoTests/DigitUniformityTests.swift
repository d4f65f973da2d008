import ChallengeCrypto
import Platform
import Testing

/// Chi-square goodness-of-fit checks that `SystemRandom` digits are uniform.
@Suite struct DigitUniformityTests {
    /// The chi-square value with 9 degrees of freedom (ten digits) that a uniform source exceeds with
    /// probability 1e-6: `scipy.stats.chi2.isf(1e-6, 9)` = 44.8109. Each check here therefore fails a correct
    /// generator once in a million runs, and the seven checks in this suite together at most 7 in a million
    /// (union bound), so a failure means bias, not bad luck. The stricter level than the usual 1e-4 (33.72)
    /// keeps CI quiet and still leaves ample power over 200,000 digits: `byte % 10` bias gives about 75 there.
    static let criticalValue = 44.81

    /// Pearson's statistic for counts of the ten digits against equal expected counts.
    static func chiSquare(_ counts: [Int]) -> Double {
        let expected = Double(counts.reduce(0, +)) / Double(counts.count)
        return counts.reduce(0) { sum, observed in
            let difference = Double(observed) - expected
            return sum + difference * difference / expected
        }
    }

    static let digitRange = UInt8(ascii: "0")...UInt8(ascii: "9")

    static func digitCounts(_ digits: some Sequence<UInt8>) -> [Int] {
        var counts = [Int](repeating: 0, count: 10)
        for digit in digits { counts[Int(digit - UInt8(ascii: "0"))] += 1 }
        return counts
    }

    @Test func digitsAreUniform() throws {
        let digits = try SystemRandom().decimalDigits(count: 200_000)
        #expect(digits.utf8.count == 200_000)
        try #require(digits.utf8.allSatisfy(Self.digitRange.contains))
        let statistic = Self.chiSquare(Self.digitCounts(digits.utf8))
        #expect(statistic < Self.criticalValue, "chi-square \(statistic) over 200,000 digits")
    }

    @Test func everyPositionOfSixDigitCodesIsUniform() throws {
        let random = SystemRandom()
        var counts = [[Int]](repeating: [Int](repeating: 0, count: 10), count: 6)
        for _ in 0..<40_000 {
            for (position, digit) in try random.decimalDigits(count: 6).utf8.enumerated() {
                counts[position][Int(digit - UInt8(ascii: "0"))] += 1
            }
        }
        for (position, positionCounts) in counts.enumerated() {
            let statistic = Self.chiSquare(positionCounts)
            #expect(statistic < Self.criticalValue, "chi-square \(statistic) at position \(position)")
        }
    }

    @Test func theTestWouldCatchModuloBias() {
        // Digits made as `byte % 10` favour 0...5 (26 of 256 bytes each) over 6...9 (25 each). Spread over
        // 204,800 digits exactly in those proportions, the statistic must land far above the critical value.
        let biased = (0..<800).flatMap { _ in (0...255).map { UInt8(ascii: "0") + UInt8($0 % 10) } }
        let statistic = Self.chiSquare(Self.digitCounts(biased))
        #expect(statistic > Self.criticalValue, "chi-square \(statistic)")
        #expect(Self.chiSquare([100, 100, 100, 100, 100, 100, 100, 100, 100, 100]) == 0)
    }
}
