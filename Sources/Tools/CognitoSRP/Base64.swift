/// Standard base64 (RFC 4648 section 4, with "=" padding), as Cognito encodes `SECRET_BLOCK` and
/// `PASSWORD_CLAIM_SIGNATURE`.
public enum Base64 {
    private static let alphabet = Array("ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/".utf8)

    /// The padded base64 text of `bytes`.
    public static func encode(_ bytes: some Collection<UInt8>) -> String {
        let input = Array(bytes)
        var text: [UInt8] = []
        text.reserveCapacity((input.count + 2) / 3 * 4)
        var index = 0
        while index < input.count {
            let chunk = input[index..<min(index + 3, input.count)]
            let group = chunk.enumerated().reduce(UInt32(0)) { $0 | UInt32($1.element) << (16 - 8 * $1.offset) }
            for position in 0..<4 {
                let sextet = Int(group >> (18 - 6 * position) & 0x3F)
                text.append(position <= chunk.count ? alphabet[sextet] : UInt8(ascii: "="))
            }
            index += 3
        }
        return String(decoding: text, as: UTF8.self)
    }

    /// The bytes of padded base64 text, or nil when the text is not canonical standard base64: a length that is
    /// not a multiple of 4, a character outside the alphabet, misplaced "=", or non-zero unused bits.
    public static func decode(_ text: String) -> [UInt8]? {
        let input = Array(text.utf8)
        guard input.count % 4 == 0 else { return nil }
        var bytes: [UInt8] = []
        bytes.reserveCapacity(input.count / 4 * 3)
        var index = 0
        while index < input.count {
            let quad = input[index..<index + 4]
            let isLast = index + 4 == input.count
            let padding = quad.reversed().prefix { $0 == UInt8(ascii: "=") }.count
            guard padding <= 2, padding == 0 || isLast else { return nil }
            var group: UInt32 = 0
            for character in quad.dropLast(padding) {
                guard let value = value(of: character) else { return nil }
                group = group << 6 | value
            }
            group <<= 6 * UInt32(padding)
            let byteCount = 3 - padding
            let unusedBits = (UInt32(1) << (8 * UInt32(padding))) - 1
            guard group & unusedBits == 0 else { return nil }
            for position in 0..<byteCount {
                bytes.append(UInt8(truncatingIfNeeded: group >> (16 - 8 * position)))
            }
            index += 4
        }
        return bytes
    }

    private static func value(of character: UInt8) -> UInt32? {
        switch character {
        case UInt8(ascii: "A")...UInt8(ascii: "Z"): UInt32(character - UInt8(ascii: "A"))
        case UInt8(ascii: "a")...UInt8(ascii: "z"): UInt32(character - UInt8(ascii: "a")) + 26
        case UInt8(ascii: "0")...UInt8(ascii: "9"): UInt32(character - UInt8(ascii: "0")) + 52
        case UInt8(ascii: "+"): 62
        case UInt8(ascii: "/"): 63
        default: nil
        }
    }
}
