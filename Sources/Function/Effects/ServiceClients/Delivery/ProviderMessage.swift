import Basics

/// An error message from a delivery provider (SES, SNS), made safe to log. Providers quote what they were sent: SES's
/// sandbox refusal names the recipient's address, SNS names the phone number. So the code becomes `[code]`, every
/// word holding an `@` becomes `[address]`, every run of 7 or more digits (with `+`, spaces, dots, dashes or
/// parentheses between them) becomes `[number]`, and the text is cut to ``maximumLength`` characters.
enum ProviderMessage {
    /// The most characters of a provider's message kept.
    static let maximumLength = 300
    /// The fewest digits in a run that is taken for a phone number.
    static let phoneDigits = 7

    static func redacted(_ message: String, code: String) -> String {
        let withoutCode = code.isEmpty ? message : message.replacingText(code, with: "[code]")
        var words: [Substring] = []
        for word in withoutCode.split(separator: " ", omittingEmptySubsequences: false) {
            words.append(word.contains("@") ? "[address]" : word)
        }
        return String(maskingPhoneNumbers(words.joined(separator: " ")).prefix(maximumLength))
    }

    /// `text` with each run of at least ``phoneDigits`` digits (and the separators between them) as `[number]`.
    private static func maskingPhoneNumbers(_ text: String) -> String {
        let characters = Array(text)
        var result = ""
        var index = 0
        while index < characters.count {
            guard characters[index].isASCIIDigitOrPlus else {
                result.append(characters[index])
                index += 1
                continue
            }
            var end = index
            var digits = 0
            while end < characters.count, characters[end].isASCIIDigitOrPlus || (digits > 0 && characters[end].isPhoneSeparator) {
                if characters[end].isWholeNumber { digits += 1 }
                end += 1
            }
            // Trailing separators stay text.
            while end > index, characters[end - 1].isPhoneSeparator { end -= 1 }
            if digits >= phoneDigits {
                result += "[number]"
            } else {
                result += String(characters[index..<max(end, index + 1)])
            }
            index = max(end, index + 1)
        }
        return result
    }
}

extension Character {
    fileprivate var isASCIIDigitOrPlus: Bool { self == "+" || ("0"..."9").contains(self) }
    fileprivate var isPhoneSeparator: Bool { self == " " || self == "-" || self == "." || self == "(" || self == ")" }
}
