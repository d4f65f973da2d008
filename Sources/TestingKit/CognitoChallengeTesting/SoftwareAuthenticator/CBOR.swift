/// A CBOR data item (RFC 8949) of the kinds WebAuthn's attestation objects and COSE keys use.
public indirect enum CBOR: Sendable, Equatable {
    /// An integer: major type 0 when non-negative, 1 when negative.
    case integer(Int64)
    /// A byte string (major type 2).
    case bytes([UInt8])
    /// A UTF-8 text string (major type 3).
    case text(String)
    /// An array (major type 4).
    case array([CBOR])
    /// A map (major type 5); ``encoded()`` writes its pairs in canonical key order, whatever the order here.
    case map([(key: CBOR, value: CBOR)])
    /// `false` or `true` (simple values 20 and 21).
    case bool(Bool)
    /// `null` (simple value 22).
    case null

    /// Equal when the canonical encodings are: map pairs in any order, as CBOR itself sees it.
    public static func == (lhs: CBOR, rhs: CBOR) -> Bool {
        lhs.encoded() == rhs.encoded()
    }

    /// The deterministic encoding of RFC 8949 §4.2.1: every length and integer in its shortest form, definite
    /// lengths only, and map pairs sorted by the bytes of their encoded keys. For the keys WebAuthn uses (small
    /// integers, short text) this is also CTAP2's canonical order (shorter key first).
    public func encoded() -> [UInt8] {
        var output: [UInt8] = []
        write(to: &output)
        return output
    }

    private func write(to output: inout [UInt8]) {
        switch self {
        case .integer(let value):
            if value >= 0 {
                Self.writeHead(major: 0, argument: UInt64(value), to: &output)
            } else {
                // -1 - n without overflow for Int64.min: ~value is -1 - value in two's complement.
                Self.writeHead(major: 1, argument: UInt64(bitPattern: ~value), to: &output)
            }
        case .bytes(let bytes):
            Self.writeHead(major: 2, argument: UInt64(bytes.count), to: &output)
            output.append(contentsOf: bytes)
        case .text(let text):
            let utf8 = Array(text.utf8)
            Self.writeHead(major: 3, argument: UInt64(utf8.count), to: &output)
            output.append(contentsOf: utf8)
        case .array(let elements):
            Self.writeHead(major: 4, argument: UInt64(elements.count), to: &output)
            for element in elements { element.write(to: &output) }
        case .map(let pairs):
            Self.writeHead(major: 5, argument: UInt64(pairs.count), to: &output)
            let encodedPairs = pairs.map { (key: $0.key.encoded(), value: $0.value.encoded()) }
            for pair in encodedPairs.sorted(by: { $0.key.lexicographicallyPrecedes($1.key) }) {
                output.append(contentsOf: pair.key)
                output.append(contentsOf: pair.value)
            }
        case .bool(let value):
            output.append(value ? 0xF5 : 0xF4)
        case .null:
            output.append(0xF6)
        }
    }

    /// The initial byte and the argument in its shortest form (§3: 0–23 in the byte itself, then 1, 2, 4 or 8
    /// bytes).
    private static func writeHead(major: UInt8, argument: UInt64, to output: inout [UInt8]) {
        let type = major << 5
        switch argument {
        case 0..<24:
            output.append(type | UInt8(argument))
        case 24...0xFF:
            output.append(type | 24)
            output.append(UInt8(argument))
        case 0x100...0xFFFF:
            output.append(type | 25)
            appendBigEndian(argument, byteCount: 2, to: &output)
        case 0x1_0000...0xFFFF_FFFF:
            output.append(type | 26)
            appendBigEndian(argument, byteCount: 4, to: &output)
        default:
            output.append(type | 27)
            appendBigEndian(argument, byteCount: 8, to: &output)
        }
    }

    private static func appendBigEndian(_ value: UInt64, byteCount: Int, to output: inout [UInt8]) {
        for index in stride(from: byteCount - 1, through: 0, by: -1) {
            output.append(UInt8(truncatingIfNeeded: value >> (8 * UInt64(index))))
        }
    }
}

extension CBOR: ExpressibleByIntegerLiteral, ExpressibleByStringLiteral, ExpressibleByBooleanLiteral,
    ExpressibleByArrayLiteral
{
    public init(integerLiteral value: Int64) { self = .integer(value) }
    public init(stringLiteral value: String) { self = .text(value) }
    public init(booleanLiteral value: Bool) { self = .bool(value) }
    public init(arrayLiteral elements: CBOR...) { self = .array(elements) }
}
