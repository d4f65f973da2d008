extension JSONValue {
    /// How to lay out written JSON.
    public enum Layout: Sendable {
        /// No white space: what goes over the wire.
        case compact
        /// Two-space indentation, one member per line: what a person reads.
        case pretty
    }

    /// The value as UTF-8 JSON text. Numbers are written as they were read, members in their order.
    public func serialized(_ layout: Layout = .compact) -> [UInt8] {
        var output: [UInt8] = []
        // Enough for a Cognito event in one allocation.
        output.reserveCapacity(4096)
        write(to: &output, layout: layout, depth: 0)
        return output
    }

    /// The value as JSON text.
    public func text(_ layout: Layout = .compact) -> String {
        String(decoding: serialized(layout), as: UTF8.self)
    }

    /// Appends the value's text to `output`, nested `depth` levels deep.
    func write(to output: inout [UInt8], layout: Layout, depth: Int) {
        switch self {
        case .null: output.append(contentsOf: "null".utf8)
        case .bool(let value): output.append(contentsOf: (value ? "true" : "false").utf8)
        case .number(let number): output.append(contentsOf: number.literal.utf8)
        case .string(let string): Self.writeString(string, to: &output)
        case .array(let elements):
            guard !elements.isEmpty else {
                output.append(contentsOf: "[]".utf8)
                return
            }
            output.append(UInt8(ascii: "["))
            for (position, element) in elements.enumerated() {
                if position > 0 { output.append(UInt8(ascii: ",")) }
                Self.newline(&output, layout: layout, depth: depth + 1)
                element.write(to: &output, layout: layout, depth: depth + 1)
            }
            Self.newline(&output, layout: layout, depth: depth)
            output.append(UInt8(ascii: "]"))
        case .object(let object):
            guard !object.isEmpty else {
                output.append(contentsOf: "{}".utf8)
                return
            }
            output.append(UInt8(ascii: "{"))
            var first = true
            for (key, value) in object {
                if !first { output.append(UInt8(ascii: ",")) }
                first = false
                Self.newline(&output, layout: layout, depth: depth + 1)
                Self.writeString(key, to: &output)
                output.append(UInt8(ascii: ":"))
                if layout == .pretty { output.append(UInt8(ascii: " ")) }
                value.write(to: &output, layout: layout, depth: depth + 1)
            }
            Self.newline(&output, layout: layout, depth: depth)
            output.append(UInt8(ascii: "}"))
        }
    }

    private static func newline(_ output: inout [UInt8], layout: Layout, depth: Int) {
        guard layout == .pretty else { return }
        output.append(UInt8(ascii: "\n"))
        output.append(contentsOf: repeatElement(UInt8(ascii: " "), count: depth * 2))
    }

    private static let hexDigits = Array("0123456789abcdef".utf8)

    private static func writeString(_ string: String, to output: inout [UInt8]) {
        output.append(UInt8(ascii: "\""))
        // `withUTF8` reads a small (inline) string in place too, where the UTF-8 view has no contiguous storage.
        var string = string
        string.withUTF8 { appendEscaping($0, to: &output) }
        output.append(UInt8(ascii: "\""))
    }

    /// Appends UTF-8 text with the bytes JSON does not allow raw in a string escaped. Runs of bytes that need no
    /// escape are copied whole: most strings are one such run.
    private static func appendEscaping(_ utf8: UnsafeBufferPointer<UInt8>, to output: inout [UInt8]) {
        var runStart = 0
        var index = 0
        while index < utf8.count {
            let byte = utf8[index]
            if byte < 0x20 || byte == UInt8(ascii: "\"") || byte == UInt8(ascii: "\\") {
                if runStart < index { output.append(contentsOf: UnsafeBufferPointer(rebasing: utf8[runStart..<index])) }
                writeEscape(byte, to: &output)
                runStart = index + 1
            }
            index += 1
        }
        if runStart < utf8.count { output.append(contentsOf: UnsafeBufferPointer(rebasing: utf8[runStart...])) }
    }

    /// A byte that cannot stand for itself inside a JSON string (a quote, a backslash or a control character),
    /// written as its escape.
    private static func writeEscape(_ byte: UInt8, to output: inout [UInt8]) {
        switch byte {
        case UInt8(ascii: "\""): output.append(contentsOf: #"\""#.utf8)
        case UInt8(ascii: "\\"): output.append(contentsOf: #"\\"#.utf8)
        case 0x0A: output.append(contentsOf: #"\n"#.utf8)
        case 0x0D: output.append(contentsOf: #"\r"#.utf8)
        case 0x09: output.append(contentsOf: #"\t"#.utf8)
        default:
            output.append(contentsOf: #"\u00"#.utf8)
            output.append(hexDigits[Int(byte >> 4)])
            output.append(hexDigits[Int(byte & 0xF)])
        }
    }
}
