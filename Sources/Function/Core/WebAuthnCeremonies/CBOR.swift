/// A CBOR data item (RFC 8949) of the kinds WebAuthn sends: integers, byte and text strings, arrays, maps keyed by
/// integers or text, and the simple values false, true and null.
enum CBORValue: Sendable, Equatable {
    /// Major type 0.
    case unsigned(UInt64)
    /// Major type 1: the value is -1 - `n`.
    case negative(UInt64)
    case bytes([UInt8])
    case text(String)
    case array([CBORValue])
    /// Members in the order they were read; keys are unique.
    case map([CBORMapEntry])
    case bool(Bool)
    case null

    /// The integer, when this is one that fits `Int`.
    var intValue: Int? {
        switch self {
        case .unsigned(let n): n <= UInt64(Int.max) ? Int(n) : nil
        case .negative(let n): n <= UInt64(Int.max) ? -1 - Int(n) : nil
        default: nil
        }
    }

    var bytesValue: [UInt8]? {
        if case .bytes(let bytes) = self { return bytes }
        return nil
    }

    var textValue: String? {
        if case .text(let text) = self { return text }
        return nil
    }

    var mapValue: [CBORMapEntry]? {
        if case .map(let entries) = self { return entries }
        return nil
    }

    /// The member with integer key `key`, when this is a map that has one.
    subscript(key: Int) -> CBORValue? {
        mapValue?.first { $0.key == .int(key) }?.value
    }

    /// The member with text key `key`, when this is a map that has one.
    subscript(key: String) -> CBORValue? {
        mapValue?.first { $0.key == .text(key) }?.value
    }
}

/// A map key: WebAuthn's maps (COSE keys, attestation objects and statements) use integers and text only.
enum CBORMapKey: Sendable, Hashable {
    case int(Int)
    case text(String)
}

/// One member of a CBOR map.
struct CBORMapEntry: Sendable, Equatable {
    var key: CBORMapKey
    var value: CBORValue
}

/// Why bytes are not a CBOR item this decoder accepts.
enum CBORError: Error, Sendable, Equatable, CustomStringConvertible {
    /// The input ends inside an item.
    case truncated(offset: Int)
    /// Bytes follow the item where none may.
    case trailingBytes(offset: Int)
    /// A major type or simple value WebAuthn does not use (tags, floats, other simple values).
    case unsupported(String, offset: Int)
    /// An indefinite-length string, array or map.
    case indefiniteLength(offset: Int)
    /// Additional information 28–30 (reserved) or a break (0xff) outside an indefinite item.
    case reserved(offset: Int)
    /// Arrays and maps nested deeper than `CBORDecoder.maximumDepth`.
    case tooDeep(offset: Int)
    /// More than `CBORDecoder.maximumInputSize` bytes.
    case inputTooLarge(Int)
    /// An array or map of more than `CBORDecoder.maximumItems` members.
    case tooManyItems(Int, offset: Int)
    /// A text string that is not UTF-8.
    case invalidUTF8(offset: Int)
    /// A map key that is neither an integer (fitting `Int`) nor text.
    case unsupportedMapKey(offset: Int)
    /// A map key given twice.
    case duplicateMapKey(offset: Int)

    var description: String {
        switch self {
        case .truncated(let offset): "CBOR ends inside an item (byte \(offset))"
        case .trailingBytes(let offset): "bytes follow the CBOR item (byte \(offset))"
        case .unsupported(let what, let offset): "CBOR \(what) is not supported (byte \(offset))"
        case .indefiniteLength(let offset): "indefinite-length CBOR items are not supported (byte \(offset))"
        case .reserved(let offset): "reserved CBOR additional information (byte \(offset))"
        case .tooDeep(let offset): "CBOR nested deeper than \(CBORDecoder.maximumDepth) levels (byte \(offset))"
        case .inputTooLarge(let size): "CBOR input of \(size) bytes is over \(CBORDecoder.maximumInputSize)"
        case .tooManyItems(let count, let offset):
            "CBOR array or map of \(count) items is over \(CBORDecoder.maximumItems) (byte \(offset))"
        case .invalidUTF8(let offset): "CBOR text string is not UTF-8 (byte \(offset))"
        case .unsupportedMapKey(let offset): "CBOR map key is neither an integer nor text (byte \(offset))"
        case .duplicateMapKey(let offset): "CBOR map key given twice (byte \(offset))"
        }
    }
}

/// Decodes definite-length CBOR within fixed limits, so that untrusted input costs bounded time and memory.
struct CBORDecoder {
    /// The deepest nesting of arrays and maps accepted (a top-level array or map is depth 1).
    static let maximumDepth = 8
    /// The largest input accepted, in bytes.
    static let maximumInputSize = 64 * 1024
    /// The most members one array or map may have.
    static let maximumItems = 256

    private let bytes: [UInt8]
    private var offset: Int

    private init(_ bytes: [UInt8], offset: Int) {
        self.bytes = bytes
        self.offset = offset
    }

    /// Decodes `bytes` as exactly one item.
    static func decode(_ bytes: [UInt8]) throws(CBORError) -> CBORValue {
        let (value, length) = try decodePrefix(bytes, from: 0)
        guard length == bytes.count else { throw .trailingBytes(offset: length) }
        return value
    }

    /// Decodes the one item that starts at `start`, and tells how many bytes it used; what follows is the caller's.
    static func decodePrefix(_ bytes: [UInt8], from start: Int) throws(CBORError) -> (value: CBORValue, length: Int) {
        guard bytes.count <= maximumInputSize else { throw .inputTooLarge(bytes.count) }
        var decoder = CBORDecoder(bytes, offset: start)
        let value = try decoder.item(depth: 0)
        return (value, decoder.offset - start)
    }

    private mutating func byte() throws(CBORError) -> UInt8 {
        guard offset < bytes.count else { throw .truncated(offset: offset) }
        defer { offset += 1 }
        return bytes[offset]
    }

    /// The argument of a head whose additional information is `info`.
    private mutating func argument(_ info: UInt8, at start: Int) throws(CBORError) -> UInt64 {
        switch info {
        case 0..<24: return UInt64(info)
        case 24...27:
            let count = 1 << Int(info - 24)
            var value: UInt64 = 0
            for _ in 0..<count { value = value << 8 | UInt64(try byte()) }
            return value
        case 31: throw .indefiniteLength(offset: start)
        default: throw .reserved(offset: start)
        }
    }

    /// A length that must fit in the bytes left (strings) or under the item limit (arrays, maps).
    private func length(_ argument: UInt64, at start: Int) throws(CBORError) -> Int {
        guard argument <= UInt64(bytes.count - offset) else { throw .truncated(offset: start) }
        return Int(argument)
    }

    private func count(_ argument: UInt64, at start: Int) throws(CBORError) -> Int {
        guard argument <= UInt64(Self.maximumItems) else {
            throw .tooManyItems(argument > UInt64(Int.max) ? Int.max : Int(argument), offset: start)
        }
        return Int(argument)
    }

    private mutating func item(depth: Int) throws(CBORError) -> CBORValue {
        let start = offset
        let head = try byte()
        let major = head >> 5
        let info = head & 0x1f
        if major == 7 {
            switch info {
            case 20: return .bool(false)
            case 21: return .bool(true)
            case 22: return .null
            case 25, 26, 27: throw .unsupported("floating-point number", offset: start)
            case 28, 29, 30: throw .reserved(offset: start)
            case 31: throw .reserved(offset: start)
            default: throw .unsupported("simple value", offset: start)
            }
        }
        let argument = try argument(info, at: start)
        switch major {
        case 0: return .unsigned(argument)
        case 1: return .negative(argument)
        case 2, 3:
            let length = try length(argument, at: start)
            let content = Array(bytes[offset..<offset + length])
            offset += length
            if major == 2 { return .bytes(content) }
            guard let text = String(validating: content, as: UTF8.self) else { throw .invalidUTF8(offset: start) }
            return .text(text)
        case 4:
            let count = try count(argument, at: start)
            guard depth < Self.maximumDepth else { throw .tooDeep(offset: start) }
            var elements: [CBORValue] = []
            elements.reserveCapacity(count)
            for _ in 0..<count { elements.append(try item(depth: depth + 1)) }
            return .array(elements)
        case 5:
            let count = try count(argument, at: start)
            guard depth < Self.maximumDepth else { throw .tooDeep(offset: start) }
            var entries: [CBORMapEntry] = []
            entries.reserveCapacity(count)
            var seen: Set<CBORMapKey> = []
            for _ in 0..<count {
                let keyOffset = offset
                let key: CBORMapKey
                switch try item(depth: depth + 1) {
                case .text(let text): key = .text(text)
                case let value:
                    guard let number = value.intValue else { throw .unsupportedMapKey(offset: keyOffset) }
                    key = .int(number)
                }
                guard seen.insert(key).inserted else { throw .duplicateMapKey(offset: keyOffset) }
                entries.append(CBORMapEntry(key: key, value: try item(depth: depth + 1)))
            }
            return .map(entries)
        default:
            throw .unsupported("tag", offset: start)
        }
    }
}
