@testable import WebAuthn

/// A CBOR encoder for building test inputs (definite lengths, in the order given), so the tests can write any item
/// the decoder must read or refuse.
extension CBORValue {
    var encoded: [UInt8] {
        switch self {
        case .unsigned(let n): Self.head(0, n)
        case .negative(let n): Self.head(1, n)
        case .bytes(let bytes): Self.head(2, UInt64(bytes.count)) + bytes
        case .text(let text): Self.head(3, UInt64(text.utf8.count)) + Array(text.utf8)
        case .array(let elements): Self.head(4, UInt64(elements.count)) + elements.flatMap(\.encoded)
        case .map(let entries):
            Self.head(5, UInt64(entries.count)) + entries.flatMap { $0.key.value.encoded + $0.value.encoded }
        case .bool(let flag): [flag ? 0xf5 : 0xf4]
        case .null: [0xf6]
        }
    }

    /// An integer item.
    static func int(_ value: Int) -> CBORValue {
        value >= 0 ? .unsigned(UInt64(value)) : .negative(UInt64(-1 - value))
    }

    /// A map from key-value pairs.
    static func entries(_ pairs: [(CBORMapKey, CBORValue)]) -> CBORValue {
        .map(pairs.map { CBORMapEntry(key: $0.0, value: $0.1) })
    }

    /// The shortest head of major type `major` with argument `argument`.
    static func head(_ major: UInt8, _ argument: UInt64) -> [UInt8] {
        let type = major << 5
        switch argument {
        case 0..<24: return [type | UInt8(argument)]
        case 24...0xff: return [type | 24, UInt8(argument)]
        case 0x100...0xffff: return [type | 25] + bigEndian(argument, count: 2)
        case 0x1_0000...0xffff_ffff: return [type | 26] + bigEndian(argument, count: 4)
        default: return [type | 27] + bigEndian(argument, count: 8)
        }
    }

    static func bigEndian(_ value: UInt64, count: Int) -> [UInt8] {
        (0..<count).reversed().map { UInt8(truncatingIfNeeded: value >> (8 * $0)) }
    }
}

extension CBORMapKey {
    var value: CBORValue {
        switch self {
        case .int(let number): .int(number)
        case .text(let text): .text(text)
        }
    }
}
