/// The percent-encoding Signature Version 4 prescribes: every byte but the unreserved characters
/// `A-Z a-z 0-9 - . _ ~` becomes `%XX` with upper-case hexadecimal digits.
package enum URIEncoding {
    private static let hexDigits = Array("0123456789ABCDEF".utf8)

    package static func encode(_ text: String, keepingSlashes: Bool = false) -> String {
        var output: [UInt8] = []
        output.reserveCapacity(text.utf8.count)
        for byte in text.utf8 {
            if isUnreserved(byte) || (keepingSlashes && byte == UInt8(ascii: "/")) {
                output.append(byte)
            } else {
                output.append(UInt8(ascii: "%"))
                output.append(hexDigits[Int(byte >> 4)])
                output.append(hexDigits[Int(byte & 0x0F)])
            }
        }
        return String(decoding: output, as: UTF8.self)
    }

    /// The path with empty, `.` and `..` segments resolved, as every service but S3 expects:
    /// `//a/./b/../c/` becomes `/a/c/`. The result starts with `/` and keeps a trailing slash.
    static func normalizedPath(_ path: String) -> String {
        var segments: [Substring] = []
        for segment in path.split(separator: "/", omittingEmptySubsequences: true) {
            switch segment {
            case ".": continue
            case "..": _ = segments.popLast()
            default: segments.append(segment)
            }
        }
        let joined = "/" + segments.joined(separator: "/")
        return path.hasSuffix("/") && !segments.isEmpty ? joined + "/" : joined
    }

    private static func isUnreserved(_ byte: UInt8) -> Bool {
        switch byte {
        case UInt8(ascii: "A")...UInt8(ascii: "Z"), UInt8(ascii: "a")...UInt8(ascii: "z"),
            UInt8(ascii: "0")...UInt8(ascii: "9"), UInt8(ascii: "-"), UInt8(ascii: "."), UInt8(ascii: "_"),
            UInt8(ascii: "~"):
            true
        default:
            false
        }
    }
}
