/// Base64 with the URL- and file-safe alphabet and no padding (RFC 4648 section 5), as JWTs and JWKs use it
/// (RFC 7515 section 2).
public enum Base64URL {
    private static let alphabet = Array("ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-_".utf8)

    /// The bytes as base64url text without `=` padding.
    public static func encode(_ bytes: some Collection<UInt8>) -> String {
        let input = Array(bytes)
        var text: [UInt8] = []
        text.reserveCapacity((input.count * 4 + 2) / 3)
        var index = 0
        while index < input.count {
            let remaining = min(3, input.count - index)
            var group: UInt32 = 0
            for offset in 0..<3 {
                group <<= 8
                if offset < remaining { group |= UInt32(input[index + offset]) }
            }
            // Three bytes make four characters; one byte makes two and two bytes make three.
            for position in 0...remaining {
                text.append(alphabet[Int(group >> UInt32(18 - 6 * position) & 0x3F)])
            }
            index += 3
        }
        return String(decoding: text, as: UTF8.self)
    }

    /// The bytes, or nil when the text holds a character outside the base64url alphabet, holds padding, has a
    /// length no encoding produces (one more than a multiple of four), or ends in a character with bits set past the
    /// last byte.
    public static func decode(_ text: some StringProtocol) -> [UInt8]? {
        let characters = Array(text.utf8)
        guard characters.count % 4 != 1 else { return nil }
        var bytes: [UInt8] = []
        bytes.reserveCapacity(characters.count * 3 / 4)
        var group: UInt32 = 0
        var bitCount = 0
        for character in characters {
            guard let value = sextet(character) else { return nil }
            group = group << 6 | UInt32(value)
            bitCount += 6
            if bitCount >= 8 {
                bitCount -= 8
                bytes.append(UInt8(truncatingIfNeeded: group >> UInt32(bitCount)))
                group &= (1 << UInt32(bitCount)) - 1
            }
        }
        // The canonical encoding leaves the unused low bits of the last character zero.
        guard group == 0 else { return nil }
        return bytes
    }

    private static func sextet(_ character: UInt8) -> UInt8? {
        switch character {
        case UInt8(ascii: "A")...UInt8(ascii: "Z"): character - UInt8(ascii: "A")
        case UInt8(ascii: "a")...UInt8(ascii: "z"): character - UInt8(ascii: "a") + 26
        case UInt8(ascii: "0")...UInt8(ascii: "9"): character - UInt8(ascii: "0") + 52
        case UInt8(ascii: "-"): 62
        case UInt8(ascii: "_"): 63
        default: nil
        }
    }
}
