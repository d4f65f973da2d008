extension CBOR {
    /// Reads one data item that fills `bytes` exactly, of the kinds ``CBOR`` has (definite lengths only; no tags,
    /// floats or other simple values): for tests that take an attestation object apart and put it back together.
    /// Nil when the bytes are not such an item.
    public init?(decoding bytes: [UInt8]) {
        var offset = 0
        guard let item = Self.read(bytes, at: &offset, depth: 0), offset == bytes.count else { return nil }
        self = item
    }

    /// The value under `key` when this is a map.
    public subscript(key: CBOR) -> CBOR? {
        guard case .map(let pairs) = self else { return nil }
        return pairs.first { $0.key == key }?.value
    }

    /// This map with the value under `key` replaced, or added when absent; nil when this is not a map.
    public func replacing(_ key: CBOR, with value: CBOR) -> CBOR? {
        guard case .map(var pairs) = self else { return nil }
        if let index = pairs.firstIndex(where: { $0.key == key }) {
            pairs[index].value = value
        } else {
            pairs.append((key, value))
        }
        return .map(pairs)
    }

    private static func read(_ bytes: [UInt8], at offset: inout Int, depth: Int) -> CBOR? {
        guard depth < 16, offset < bytes.count else { return nil }
        let initial = bytes[offset]
        offset += 1
        let major = initial >> 5
        let additional = initial & 0x1F
        if major == 7 {
            switch additional {
            case 20: return .bool(false)
            case 21: return .bool(true)
            case 22: return .null
            default: return nil
            }
        }
        let argument: UInt64
        switch additional {
        case 0..<24:
            argument = UInt64(additional)
        case 24...27:
            let width = 1 << Int(additional - 24)
            guard bytes.count - offset >= width else { return nil }
            argument = bytes[offset..<offset + width].reduce(0) { $0 << 8 | UInt64($1) }
            offset += width
        default:
            return nil
        }
        switch major {
        case 0:
            guard let value = Int64(exactly: argument) else { return nil }
            return .integer(value)
        case 1:
            guard let value = Int64(exactly: argument) else { return nil }
            return .integer(-1 - value)
        case 2, 3:
            guard argument <= UInt64(bytes.count - offset) else { return nil }
            let content = Array(bytes[offset..<offset + Int(argument)])
            offset += Int(argument)
            if major == 2 { return .bytes(content) }
            guard let text = String(validating: content, as: UTF8.self) else { return nil }
            return .text(text)
        case 4:
            guard argument <= UInt64(bytes.count - offset) else { return nil }
            var elements: [CBOR] = []
            for _ in 0..<argument {
                guard let element = read(bytes, at: &offset, depth: depth + 1) else { return nil }
                elements.append(element)
            }
            return .array(elements)
        case 5:
            guard argument <= UInt64(bytes.count - offset) / 2 else { return nil }
            var pairs: [(key: CBOR, value: CBOR)] = []
            for _ in 0..<argument {
                guard let key = read(bytes, at: &offset, depth: depth + 1),
                    let value = read(bytes, at: &offset, depth: depth + 1)
                else { return nil }
                pairs.append((key, value))
            }
            return .map(pairs)
        default:
            return nil
        }
    }
}
