#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// A JSON value that remembers everything needed to write its input back unchanged:
/// object key order, and each number's literal text.
public enum JSONValue: Sendable, Equatable {
    case null
    case bool(Bool)
    case number(JSONNumber)
    case string(String)
    case array([JSONValue])
    case object(JSONObject)

    /// The string, if this is a string.
    public var stringValue: String? {
        if case .string(let value) = self { return value }
        return nil
    }

    /// The boolean, if this is a boolean.
    public var boolValue: Bool? {
        if case .bool(let value) = self { return value }
        return nil
    }

    /// The object, if this is an object.
    public var objectValue: JSONObject? {
        if case .object(let value) = self { return value }
        return nil
    }

    /// The elements, if this is an array.
    public var arrayValue: [JSONValue]? {
        if case .array(let value) = self { return value }
        return nil
    }

    /// True for `null`.
    public var isNull: Bool {
        if case .null = self { return true }
        return false
    }

    /// The JSON type's name, for error messages.
    public var typeName: String {
        switch self {
        case .null: "null"
        case .bool: "boolean"
        case .number: "number"
        case .string: "string"
        case .array: "array"
        case .object: "object"
        }
    }
}

extension JSONValue {
    /// Values are equal when they would be written as the same JSON, up to the order of object members:
    /// strings compare scalar by scalar (not by Swift's canonical equivalence) and numbers by their literals.
    public static func == (lhs: JSONValue, rhs: JSONValue) -> Bool {
        switch (lhs, rhs) {
        case (.null, .null): true
        case (.bool(let left), .bool(let right)): left == right
        case (.number(let left), .number(let right)): left == right
        case (.string(let left), .string(let right)): left.hasSameUTF8(as: right)
        case (.array(let left), .array(let right)): left == right
        case (.object(let left), .object(let right)): left == right
        default: false
        }
    }
}

extension String {
    /// True when both strings hold the same Unicode scalars, which `==` does not check: it compares
    /// canonical equivalents (`"é"` and `"e\u{301}"`) as equal.
    @inline(__always)
    package func hasSameUTF8(as other: String) -> Bool {
        guard utf8.count == other.utf8.count else { return false }
        // Native and small strings are read in place, without a copy of either string; only a bridged one is not.
        let compared = utf8.withContiguousStorageIfAvailable { left in
            other.utf8.withContiguousStorageIfAvailable { right in
                left.isEmpty || memcmp(left.baseAddress!, right.baseAddress!, left.count) == 0
            }
        }
        return (compared ?? nil) ?? utf8.elementsEqual(other.utf8)
    }
}

/// A JSON number kept as its literal text, so that `1.0` and `1e3` are written back as they came.
public struct JSONNumber: Sendable, Equatable, CustomStringConvertible {
    /// The number as it appears in JSON text.
    public let literal: String

    /// A number from a literal that has already been validated against JSON's grammar.
    init(validatedLiteral literal: String) {
        self.literal = literal
    }

    public init(_ value: Int) {
        literal = String(value)
    }

    /// The value as an integer, if the literal is one that fits.
    public var intValue: Int? { Int(literal) }

    /// The value as a double.
    public var doubleValue: Double? { Double(literal) }

    public var description: String { literal }
}

extension JSONValue: ExpressibleByStringLiteral, ExpressibleByBooleanLiteral, ExpressibleByIntegerLiteral,
    ExpressibleByNilLiteral, ExpressibleByArrayLiteral, ExpressibleByDictionaryLiteral
{
    public init(stringLiteral value: String) { self = .string(value) }
    public init(booleanLiteral value: Bool) { self = .bool(value) }
    public init(integerLiteral value: Int) { self = .number(JSONNumber(value)) }
    public init(nilLiteral: ()) { self = .null }
    public init(arrayLiteral elements: JSONValue...) { self = .array(elements) }
    public init(dictionaryLiteral elements: (String, JSONValue)...) {
        self = .object(JSONObject(elements))
    }
}
