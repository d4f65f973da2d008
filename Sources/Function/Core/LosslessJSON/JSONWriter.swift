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
        let nothing = UnsafeBufferPointer<UInt8>(start: nil, count: 0)
        return written(between: nothing, and: nothing, layout: layout)
    }

    /// The value as JSON text.
    public func text(_ layout: Layout = .compact) -> String {
        String(decoding: serialized(layout), as: UTF8.self)
    }

    /// The most bytes of a value written on the stack first: a trigger's response, a log or outbox line.
    private static let stackRoom = 1024

    /// `prefix`, the value's text, then `suffix`, in one array.
    ///
    /// A value of up to `stackRoom` bytes is written once on the stack, then copied with the rest into an array
    /// reserved at their size: reserving goes through code specialized for bytes, while
    /// `[UInt8](unsafeUninitializedCapacity:)` allocates through the standard library's generic code, which looks the
    /// storage's type up at run time. A longer value is measured by that pass and written again into an array of
    /// its size.
    func written(
        between prefix: UnsafeBufferPointer<UInt8>, and suffix: UnsafeBufferPointer<UInt8>, layout: Layout
    ) -> [UInt8] {
        Self.written(between: prefix, and: suffix) { write(to: &$0, layout: layout, depth: 0) }
    }

    /// `prefix`, the text `write` writes (twice at most: it must write the same each time), then `suffix`, in one
    /// array, as `written(between:and:layout:)` writes a value.
    static func written(
        between prefix: UnsafeBufferPointer<UInt8>, and suffix: UnsafeBufferPointer<UInt8>,
        _ write: (inout BufferWriter) -> Void
    ) -> [UInt8] {
        let (fitted, length): ([UInt8]?, Int) = withUnsafeTemporaryAllocation(of: UInt8.self, capacity: Self.stackRoom) {
            room in
            var writer = BufferWriter(room)
            write(&writer)
            guard writer.position <= room.count else { return (nil, writer.position) }
            var bytes: [UInt8] = []
            bytes.reserveCapacity(prefix.count + writer.position + suffix.count)
            bytes.append(contentsOf: prefix)
            bytes.append(contentsOf: UnsafeBufferPointer(rebasing: room[..<writer.position]))
            bytes.append(contentsOf: suffix)
            return (bytes, writer.position)
        }
        if let fitted { return fitted }
        let needed = prefix.count + length + suffix.count
        return [UInt8](unsafeUninitializedCapacity: needed) { buffer, initialized in
            var writer = BufferWriter(buffer)
            writer.append(prefix)
            write(&writer)
            writer.append(suffix)
            precondition(writer.position == needed, "JSON writer: measured \(needed) bytes, wrote \(writer.position)")
            initialized = writer.position
        }
    }

    /// Appends the value's text to `writer`, nested `depth` levels deep.
    fileprivate func write(to writer: inout BufferWriter, layout: Layout, depth: Int) {
        switch self {
        case .null: writer.append("null")
        case .bool(let value): writer.append(value ? "true" : "false")
        case .number(let number): Self.withUTF8(of: number.literal) { writer.append($0) }
        case .string(let string): Self.writeString(string, to: &writer)
        case .array(let elements):
            guard !elements.isEmpty else {
                writer.append("[]")
                return
            }
            writer.append(UInt8(ascii: "["))
            for (position, element) in elements.enumerated() {
                if position > 0 { writer.append(UInt8(ascii: ",")) }
                Self.newline(&writer, layout: layout, depth: depth + 1)
                element.write(to: &writer, layout: layout, depth: depth + 1)
            }
            Self.newline(&writer, layout: layout, depth: depth)
            writer.append(UInt8(ascii: "]"))
        case .object(let object):
            guard !object.isEmpty else {
                writer.append("{}")
                return
            }
            writer.append(UInt8(ascii: "{"))
            object.withMembers { members in
                for position in members.indices {
                    if position > 0 { writer.append(UInt8(ascii: ",")) }
                    Self.newline(&writer, layout: layout, depth: depth + 1)
                    Self.writeString(members[position].key, to: &writer)
                    writer.append(UInt8(ascii: ":"))
                    if layout == .pretty { writer.append(UInt8(ascii: " ")) }
                    members[position].value.write(to: &writer, layout: layout, depth: depth + 1)
                }
            }
            Self.newline(&writer, layout: layout, depth: depth)
            writer.append(UInt8(ascii: "}"))
        }
    }

    private static func newline(_ writer: inout BufferWriter, layout: Layout, depth: Int) {
        guard layout == .pretty else { return }
        writer.append(UInt8(ascii: "\n"))
        writer.append(repeating: UInt8(ascii: " "), count: depth * 2)
    }

    /// Calls `body` with the string's UTF-8 bytes, in place for a native or small string.
    private static func withUTF8(of string: String, _ body: (UnsafeBufferPointer<UInt8>) -> Void) {
        if string.utf8.withContiguousStorageIfAvailable(body) == nil {
            var string = string
            string.withUTF8(body)
        }
    }

    fileprivate static func writeString(_ string: String, to writer: inout BufferWriter) {
        writer.append(UInt8(ascii: "\""))
        withUTF8(of: string) { appendEscaping($0, to: &writer) }
        writer.append(UInt8(ascii: "\""))
    }

    /// Appends UTF-8 text with the bytes JSON does not allow raw in a string escaped. Runs of bytes that need no
    /// escape are copied whole: most strings are one such run.
    private static func appendEscaping(_ utf8: UnsafeBufferPointer<UInt8>, to writer: inout BufferWriter) {
        var runStart = 0
        while true {
            let index = utf8.plainRunEnd(from: runStart, passingNonASCII: true)
            if runStart < index { writer.append(UnsafeBufferPointer(rebasing: utf8[runStart..<index])) }
            guard index < utf8.count else { return }
            writeEscape(utf8[index], to: &writer)
            runStart = index + 1
        }
    }

    private static let hexDigits: StaticString = "0123456789abcdef"

    /// A byte that cannot stand for itself inside a JSON string (a quote, a backslash or a control character),
    /// written as its escape.
    private static func writeEscape(_ byte: UInt8, to writer: inout BufferWriter) {
        switch byte {
        case UInt8(ascii: "\""): writer.append(#"\""#)
        case UInt8(ascii: "\\"): writer.append(#"\\"#)
        case 0x0A: writer.append(#"\n"#)
        case 0x0D: writer.append(#"\r"#)
        case 0x09: writer.append(#"\t"#)
        default:
            writer.append(#"\u00"#)
            writer.append(hexDigits.utf8Start[Int(byte >> 4)])
            writer.append(hexDigits.utf8Start[Int(byte & 0xF)])
        }
    }
}

/// Writes an object's members straight into compact JSON text, escaped as `JSONValue.serialized()` escapes: for text
/// made of values a reader has in hand, without building a `JSONValue` of them first.
package struct JSONMemberWriter {
    fileprivate var writer: BufferWriter
    private var isFirst = true

    fileprivate init(_ writer: BufferWriter) {
        self.writer = writer
    }

    /// Starts the next member: its separator, its key and the colon; its value follows.
    package mutating func key(_ key: String) {
        if !isFirst { writer.append(UInt8(ascii: ",")) }
        isFirst = false
        JSONValue.writeString(key, to: &writer)
        writer.append(UInt8(ascii: ":"))
    }

    package mutating func value(_ value: JSONValue) {
        value.write(to: &writer, layout: .compact, depth: 0)
    }

    package mutating func string(_ string: String) {
        JSONValue.writeString(string, to: &writer)
    }

    /// An object, whose members `body` writes.
    package mutating func object(_ body: (inout JSONMemberWriter) -> Void) {
        writer.append(UInt8(ascii: "{"))
        var members = JSONMemberWriter(writer)
        body(&members)
        writer = members.writer
        writer.append(UInt8(ascii: "}"))
    }

    /// The compact text of the object whose members `body` writes, then `suffix` (a line's newline, say). `body` may
    /// be called twice and must write the same each time.
    package static func objectText(followedBy suffix: StaticString = "", _ body: (inout JSONMemberWriter) -> Void) -> [UInt8] {
        objectText(
            between: UnsafeBufferPointer(start: nil, count: 0),
            and: UnsafeBufferPointer(start: suffix.utf8Start, count: suffix.utf8CodeUnitCount), body)
    }

    /// `prefix`, the compact text of the object whose members `body` writes, then `suffix`, in one array.
    fileprivate static func objectText(
        between prefix: UnsafeBufferPointer<UInt8>, and suffix: UnsafeBufferPointer<UInt8>,
        _ body: (inout JSONMemberWriter) -> Void
    ) -> [UInt8] {
        JSONValue.written(between: prefix, and: suffix) { writer in
            var value = JSONMemberWriter(writer)
            value.object(body)
            writer = value.writer
        }
    }
}

extension MemberSplice {
    /// The bytes with the value replaced by the object whose members `body` writes (compact), as
    /// `replacingValue(with:)` replaces it with a value. `body` may be called twice and must write the same each time.
    package func replacingValue(withObject body: (inout JSONMemberWriter) -> Void) -> [UInt8] {
        bytes.withUnsafeBufferPointer { bytes in
            let before = UnsafeBufferPointer(rebasing: bytes[startAfterByteOrderMark..<valueRange.lowerBound])
            let after = UnsafeBufferPointer(rebasing: bytes[valueRange.upperBound...])
            return JSONMemberWriter.objectText(between: before, and: after, body)
        }
    }
}

/// Writes into uninitialized memory, as far as it has room; past that, only counts the bytes.
struct BufferWriter {
    private let buffer: UnsafeMutableBufferPointer<UInt8>
    /// How many bytes were appended: more than the buffer holds when it ran out of room.
    private(set) var position = 0

    init(_ buffer: UnsafeMutableBufferPointer<UInt8>) {
        self.buffer = buffer
    }

    mutating func append(_ byte: UInt8) {
        if position < buffer.count { buffer.baseAddress.unsafelyUnwrapped[position] = byte }
        position += 1
    }

    mutating func append(_ bytes: UnsafeBufferPointer<UInt8>) {
        if let source = bytes.baseAddress, bytes.count <= buffer.count - position {
            (buffer.baseAddress.unsafelyUnwrapped + position).initialize(from: source, count: bytes.count)
        }
        position += bytes.count
    }

    mutating func append(_ text: StaticString) {
        append(UnsafeBufferPointer(start: text.utf8Start, count: text.utf8CodeUnitCount))
    }

    mutating func append(repeating byte: UInt8, count: Int) {
        if count > 0, count <= buffer.count - position {
            (buffer.baseAddress.unsafelyUnwrapped + position).initialize(repeating: byte, count: count)
        }
        position += count
    }
}
