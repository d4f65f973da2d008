/// Why a JSON text could not be read, and where.
public struct JSONParseError: Error, Sendable, Equatable, CustomStringConvertible {
    /// Byte offset into the input where reading stopped.
    public let offset: Int
    /// Where in the document the problem is, e.g. `$.request.session[1]`.
    public let path: String
    /// What was wrong.
    public let reason: String

    public var description: String { "invalid JSON at \(path) (byte \(offset)): \(reason)" }
}

extension JSONValue {
    /// Reads one JSON document. A leading UTF-8 byte-order mark is skipped; anything but white space after
    /// the value is an error.
    public init(parsing bytes: some Collection<UInt8>) throws(JSONParseError) {
        let result: Result<JSONValue, JSONParseError> =
            bytes.withContiguousStorageIfAvailable { buffer in
                Result { () throws(JSONParseError) in try JSONValue.parseDocument(buffer) }
            } ?? Array(bytes).withUnsafeBufferPointer { buffer in
                Result { () throws(JSONParseError) in try JSONValue.parseDocument(buffer) }
            }
        self = try result.get()
    }

    /// Reads one JSON document from an array: the same as the generic reader, without generic dispatch for the
    /// event bytes every invocation brings.
    public init(parsing bytes: [UInt8]) throws(JSONParseError) {
        let result = bytes.withUnsafeBufferPointer { buffer in
            Result { () throws(JSONParseError) in try JSONValue.parseDocument(buffer) }
        }
        self = try result.get()
    }

    /// Reads one JSON document from a string.
    public init(parsing text: String) throws(JSONParseError) {
        var text = text
        let result = text.withUTF8 { buffer in
            Result { () throws(JSONParseError) in try JSONValue.parseDocument(buffer) }
        }
        self = try result.get()
    }

    private static func parseDocument(_ buffer: UnsafeBufferPointer<UInt8>) throws(JSONParseError) -> JSONValue {
        var parser = JSONParser(buffer)
        return try parser.parseDocument()
    }
}

extension JSONParseError {
    /// The same error one level up: `component` (`$`, `.key` or `[index]`) put in front of its path.
    fileprivate func within(_ component: String) -> JSONParseError {
        JSONParseError(offset: offset, path: component + path, reason: reason)
    }
}

/// A document that was read, with the bytes it was read from and where one member of its root object lies in them.
///
/// A handler that changes only that member can write the document back by splicing the member's new value into the
/// original bytes, instead of serializing the whole tree again.
public struct ParsedDocument: Sendable {
    public let value: JSONValue
    public let bytes: [UInt8]
    /// The byte range of the root member's value; nil when the root is not an object, the member is absent, or its
    /// key occurs more than once (the value read is then the last one, and a splice could not say which to replace).
    public let memberValueRange: Range<Int>?

    /// Reads `bytes` (see `JSONValue(parsing:)`), noting where the value of the root member `key` lies.
    public init(parsing bytes: [UInt8], locatingRootMember key: String) throws(JSONParseError) {
        let result = bytes.withUnsafeBufferPointer { buffer in
            Result { () throws(JSONParseError) in
                var parser = JSONParser(buffer, locatingRootMember: key)
                let value = try parser.parseDocument()
                return (value, parser.locatedRange)
            }
        }
        (value, memberValueRange) = try result.get()
        self.bytes = bytes
    }

    /// The document's bytes with the located member's value replaced by `newValue` (compact), or nil when no member
    /// was located (see `MemberSplice`).
    public func replacingMemberValue(with newValue: JSONValue) -> [UInt8]? {
        splice?.replacingValue(with: newValue)
    }

    /// The bytes and the located member's value in them, when one was located.
    package var splice: MemberSplice? {
        memberValueRange.map { MemberSplice(bytes: bytes, valueRange: $0) }
    }
}

/// The bytes of a JSON document and where one value lies in them, so that the value can be replaced without writing
/// the rest of the document again.
package struct MemberSplice: Sendable {
    package let bytes: [UInt8]
    package let valueRange: Range<Int>

    package init(bytes: [UInt8], valueRange: Range<Int>) {
        self.bytes = bytes
        self.valueRange = valueRange
    }

    /// The bytes with the value replaced by `newValue` (compact). A leading byte-order mark is left out, as the
    /// reader skips it: what is written is JSON, which must not start with one (RFC 8259 §8.1).
    package func replacingValue(with newValue: JSONValue) -> [UInt8] {
        // The new value goes between the bytes before and after the old one, in one array.
        bytes.withUnsafeBufferPointer { bytes in
            newValue.written(
                between: UnsafeBufferPointer(rebasing: bytes[startAfterByteOrderMark..<valueRange.lowerBound]),
                and: UnsafeBufferPointer(rebasing: bytes[valueRange.upperBound...]), layout: .compact)
        }
    }

    /// Where the bytes start once a leading byte-order mark is left out.
    var startAfterByteOrderMark: Int {
        bytes.count >= 3 && bytes[0] == 0xEF && bytes[1] == 0xBB && bytes[2] == 0xBF ? 3 : 0
    }
}

/// A recursive-descent reader over UTF-8 bytes. `JSONCursor` walks a document with its grammar, one step at a time.
struct JSONParser {
    static let maximumDepth = 256

    let bytes: UnsafeBufferPointer<UInt8>
    var index = 0
    /// How many objects and arrays enclose the value being read.
    var depth = 0

    /// The root member whose value's byte range is wanted, if any.
    private let rootMemberToLocate: String?
    private var locatedCount = 0
    private var located: Range<Int>?
    /// The located value's range, when the member occurred exactly once.
    var locatedRange: Range<Int>? { locatedCount == 1 ? located : nil }

    init(_ bytes: UnsafeBufferPointer<UInt8>, locatingRootMember key: String? = nil) {
        self.bytes = bytes
        rootMemberToLocate = key
    }

    mutating func parseDocument() throws(JSONParseError) -> JSONValue {
        try beginDocument()
        let value: JSONValue
        do {
            value = try parseValue()
        } catch {
            // Each enclosing object and array has put its part of the path in front on the way out.
            throw error.within("$")
        }
        try endDocument()
        return value
    }

    /// Skips a leading byte-order mark and white space, up to the value, which must be there.
    mutating func beginDocument() throws(JSONParseError) {
        if bytes.count >= 3, bytes[0] == 0xEF, bytes[1] == 0xBB, bytes[2] == 0xBF {
            index = 3
        }
        skipWhitespace()
        guard index < bytes.count else { throw error("the input is empty", path: "$") }
    }

    /// Checks that nothing but white space follows the value.
    mutating func endDocument() throws(JSONParseError) {
        skipWhitespace()
        guard index == bytes.count else { throw error("unexpected \(describeCurrentByte()) after the end of the value", path: "$") }
    }

    mutating func parseValue() throws(JSONParseError) -> JSONValue {
        guard index < bytes.count else { throw error("the input ends where a value was expected") }
        switch bytes[index] {
        case UInt8(ascii: "{"): return .object(try parseObject())
        case UInt8(ascii: "["): return .array(try parseArray())
        case UInt8(ascii: "\""): return .string(try parseString())
        case UInt8(ascii: "t"): try expectLiteral("true"); return .bool(true)
        case UInt8(ascii: "f"): try expectLiteral("false"); return .bool(false)
        case UInt8(ascii: "n"): try expectLiteral("null"); return .null
        case UInt8(ascii: "-"), UInt8(ascii: "0")...UInt8(ascii: "9"): return .number(try parseNumber())
        default: throw error("unexpected \(describeCurrentByte()) where a value was expected")
        }
    }

    private mutating func parseObject() throws(JSONParseError) -> JSONObject {
        guard depth < Self.maximumDepth else { throw error("nesting is deeper than \(Self.maximumDepth) levels") }
        depth += 1
        defer { depth -= 1 }
        index += 1
        var object = JSONObject()
        skipWhitespace()
        if index < bytes.count, bytes[index] != UInt8(ascii: "}") {
            // Room for the members a small object has, instead of growing from one.
            object.reserveCapacity(JSONObject.indexThreshold)
        }
        if index < bytes.count, bytes[index] == UInt8(ascii: "}") {
            index += 1
            return object
        }
        while true {
            skipWhitespace()
            guard index < bytes.count, bytes[index] == UInt8(ascii: "\"") else {
                throw error("expected a member name in quotes, found \(describeCurrentByte())")
            }
            let key = try parseString()
            skipWhitespace()
            guard index < bytes.count, bytes[index] == UInt8(ascii: ":") else {
                throw error("expected ':' after member name \"\(key)\", found \(describeCurrentByte())")
            }
            index += 1
            skipWhitespace()
            let valueStart = index
            do {
                object.setMember(key, try parseValue())
            } catch {
                throw error.within(".\(key)")
            }
            if depth == 1, let rootMemberToLocate, key.hasSameUTF8(as: rootMemberToLocate) {
                locatedCount += 1
                located = valueStart..<index
            }
            skipWhitespace()
            guard index < bytes.count else { throw error("the input ends inside an object") }
            switch bytes[index] {
            case UInt8(ascii: ","): index += 1
            case UInt8(ascii: "}"): index += 1; return object
            default: throw error("expected ',' or '}' in an object, found \(describeCurrentByte())")
            }
        }
    }

    private mutating func parseArray() throws(JSONParseError) -> [JSONValue] {
        guard depth < Self.maximumDepth else { throw error("nesting is deeper than \(Self.maximumDepth) levels") }
        depth += 1
        defer { depth -= 1 }
        index += 1
        var elements: [JSONValue] = []
        skipWhitespace()
        if index < bytes.count, bytes[index] == UInt8(ascii: "]") {
            index += 1
            return elements
        }
        while true {
            skipWhitespace()
            do {
                elements.append(try parseValue())
            } catch {
                throw error.within("[\(elements.count)]")
            }
            skipWhitespace()
            guard index < bytes.count else { throw error("the input ends inside an array") }
            switch bytes[index] {
            case UInt8(ascii: ","): index += 1
            case UInt8(ascii: "]"): index += 1; return elements
            default: throw error("expected ',' or ']' in an array, found \(describeCurrentByte())")
            }
        }
    }

    mutating func parseString() throws(JSONParseError) -> String {
        index += 1
        let start = index
        // Fast path: no escapes, so the bytes between the quotes are the string. The plain ASCII run most strings
        // are is passed at once; the loop goes on from the first byte that ends it.
        index = bytes.plainRunEnd(from: start)
        var union: UInt8 = 0
        while index < bytes.count {
            let byte = bytes[index]
            if byte == UInt8(ascii: "\"") {
                let slice = UnsafeBufferPointer(rebasing: bytes[start..<index])
                index += 1
                guard let string = Self.validatedString(slice, isASCII: union < 0x80) else {
                    throw error("a string is not valid UTF-8", at: start)
                }
                return string
            }
            union |= byte
            if byte == UInt8(ascii: "\\") { break }
            if byte < 0x20 { throw error("a control character (0x\(hex(byte))) must be escaped inside a string") }
            index += 1
        }
        var utf8 = Array(bytes[start..<index])
        while index < bytes.count {
            let byte = bytes[index]
            switch byte {
            case UInt8(ascii: "\""):
                index += 1
                let string = utf8.withUnsafeBufferPointer { Self.validatedString($0, isASCII: false) }
                guard let string else { throw error("a string is not valid UTF-8", at: start) }
                return string
            case UInt8(ascii: "\\"):
                index += 1
                try appendEscape(to: &utf8)
            case 0..<0x20:
                throw error("a control character (0x\(hex(byte))) must be escaped inside a string")
            default:
                utf8.append(byte)
                index += 1
            }
        }
        throw error("the input ends inside a string", at: start - 1)
    }

    /// The string the bytes spell, or nil when they are not valid UTF-8.
    ///
    /// `String(validating:as:)` is generic and costs tens of instructions per byte. ASCII (what events are made of)
    /// is valid as it is; other text is decoded with repair, which is fast, and is valid exactly when repairing
    /// changed nothing.
    private static func validatedString(_ utf8: UnsafeBufferPointer<UInt8>, isASCII: Bool) -> String? {
        if isASCII { return asciiString(utf8) }
        var string = String(decoding: utf8, as: UTF8.self)
        let unchanged = string.withUTF8 { decoded in decoded.elementsEqual(utf8) }
        return unchanged ? string : nil
    }

    /// The string of bytes known to be ASCII. Up to 15 bytes (a small string, kept inline) they are copied straight
    /// into it, which checks them a word at a time, where `String(decoding:as:)` decodes them first.
    static func asciiString(_ ascii: UnsafeBufferPointer<UInt8>) -> String {
        guard ascii.count <= 15 else { return String(decoding: ascii, as: UTF8.self) }
        return String(unsafeUninitializedCapacity: ascii.count) { buffer in
            _ = buffer.initialize(fromContentsOf: ascii)
            return ascii.count
        }
    }

    private mutating func appendEscape(to utf8: inout [UInt8]) throws(JSONParseError) {
        guard index < bytes.count else { throw error("the input ends inside an escape sequence") }
        let byte = bytes[index]
        index += 1
        switch byte {
        case UInt8(ascii: "\""), UInt8(ascii: "\\"), UInt8(ascii: "/"): utf8.append(byte)
        case UInt8(ascii: "b"): utf8.append(0x08)
        case UInt8(ascii: "f"): utf8.append(0x0C)
        case UInt8(ascii: "n"): utf8.append(0x0A)
        case UInt8(ascii: "r"): utf8.append(0x0D)
        case UInt8(ascii: "t"): utf8.append(0x09)
        case UInt8(ascii: "u"):
            var scalar = UInt32(try parseHexQuad())
            if (0xD800..<0xDC00).contains(scalar) {
                guard index + 1 < bytes.count, bytes[index] == UInt8(ascii: "\\"), bytes[index + 1] == UInt8(ascii: "u")
                else { throw error("a high surrogate escape is not followed by a low surrogate") }
                index += 2
                let low = UInt32(try parseHexQuad())
                guard (0xDC00..<0xE000).contains(low) else { throw error("a high surrogate escape is not followed by a low surrogate") }
                scalar = 0x10000 + ((scalar - 0xD800) << 10) + (low - 0xDC00)
            } else if (0xDC00..<0xE000).contains(scalar) {
                throw error("a low surrogate escape has no high surrogate before it")
            }
            guard let unicodeScalar = Unicode.Scalar(scalar) else { throw error("\\u escape is not a Unicode scalar") }
            utf8.append(contentsOf: UTF8.encode(unicodeScalar)!)
        default:
            let reason = isPrintableASCII(byte)
                ? "unknown escape sequence '\\\(Character(Unicode.Scalar(byte)))'"
                : "unknown escape sequence: '\\' followed by byte 0x\(hex(byte))"
            throw error(reason, at: index - 2)
        }
    }

    private mutating func parseHexQuad() throws(JSONParseError) -> UInt16 {
        var value: UInt16 = 0
        for _ in 0..<4 {
            guard index < bytes.count else { throw error("the input ends inside a \\u escape") }
            let byte = bytes[index]
            let digit: UInt8
            switch byte {
            case UInt8(ascii: "0")...UInt8(ascii: "9"): digit = byte - UInt8(ascii: "0")
            case UInt8(ascii: "a")...UInt8(ascii: "f"): digit = byte - UInt8(ascii: "a") + 10
            case UInt8(ascii: "A")...UInt8(ascii: "F"): digit = byte - UInt8(ascii: "A") + 10
            default: throw error("a \\u escape needs four hexadecimal digits")
            }
            value = value << 4 | UInt16(digit)
            index += 1
        }
        return value
    }

    private mutating func parseNumber() throws(JSONParseError) -> JSONNumber {
        let start = index
        try scanNumber()
        let literal = String(decoding: UnsafeBufferPointer(rebasing: bytes[start..<index]), as: UTF8.self)
        return JSONNumber(validatedLiteral: literal)
    }

    /// Moves past a number, checking it against JSON's grammar.
    mutating func scanNumber() throws(JSONParseError) {
        if bytes[index] == UInt8(ascii: "-") { index += 1 }
        guard index < bytes.count, isDigit(bytes[index]) else { throw error("a number needs a digit after '-'") }
        if bytes[index] == UInt8(ascii: "0") {
            index += 1
            if index < bytes.count, isDigit(bytes[index]) { throw error("a number may not have a leading zero") }
        } else {
            skipDigits()
        }
        if index < bytes.count, bytes[index] == UInt8(ascii: ".") {
            index += 1
            guard index < bytes.count, isDigit(bytes[index]) else { throw error("a number needs a digit after '.'") }
            skipDigits()
        }
        if index < bytes.count, bytes[index] == UInt8(ascii: "e") || bytes[index] == UInt8(ascii: "E") {
            index += 1
            if index < bytes.count, bytes[index] == UInt8(ascii: "+") || bytes[index] == UInt8(ascii: "-") { index += 1 }
            guard index < bytes.count, isDigit(bytes[index]) else { throw error("a number needs a digit in its exponent") }
            skipDigits()
        }
    }

    mutating func expectLiteral(_ literal: StaticString) throws(JSONParseError) {
        let expected = UnsafeBufferPointer(start: literal.utf8Start, count: literal.utf8CodeUnitCount)
        guard index + expected.count <= bytes.count else { throw error("expected the literal '\(literal)'") }
        // Byte by byte: a generic comparison of slices costs tens of instructions a byte.
        for offset in 0..<expected.count where bytes[index + offset] != expected[offset] {
            throw error("expected the literal '\(literal)'")
        }
        index += expected.count
    }

    /// Inlined for the usual case of no white space at all, which costs one comparison.
    @inline(__always)
    mutating func skipWhitespace() {
        if index < bytes.count, bytes[index] <= 0x20 { skipWhitespaceRun() }
    }

    private mutating func skipWhitespaceRun() {
        while index < bytes.count {
            switch bytes[index] {
            case 0x20, 0x09, 0x0A, 0x0D: index += 1
            default: return
            }
        }
    }

    private mutating func skipDigits() {
        while index < bytes.count, isDigit(bytes[index]) { index += 1 }
    }

    private func isDigit(_ byte: UInt8) -> Bool {
        byte >= UInt8(ascii: "0") && byte <= UInt8(ascii: "9")
    }

    func describeCurrentByte() -> String {
        guard index < bytes.count else { return "end of input" }
        let byte = bytes[index]
        if isPrintableASCII(byte) { return "'\(Character(Unicode.Scalar(byte)))'" }
        return "byte 0x\(hex(byte))"
    }

    /// Bytes that can be quoted in a message as they are: visible ASCII, no space.
    private func isPrintableASCII(_ byte: UInt8) -> Bool {
        byte >= 0x21 && byte < 0x7F
    }

    private func hex(_ byte: UInt8) -> String {
        let digits = Array("0123456789ABCDEF")
        return String([digits[Int(byte >> 4)], digits[Int(byte & 0xF)]])
    }

    /// An error at the current byte (or `offset`). Its path starts empty: the enclosing objects and arrays put
    /// their parts in front as the error passes them, so reading a valid document keeps no path at all.
    func error(_ reason: String, at offset: Int? = nil, path: String = "") -> JSONParseError {
        JSONParseError(offset: offset ?? index, path: path, reason: reason)
    }
}
