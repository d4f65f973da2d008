/// The body of an `application/x-www-form-urlencoded` POST.
enum FormEncoding {
    /// `name=value` pairs joined by `&`, each byte outside the unreserved set (letters, digits, `-._~`)
    /// percent-encoded.
    static func encode(_ fields: [(name: String, value: String)]) -> [UInt8] {
        var body: [UInt8] = []
        for (index, field) in fields.enumerated() {
            if index > 0 { body.append(UInt8(ascii: "&")) }
            append(field.name, to: &body)
            body.append(UInt8(ascii: "="))
            append(field.value, to: &body)
        }
        return body
    }

    private static let hexDigits = Array("0123456789ABCDEF".utf8)

    private static func append(_ text: String, to body: inout [UInt8]) {
        for byte in text.utf8 {
            if isUnreserved(byte) {
                body.append(byte)
            } else {
                body += [UInt8(ascii: "%"), hexDigits[Int(byte >> 4)], hexDigits[Int(byte & 0x0F)]]
            }
        }
    }

    private static func isUnreserved(_ byte: UInt8) -> Bool {
        (0x30...0x39).contains(byte) || (0x41...0x5A).contains(byte) || (0x61...0x7A).contains(byte)
            || byte == UInt8(ascii: "-") || byte == UInt8(ascii: ".") || byte == UInt8(ascii: "_") || byte == UInt8(ascii: "~")
    }
}
