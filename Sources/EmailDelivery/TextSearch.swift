/// Substring search and replacement by UTF-8 bytes.
///
/// The standard library's `contains(_:)` and `replacing(_:with:)` for strings live in `_StringProcessing`, whose
/// regex engine then comes into the bootstrap with them (about 1.3 MB of code). The texts searched here (an
/// address, a template, a provider's message) are looked through for short ASCII needles (`@`, `{code}`, a code),
/// for which bytes and characters agree.
extension String {
    /// True when `needle` occurs in this string.
    func containsText(_ needle: String) -> Bool {
        firstOffset(of: Array(needle.utf8), from: 0, in: Array(utf8)) != nil
    }

    /// This string with every occurrence of `needle` replaced by `replacement`; unchanged for an empty needle.
    func replacingText(_ needle: String, with replacement: String) -> String {
        guard !needle.isEmpty else { return self }
        let haystack = Array(utf8)
        let pattern = Array(needle.utf8)
        var output: [UInt8] = []
        output.reserveCapacity(haystack.count)
        var position = 0
        while let match = firstOffset(of: pattern, from: position, in: haystack) {
            output += haystack[position..<match]
            output += replacement.utf8
            position = match + pattern.count
        }
        output += haystack[position...]
        return String(decoding: output, as: UTF8.self)
    }

    private func firstOffset(of pattern: [UInt8], from start: Int, in haystack: [UInt8]) -> Int? {
        guard !pattern.isEmpty, haystack.count >= pattern.count, start <= haystack.count - pattern.count else {
            return pattern.isEmpty ? start : nil
        }
        return (start...(haystack.count - pattern.count)).first { haystack[$0..<$0 + pattern.count].elementsEqual(pattern) }
    }
}
