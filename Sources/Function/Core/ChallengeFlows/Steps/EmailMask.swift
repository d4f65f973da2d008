import ChallengeCrypto

/// Shows where a code went without showing the address: `Jane.Doe@Example.com` → `j***@e***.com`.
///
/// Masks are lower case whatever the case typed or stored, so that a real user's mask and an unknown user's decoy
/// cannot be told apart by case.
public enum EmailMask {
    /// The masked address, e.g. `j***@e***.com`.
    public static func mask(_ address: String) -> String {
        var text = address
        return text.withUTF8(asciiMask) ?? unicodeMask(address)
    }

    /// The mask of an ASCII address, written byte by byte into a string of the exact length; nil unless every byte
    /// is ASCII. The same as `unicodeMask(_:)` gives: in ASCII, lower-casing maps bytes one to one, "@" and "." are
    /// single bytes, and the only character of two bytes is CR LF.
    private static func asciiMask(_ bytes: UnsafeBufferPointer<UInt8>) -> String? {
        guard bytes.allSatisfy({ $0 < 0x80 }) else { return nil }
        let at = bytes.lastIndex(of: UInt8(ascii: "@"))
        let domainStart = at.map { $0 + 1 } ?? bytes.endIndex
        let dot = bytes[domainStart...].lastIndex(of: UInt8(ascii: "."))
        let localFirst = firstCharacterLength(bytes[..<(at ?? bytes.endIndex)])
        let domainFirst = firstCharacterLength(bytes[domainStart..<(dot ?? bytes.endIndex)])
        let topLevel = dot.map { $0..<bytes.endIndex } ?? bytes.endIndex..<bytes.endIndex
        let length = localFirst + 3 + (at == nil ? 0 : 1 + domainFirst + 3 + topLevel.count)
        return String(unsafeUninitializedCapacity: length) { text in
            var count = 0
            func append(_ range: Range<Int>) {
                for byte in bytes[range] {
                    text[count] = (UInt8(ascii: "A")...UInt8(ascii: "Z")).contains(byte) ? byte + 0x20 : byte
                    count += 1
                }
            }
            func appendStars() {
                for _ in 0..<3 {
                    text[count] = UInt8(ascii: "*")
                    count += 1
                }
            }
            append(0..<localFirst)
            appendStars()
            if let at {
                append(at..<domainStart)
                append(domainStart..<(domainStart + domainFirst))
                appendStars()
                append(topLevel)
            }
            return count
        }
    }

    /// How many bytes the first character of an ASCII word has: none when it is empty, two for CR LF, else one.
    private static func firstCharacterLength(_ word: Slice<UnsafeBufferPointer<UInt8>>) -> Int {
        guard let first = word.first else { return 0 }
        return first == 0x0D && word.dropFirst().first == 0x0A ? 2 : 1
    }

    /// The mask of any address, by Unicode scalars and characters.
    private static func unicodeMask(_ address: String) -> String {
        let address = address.lowercased()
        // Searched by scalar: "@" and "." are single scalars, and the grapheme breaking of a `Character` search
        // would cost more than the rest of the mask.
        guard let at = address.unicodeScalars.lastIndex(of: "@") else { return maskWord(address[...]) }
        let local = address[..<at]
        let domain = address[address.unicodeScalars.index(after: at)...]
        guard let dot = domain.unicodeScalars.lastIndex(of: ".") else { return "\(maskWord(local))@\(maskWord(domain))" }
        return "\(maskWord(local))@\(maskWord(domain[..<dot]))\(domain[dot...])"
    }

    /// A plausible mask for a user that does not exist (or has no usable address), stable for a user name.
    ///
    /// An email-shaped user name is masked as the address it names, which is what a real user's mask would show.
    /// Otherwise letters and a top-level domain are drawn from a keyed digest of the user name: the key is
    /// ``ChallengeKeys``'s decoy key, so the same name always gets the same decoy, and nobody without the key
    /// can tell which decoy a name gets.
    static func decoy(for userName: String, key: [UInt8]) -> String {
        if userName.contains("@") { return mask(userName) }
        let digest = HMACSHA256.authenticationCode(key: key, message: "decoy-mask/v1\u{0}\(userName.lowercased())")
        let letters = Array("abcdefghijklmnopqrstuvwxyz")
        // Cosmetic choices from 16-bit values: the bias of `% 26` (under 0.04 %) reveals nothing.
        func value(_ index: Int) -> Int { Int(digest[index]) << 8 | Int(digest[index + 1]) }
        let local = letters[value(0) % letters.count]
        let domain = letters[value(2) % letters.count]
        return "\(local)***@\(domain)***.\(topLevelDomain(forUnitValue: value(4)))"
    }

    /// Top-level domains in roughly the shares they have among personal email addresses, so that decoys show the
    /// same spread as real masks (`.com` for most).
    private static let topLevelDomains: [(name: String, weight: Int)] = [
        ("com", 78), ("net", 5), ("org", 4), ("de", 3), ("uk", 3), ("fr", 2), ("io", 2), ("ca", 1), ("au", 1), ("edu", 1),
    ]

    private static func topLevelDomain(forUnitValue value: Int) -> String {
        let total = topLevelDomains.reduce(0) { $0 + $1.weight }
        var point = value % total
        for (name, weight) in topLevelDomains {
            if point < weight { return name }
            point -= weight
        }
        return topLevelDomains[0].name
    }

    private static func maskWord(_ word: Substring) -> String {
        guard let first = word.first else { return "***" }
        return "\(first)***"
    }
}
