/// The countries a deployment texts codes to, as ITU country calling codes (`1` for North America, `44` for the United
/// Kingdom, …): numbers elsewhere are answered as unusable, so that nobody can make the pool pay for texts to
/// premium-rate ranges abroad (SMS pumping).
public struct CallingCodes: Sendable, Equatable, CustomStringConvertible {
    /// The codes, digits only.
    public let codes: [String]

    /// Reads a comma-separated list such as `1,44,+49`; nil when an entry is not 1 to 3 digits (after an optional `+`).
    public init?(list: String) {
        var codes: [String] = []
        for entry in list.split(separator: ",", omittingEmptySubsequences: false) {
            var digits = Substring(entry.unicodeScalars.filter { $0 != " " }.map(Character.init))
            if digits.hasPrefix("+") { digits = digits.dropFirst() }
            guard (1...3).contains(digits.count), digits.allSatisfy({ $0.isASCII && $0.isNumber }) else { return nil }
            codes.append(String(digits))
        }
        guard !codes.isEmpty else { return nil }
        self.codes = codes
    }

    /// True when the E.164 `number` starts with one of the codes.
    public func allow(_ number: String) -> Bool {
        codes.contains { number.hasPrefix("+" + $0) }
    }

    /// `+1, +44`.
    public var description: String { codes.map { "+" + $0 }.joined(separator: ", ") }
}
