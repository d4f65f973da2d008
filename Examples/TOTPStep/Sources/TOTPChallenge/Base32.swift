/// RFC 4648 base32, the way authenticator apps write TOTP secrets: `JBSWY3DPEHPK3PXP`.
enum Base32 {
    private static let alphabet = Array("ABCDEFGHIJKLMNOPQRSTUVWXYZ234567".utf8)

    /// The bytes `text` encodes, ignoring letter case, spaces, dashes and `=` padding; nil for any other character
    /// or for nothing at all.
    static func decode(_ text: String) -> [UInt8]? {
        var bytes: [UInt8] = []
        var buffer: UInt32 = 0
        var bits = 0
        for character in text.uppercased().utf8 where ![UInt8(ascii: " "), UInt8(ascii: "-"), UInt8(ascii: "=")].contains(character) {
            guard let value = alphabet.firstIndex(of: character) else { return nil }
            buffer = buffer << 5 | UInt32(value)
            bits += 5
            if bits >= 8 {
                bits -= 8
                bytes.append(UInt8(truncatingIfNeeded: buffer >> UInt32(bits)))
            }
        }
        return bytes.isEmpty ? nil : bytes
    }
}
