import LosslessJSON

/// Builds random JSON values from a seeded generator: every number form, awkward text, nesting, empty containers.
struct RandomJSON {
    private var generator: SeededGenerator

    init(seed: UInt64) {
        generator = SeededGenerator(seed: seed)
    }

    /// Text pieces chosen to stress escaping and UTF-8: quotes, backslashes, every control character,
    /// DEL, two- three- and four-byte scalars, combining marks, separators, a byte-order mark.
    private static let textPieces: [String] =
        ["a", "Z", "0", " ", "\"", "\\", "/", "\u{7F}", "é", "e\u{301}", "ß", "中", "😀", "\u{2028}", "\u{FEFF}", "\u{10FFFF}"]
        + (0..<0x20).map { String(Character(Unicode.Scalar(UInt8($0)))) }

    mutating func value(depth: Int = 0) -> JSONValue {
        let kinds = depth >= 4 ? 4 : 6
        switch Int.random(in: 0..<kinds, using: &generator) {
        case 0: return .null
        case 1: return .bool(Bool.random(using: &generator))
        case 2: return .number(number())
        case 3: return .string(text())
        case 4:
            let count = Int.random(in: 0...5, using: &generator)
            return .array((0..<count).map { _ in value(depth: depth + 1) })
        default:
            var object = JSONObject()
            for _ in 0..<Int.random(in: 0...5, using: &generator) {
                object[text()] = value(depth: depth + 1)
            }
            return .object(object)
        }
    }

    mutating func text() -> String {
        let count = Int.random(in: 0...8, using: &generator)
        return (0..<count).map { _ in Self.textPieces.randomElement(using: &generator)! }.joined()
    }

    /// A number literal in any form JSON's grammar allows, parsed so the value is built through the public API.
    mutating func number() -> JSONNumber {
        var literal = Bool.random(using: &generator) ? "-" : ""
        if Int.random(in: 0..<4, using: &generator) == 0 {
            literal += "0"
        } else {
            literal += String(Int.random(in: 1...9, using: &generator)) + digits(upTo: 30)
        }
        if Bool.random(using: &generator) {
            literal += "." + String(Int.random(in: 0...9, using: &generator)) + digits(upTo: 10)
        }
        if Bool.random(using: &generator) {
            literal += ["e", "E"].randomElement(using: &generator)! + ["", "+", "-"].randomElement(using: &generator)!
            literal += String(Int.random(in: 0...9, using: &generator)) + digits(upTo: 3)
        }
        guard case .number(let number) = try? JSONValue(parsing: literal) else {
            fatalError("the generator built an invalid number literal: \(literal)")
        }
        return number
    }

    private mutating func digits(upTo maximum: Int) -> String {
        let count = Int.random(in: 0...maximum, using: &generator)
        return String((0..<count).map { _ in Character(String(Int.random(in: 0...9, using: &generator))) })
    }

    mutating func integer(below bound: Int) -> Int {
        Int.random(in: 0..<bound, using: &generator)
    }

    mutating func byte() -> UInt8 {
        UInt8.random(in: 0...255, using: &generator)
    }

    /// A random value written compact or pretty, then damaged one to four times: a byte replaced, inserted or
    /// removed, or the rest cut off.
    mutating func damagedDocument() -> [UInt8] {
        var bytes = value().serialized(integer(below: 2) == 0 ? .compact : .pretty)
        for _ in 0...integer(below: 3) {
            let position = integer(below: bytes.count + 1)
            switch integer(below: 4) {
            case 0 where position < bytes.count: bytes[position] = byte()
            case 1: bytes.insert(byte(), at: position)
            case 2 where position < bytes.count: bytes.remove(at: position)
            default: bytes.removeSubrange(position...)
            }
        }
        return bytes
    }
}
