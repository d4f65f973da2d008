import LosslessJSON

/// Reads typed fields from a JSON object, naming the full path of whatever is missing or mistyped.
struct FieldReader {
    let object: JSONObject
    let path: String

    init(_ value: JSONValue, path: String) throws(EventDecodingError) {
        guard case .object(let object) = value else {
            throw .wrongType(path: path, expected: "an object", found: value.typeName)
        }
        self.object = object
        self.path = path
    }

    init(object: JSONObject, path: String) {
        self.object = object
        self.path = path
    }

    func fieldPath(_ key: String) -> String { "\(path).\(key)" }

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
        return try FieldReader(value, path: fieldPath(key))
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
