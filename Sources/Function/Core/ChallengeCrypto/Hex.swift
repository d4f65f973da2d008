/// Lower-case hexadecimal text for bytes, and back.
public enum Hex {
    public static func encode(_ bytes: some Sequence<UInt8>) -> String {
        encode(Array(bytes))
    }

    /// The same for an array (digests, keys), written straight into the string's storage.
    public static func encode(_ bytes: [UInt8]) -> String {
        String(unsafeUninitializedCapacity: bytes.count * 2) { text in
            encode(bytes, into: text)
            return bytes.count * 2
        }
    }

    /// Writes the digits of `bytes`, two per byte, at the start of `text`, which has room for them.
    package static func encode(_ bytes: [UInt8], into text: UnsafeMutableBufferPointer<UInt8>) {
        for (index, byte) in bytes.enumerated() {
            text[2 * index] = digit(byte >> 4)
            text[2 * index + 1] = digit(byte & 0x0F)
        }
    }

    private static func digit(_ nibble: UInt8) -> UInt8 {
        nibble < 10 ? UInt8(ascii: "0") + nibble : UInt8(ascii: "a") + nibble - 10
    }

    /// The bytes, or nil when the text is not an even number of hexadecimal digits.
    public static func decode(_ text: String) -> [UInt8]? {
        var text = text
        return text.withUTF8(decode(utf8:))
    }

    /// The bytes of hexadecimal digits given as UTF-8, or nil when they are not an even number of digits.
    package static func decode(utf8: UnsafeBufferPointer<UInt8>) -> [UInt8]? {
        guard utf8.count % 2 == 0 else { return nil }
        let count = utf8.count / 2
        // Decoded on the stack, then copied into an array that `reserveCapacity` allocates: for a digest's few bytes
        // that costs less than an array made with uninitialised storage, or one grown byte by byte.
        return withUnsafeTemporaryAllocation(of: UInt8.self, capacity: count) { decoded -> [UInt8]? in
            for index in 0..<count {
                guard let high = value(of: utf8[2 * index]), let low = value(of: utf8[2 * index + 1]) else { return nil }
                decoded[index] = high << 4 | low
            }
            var bytes: [UInt8] = []
            bytes.reserveCapacity(count)
            bytes.append(contentsOf: UnsafeBufferPointer(rebasing: decoded[..<count]))
            return bytes
        }
    }

    /// True when the UTF-8 is an even number of hexadecimal digits, i.e. when ``decode(utf8:)`` would succeed.
    package static func isHex(utf8: UnsafeBufferPointer<UInt8>) -> Bool {
        utf8.count % 2 == 0 && utf8.allSatisfy { value(of: $0) != nil }
    }

    private static func value(of digit: UInt8) -> UInt8? {
        switch digit {
        case UInt8(ascii: "0")...UInt8(ascii: "9"): digit - UInt8(ascii: "0")
        case UInt8(ascii: "a")...UInt8(ascii: "f"): digit - UInt8(ascii: "a") + 10
        case UInt8(ascii: "A")...UInt8(ascii: "F"): digit - UInt8(ascii: "A") + 10
        default: nil
        }
    }
}
