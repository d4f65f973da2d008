import LosslessJSON

/// Reads typed fields from a JSON object, naming the full path of whatever is missing or mistyped.
///
/// The path is kept as its parts and written out only for an error message: a reader for a nested object costs no
/// string building on the way to a valid event.
struct FieldReader {
    let object: JSONObject
    private let location: Location

    /// A path written out beforehand, then possibly a member of it and an element of that member.
    private struct Location {
        var base: String
        var key: String? = nil
        var index: Int? = nil

        var text: String {
            var text = base
            if let key { text += "." + key }
            if let index { text += "[\(index)]" }
            return text
        }
    }

    init(_ value: JSONValue, path: String) throws(EventDecodingError) {
        try self.init(value, location: Location(base: path))
    }

    init(object: JSONObject, path: String) {
        self.object = object
        location = Location(base: path)
    }

    private init(_ value: JSONValue, location: Location) throws(EventDecodingError) {
        guard case .object(let object) = value else {
            throw .wrongType(path: location.text, expected: "an object", found: value.typeName)
        }
        self.object = object
        self.location = location
    }

    var path: String { location.text }

    func fieldPath(_ key: String) -> String { "\(path).\(key)" }

    /// A reader for element `index` of the array member `key`, an object.
    func elementReader(_ element: JSONValue, of key: String, at index: Int) throws(EventDecodingError) -> FieldReader {
        try FieldReader(element, location: member(key, index: index))
    }

    /// The location of a member (and an element of it): this one's, one level down, written out only if this
    /// location is itself a member.
    private func member(_ key: String, index: Int? = nil) -> Location {
        let base = location.key == nil && location.index == nil ? location.base : location.text
        return Location(base: base, key: key, index: index)
    }

    /// The value, treating an explicit `null` like an absent key.
    func value(_ key: String) -> JSONValue? {
        guard let value = object[key], !value.isNull else { return nil }
        return value
    }

    func string(_ key: String) throws(EventDecodingError) -> String {
        guard let value = try optionalString(key) else { throw .missingField(path: fieldPath(key)) }
        return value
    }

    func optionalString(_ key: String) throws(EventDecodingError) -> String? {
        guard let value = value(key) else { return nil }
        guard case .string(let string) = value else { throw mistyped(key, value, expected: "a string") }
        return string
    }

    func optionalBool(_ key: String) throws(EventDecodingError) -> Bool? {
        guard let value = value(key) else { return nil }
        guard case .bool(let bool) = value else { throw mistyped(key, value, expected: "a boolean") }
        return bool
    }

    func reader(_ key: String) throws(EventDecodingError) -> FieldReader {
        guard let reader = try optionalReader(key) else { throw .missingField(path: fieldPath(key)) }
        return reader
    }

    /// A reader for a nested object; an absent or null object reads as empty.
    func optionalReader(_ key: String) throws(EventDecodingError) -> FieldReader? {
        guard let value = value(key) else { return nil }
        return try FieldReader(value, location: member(key))
    }

    /// A map of strings, such as `userAttributes` or `clientMetadata`.
    func optionalStringMap(_ key: String) throws(EventDecodingError) -> [String: String]? {
        guard let reader = try optionalReader(key) else { return nil }
        var map: [String: String] = [:]
        map.reserveCapacity(reader.object.count)
        for (name, value) in reader.object {
            switch value {
            case .string(let string): map[name] = string
            case .null: continue
            default: throw reader.mistyped(name, value, expected: "a string")
            }
        }
        return map
    }

    func optionalArray(_ key: String) throws(EventDecodingError) -> [JSONValue]? {
        guard let value = value(key) else { return nil }
        guard case .array(let elements) = value else { throw mistyped(key, value, expected: "an array") }
        return elements
    }

    private func mistyped(_ key: String, _ value: JSONValue, expected: String) -> EventDecodingError {
        .wrongType(path: fieldPath(key), expected: expected, found: value.typeName)
    }
}
