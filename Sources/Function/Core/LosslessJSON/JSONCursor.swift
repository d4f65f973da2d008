#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// The type of the value a `JSONCursor` is at, told by its first byte.
package enum JSONKind: Sendable {
    case object, array, string, number, boolean, null
}

/// Walks a JSON document front to back without building a tree: a reader takes the values it wants and skips the
/// rest, which are still checked against the grammar `JSONValue(parsing:)` reads with (the same nesting limit, string
/// escapes and UTF-8). A document the cursor walks to its end without an error is one `JSONValue(parsing:)` reads.
///
/// The cursor reads the bytes in place: use it only while the buffer it was made with is valid. Its errors carry the
/// offset and the reason but not the path: `JSONValue(parsing:)` names where the problem is.
///
/// An object is read as `beginObject()`, then `nextMember()` until it returns nil, reading or skipping each member's
/// value in between; an array the same with `beginArray()` and `nextElement()`.
package struct JSONCursor {
    private var parser: JSONParser
    /// True right after `beginObject()` or `beginArray()`: the next member or element is the first one.
    private var atFirst = false

    package init(_ bytes: UnsafeBufferPointer<UInt8>) {
        parser = JSONParser(bytes)
    }

    /// The offset of the next byte to read; after `nextMember()`, the first byte of the member's value.
    package var offset: Int { parser.index }

    /// Skips a leading byte-order mark and white space; throws for an empty document.
    package mutating func beginDocument() throws(JSONParseError) {
        try parser.beginDocument()
    }

    /// Checks that nothing but white space follows the document's value.
    package mutating func endDocument() throws(JSONParseError) {
        try parser.endDocument()
    }

    /// The type of the next value, or nil when the input ends or the next byte starts no value (reading it throws).
    package mutating func nextKind() -> JSONKind? {
        parser.skipWhitespace()
        guard parser.index < parser.bytes.count else { return nil }
        switch parser.bytes[parser.index] {
        case UInt8(ascii: "{"): return .object
        case UInt8(ascii: "["): return .array
        case UInt8(ascii: "\""): return .string
        case UInt8(ascii: "t"), UInt8(ascii: "f"): return .boolean
        case UInt8(ascii: "n"): return .null
        case UInt8(ascii: "-"), UInt8(ascii: "0")...UInt8(ascii: "9"): return .number
        default: return nil
        }
    }

    /// Reads the next value as a tree.
    package mutating func readValue() throws(JSONParseError) -> JSONValue {
        parser.skipWhitespace()
        return try parser.parseValue()
    }

    /// Reads the next value, which `nextKind()` said is a string.
    package mutating func readString() throws(JSONParseError) -> String {
        parser.skipWhitespace()
        return try parser.parseString()
    }

    /// Reads the next value, which `nextKind()` said is a boolean.
    package mutating func readBool() throws(JSONParseError) -> Bool {
        parser.skipWhitespace()
        if parser.bytes[parser.index] == UInt8(ascii: "t") {
            try parser.expectLiteral("true")
            return true
        }
        try parser.expectLiteral("false")
        return false
    }

    /// Moves past the next value, checking it.
    package mutating func skipValue() throws(JSONParseError) {
        parser.skipWhitespace()
        try parser.skipValue()
    }

    /// Enters the next value, which `nextKind()` said is an object.
    package mutating func beginObject() throws(JSONParseError) {
        parser.skipWhitespace()
        try parser.enterContainer()
        atFirst = true
    }

    /// The next member's name, with the cursor at its value; nil at the end of the object, which the cursor leaves.
    package mutating func nextMember() throws(JSONParseError) -> JSONString? {
        guard try nextItem(closedBy: UInt8(ascii: "}"), in: "an object") else { return nil }
        parser.skipWhitespace()
        guard parser.index < parser.bytes.count, parser.bytes[parser.index] == UInt8(ascii: "\"") else {
            throw parser.error("expected a member name in quotes, found \(parser.describeCurrentByte())")
        }
        let key = try readInPlace()
        parser.skipWhitespace()
        guard parser.index < parser.bytes.count, parser.bytes[parser.index] == UInt8(ascii: ":") else {
            throw parser.error("expected ':' after member name \"\(key.string)\", found \(parser.describeCurrentByte())")
        }
        parser.index += 1
        parser.skipWhitespace()
        return key
    }

    /// Enters the next value, which `nextKind()` said is an array.
    package mutating func beginArray() throws(JSONParseError) {
        parser.skipWhitespace()
        try parser.enterContainer()
        atFirst = true
    }

    /// True with the cursor at the next element; false at the end of the array, which the cursor leaves.
    package mutating func nextElement() throws(JSONParseError) -> Bool {
        try nextItem(closedBy: UInt8(ascii: "]"), in: "an array")
    }

    /// Moves past the ',' before the next member or element and returns true, or past the closing byte and returns
    /// false.
    @inline(__always)
    private mutating func nextItem(closedBy close: UInt8, in container: String) throws(JSONParseError) -> Bool {
        parser.skipWhitespace()
        guard parser.index < parser.bytes.count else { throw parser.error("the input ends inside \(container)") }
        let byte = parser.bytes[parser.index]
        if byte == close {
            // An empty container, or the end of one after its last item.
            parser.index += 1
            parser.depth -= 1
            atFirst = false
            return false
        }
        if atFirst {
            atFirst = false
            return true
        }
        guard byte == UInt8(ascii: ",") else {
            let closing = Character(Unicode.Scalar(close))
            throw parser.error("expected ',' or '\(closing)' in \(container), found \(parser.describeCurrentByte())")
        }
        parser.index += 1
        return true
    }

    /// Reads the next value, which `nextKind()` said is a string, in place when it can (see `JSONString`).
    package mutating func readStringInPlace() throws(JSONParseError) -> JSONString {
        parser.skipWhitespace()
        return try readInPlace()
    }

    /// The string at the cursor: in place when it is ASCII without escapes (as event keys are), decoded otherwise.
    @inline(__always)
    private mutating func readInPlace() throws(JSONParseError) -> JSONString {
        let start = parser.index + 1
        let end = parser.bytes.plainRunEnd(from: start)
        if end < parser.bytes.count, parser.bytes[end] == UInt8(ascii: "\"") {
            parser.index = end + 1
            return .inPlace(UnsafeBufferPointer(rebasing: parser.bytes[start..<end]))
        }
        return .decoded(try parser.parseString())
    }
}

/// A member name or a string read by a `JSONCursor`, without making a `String` of it when it is ASCII without
/// escapes; valid while the cursor's buffer is.
package enum JSONString {
    /// The string's UTF-8 in the document: ASCII without escapes.
    case inPlace(UnsafeBufferPointer<UInt8>)
    /// A string with escapes or other than ASCII, decoded.
    case decoded(String)

    /// The string as a `String`.
    package var string: String {
        switch self {
        case .inPlace(let utf8): JSONParser.asciiString(utf8)
        case .decoded(let string): string
        }
    }

    /// True when the string is `name`, scalar for scalar (as `JSONObject` tells keys apart).
    package func matches(_ name: StaticString) -> Bool {
        let expected = UnsafeBufferPointer(start: name.utf8Start, count: name.utf8CodeUnitCount)
        switch self {
        case .inPlace(let utf8):
            return utf8.count == expected.count && memcmp(utf8.baseAddress!, expected.baseAddress!, expected.count) == 0
        case .decoded(var string):
            return string.withUTF8 { $0.elementsEqual(expected) }
        }
    }

    /// True when the string is `name`, scalar for scalar.
    package func matches(_ name: String) -> Bool {
        switch self {
        case .inPlace(let utf8):
            utf8.count == name.utf8.count
                && name.utf8.withContiguousStorageIfAvailable { name in
                    name.isEmpty || memcmp(utf8.baseAddress!, name.baseAddress!, name.count) == 0
                } ?? name.utf8.elementsEqual(utf8)
        case .decoded(let string): string.hasSameUTF8(as: name)
        }
    }

    /// The string's length in UTF-8 bytes and its first byte (0 when it is empty): enough to pick the one name of a
    /// few that the string may be, for `matches(_:)` to check, without comparing it with each of them.
    package var lengthAndFirstByte: (length: Int, first: UInt8) {
        switch self {
        case .inPlace(let utf8): (utf8.count, utf8.first ?? 0)
        case .decoded(let string): (string.utf8.count, string.utf8.first ?? 0)
        }
    }

    /// The position of the first of `names` that this string matches.
    package func position(in names: [StaticString]) -> Int? {
        for (position, name) in names.enumerated() where matches(name) { return position }
        return nil
    }
}

extension JSONParser {
    /// Moves past one value, checking it as `parseValue()` does without building it.
    mutating func skipValue() throws(JSONParseError) {
        guard index < bytes.count else { throw error("the input ends where a value was expected") }
        switch bytes[index] {
        case UInt8(ascii: "{"): try skipContainer(closedBy: UInt8(ascii: "}"), keyed: true)
        case UInt8(ascii: "["): try skipContainer(closedBy: UInt8(ascii: "]"), keyed: false)
        case UInt8(ascii: "\""): try skipString()
        case UInt8(ascii: "t"): try expectLiteral("true")
        case UInt8(ascii: "f"): try expectLiteral("false")
        case UInt8(ascii: "n"): try expectLiteral("null")
        case UInt8(ascii: "-"), UInt8(ascii: "0")...UInt8(ascii: "9"): try scanNumber()
        default: throw error("unexpected \(describeCurrentByte()) where a value was expected")
        }
    }

    /// Moves past the '{' or '[' the index is at, one level deeper, within the nesting limit.
    mutating func enterContainer() throws(JSONParseError) {
        guard depth < Self.maximumDepth else { throw error("nesting is deeper than \(Self.maximumDepth) levels") }
        depth += 1
        index += 1
    }

    /// Moves past an object (`keyed`) or an array, checking what it holds.
    private mutating func skipContainer(closedBy close: UInt8, keyed: Bool) throws(JSONParseError) {
        try enterContainer()
        defer { depth -= 1 }
        skipWhitespace()
        if index < bytes.count, bytes[index] == close {
            index += 1
            return
        }
        let container = keyed ? "an object" : "an array"
        while true {
            skipWhitespace()
            if keyed {
                guard index < bytes.count, bytes[index] == UInt8(ascii: "\"") else {
                    throw error("expected a member name in quotes, found \(describeCurrentByte())")
                }
                try skipString()
                skipWhitespace()
                guard index < bytes.count, bytes[index] == UInt8(ascii: ":") else {
                    throw error("expected ':' after a member name, found \(describeCurrentByte())")
                }
                index += 1
                skipWhitespace()
            }
            try skipValue()
            skipWhitespace()
            guard index < bytes.count else { throw error("the input ends inside \(container)") }
            switch bytes[index] {
            case UInt8(ascii: ","): index += 1
            case close: index += 1; return
            default:
                let closing = Character(Unicode.Scalar(close))
                throw error("expected ',' or '\(closing)' in \(container), found \(describeCurrentByte())")
            }
        }
    }

    /// Moves past a string: ASCII without escapes is only scanned; anything else is read as `parseString()` reads it,
    /// which checks its escapes and UTF-8.
    private mutating func skipString() throws(JSONParseError) {
        let end = bytes.plainRunEnd(from: index + 1)
        if end < bytes.count, bytes[end] == UInt8(ascii: "\"") {
            index = end + 1
            return
        }
        _ = try parseString()
    }
}
