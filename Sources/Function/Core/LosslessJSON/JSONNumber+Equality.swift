extension JSONNumber {
    /// Numbers are equal when they denote the same value, however they are spelled: `1.50 == 1.5`, `1e3 == 1000`,
    /// `-0 == 0`. The literal is still what gets written back; equality just ignores its spelling, as object
    /// equality ignores member order, so that a value that went through another coder still compares equal.
    public static func == (lhs: JSONNumber, rhs: JSONNumber) -> Bool {
        guard lhs.literal != rhs.literal else { return true }
        guard let left = DecimalValue(lhs.literal), let right = DecimalValue(rhs.literal) else { return false }
        return left == right
    }
}

/// A JSON number literal reduced to one spelling: sign, significant digits without leading or trailing zeros,
/// and a power of ten. Exact, so integers too large for `Int` or `Double` still compare correctly.
private struct DecimalValue: Equatable {
    let isNegative: Bool
    let digits: ArraySlice<UInt8>
    let exponent: Int

    /// Nil for text outside JSON's number grammar or with an exponent too large to hold.
    init?(_ literal: String) {
        var text = literal[...]
        let isNegative = text.first == "-"
        if isNegative { text = text.dropFirst() }
        let mantissa = text.prefix { $0 != "e" && $0 != "E" }
        var exponent = 0
        if mantissa.endIndex < text.endIndex {
            let exponentText = text[text.index(after: mantissa.endIndex)...]
            guard let value = Int(exponentText.first == "+" ? exponentText.dropFirst() : exponentText) else { return nil }
            exponent = value
        }
        let integerPart = mantissa.prefix { $0 != "." }
        let fractionPart = mantissa[integerPart.endIndex...].dropFirst()
        guard !integerPart.isEmpty, (integerPart + fractionPart).allSatisfy(\.isASCIIDigit) else { return nil }
        let (shifted, overflow) = exponent.subtractingReportingOverflow(fractionPart.count)
        guard !overflow else { return nil }

        var digits = Array((integerPart + fractionPart).utf8)[...].drop { $0 == UInt8(ascii: "0") }
        var trailingZeros = 0
        while digits.last == UInt8(ascii: "0") {
            digits = digits.dropLast()
            trailingZeros += 1
        }
        self.digits = digits
        // Zero has no sign and no scale.
        self.isNegative = digits.isEmpty ? false : isNegative
        self.exponent = digits.isEmpty ? 0 : shifted + trailingZeros
    }
}

extension Character {
    fileprivate var isASCIIDigit: Bool { ("0"..."9").contains(self) }
}
