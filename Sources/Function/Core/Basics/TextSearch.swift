/// Substring search and replacement by UTF-8 bytes, for the function binary.
///
/// The standard library's `contains(_:)`, `firstRange(of:)` and `replacing(_:with:)` for strings live in
/// `_StringProcessing`, whose regex engine then comes into the bootstrap with them (about 1 MB of code). The texts
/// searched here (an address, a template, a provider's message, an XML answer) are looked through for needles
/// (`@`, `{code}`, a code, a tag) whose bytes and characters agree; a match always starts and ends on a character
/// boundary of valid UTF-8 when the needle is itself whole characters.
extension StringProtocol {
    /// True when `needle` occurs in this text.
    public func containsText(_ needle: some StringProtocol) -> Bool {
        textRange(of: needle) != nil
    }

    /// Where `needle` first occurs in this text; nil when it does not.
    public func textRange(of needle: some StringProtocol) -> Range<Index>? {
        let haystack = Array(utf8)
        let pattern = Array(needle.utf8)
        guard let offset = Self.firstOffset(of: pattern, from: 0, in: haystack) else { return nil }
        let start = utf8.index(utf8.startIndex, offsetBy: offset)
        return start..<utf8.index(start, offsetBy: pattern.count)
    }

    /// This text with every occurrence of `needle` replaced by `replacement`; unchanged for an empty needle.
    public func replacingText(_ needle: some StringProtocol, with replacement: some StringProtocol) -> String {
        guard !needle.isEmpty else { return String(self) }
        let haystack = Array(utf8)
        let pattern = Array(needle.utf8)
        var output: [UInt8] = []
        output.reserveCapacity(haystack.count)
        var position = 0
        while let match = Self.firstOffset(of: pattern, from: position, in: haystack) {
            output += haystack[position..<match]
            output += replacement.utf8
            position = match + pattern.count
        }
        output += haystack[position...]
        return String(decoding: output, as: UTF8.self)
    }

    private static func firstOffset(of pattern: [UInt8], from start: Int, in haystack: [UInt8]) -> Int? {
        guard !pattern.isEmpty else { return start }
        guard haystack.count >= pattern.count, start <= haystack.count - pattern.count else { return nil }
        return (start...(haystack.count - pattern.count)).first { haystack[$0..<$0 + pattern.count].elementsEqual(pattern) }
    }
}
