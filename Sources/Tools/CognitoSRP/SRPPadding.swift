import ChallengeCrypto

/// The byte strings Cognito's SRP hashes, padded as amazon-cognito-identity-js's `padHex` pads hex text:
/// a number is written in its fewest bytes, with a leading zero byte when the top bit would be set (or when the
/// number is zero), so it reads as a positive two's-complement integer.
enum SRPPadding {
    /// The padded form of the unsigned big-endian integer in `bytes`.
    static func pad(_ bytes: [UInt8]) -> [UInt8] {
        let minimal = Array(bytes.drop { $0 == 0 })
        guard let first = minimal.first, first < 0x80 else { return [0] + minimal }
        return minimal
    }

    /// The padded form of hexadecimal text kept as written (leading zeros included), as the salt is hashed:
    /// an odd number of digits gets one leading "0", an even number starting with 8 to f gets "00".
    static func padHexText(_ text: String, field: String) throws(SRPError) -> [UInt8] {
        let bytes = try parseHex(text, field: field)
        guard let first = bytes.first, first >= 0x80 else { return bytes }
        return [0] + bytes
    }

    /// The bytes of 1 to ``SRPGroup/maximumHexDigits`` hexadecimal digits, an odd count read with a leading "0".
    static func parseHex(_ text: String, field: String) throws(SRPError) -> [UInt8] {
        let digits = text.utf8.count
        guard (1...SRPGroup.maximumHexDigits).contains(digits),
            let bytes = Hex.decode(digits % 2 == 0 ? text : "0" + text)
        else { throw .malformedHex(field: field, value: text) }
        return bytes
    }

    /// A number as hexadecimal text the way Cognito sends `SRP_B` and pycognito sends `SRP_A`: lower case,
    /// no leading zeros ("0" for zero).
    static func minimalHex(_ bytes: [UInt8]) -> String {
        let text = Hex.encode(bytes.drop { $0 == 0 })
        let trimmed = text.drop { $0 == "0" }
        return trimmed.isEmpty ? "0" : String(trimmed)
    }
}
