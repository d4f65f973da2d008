import ChallengeCrypto
import LosslessJSON

/// One JSON object of a response, read with errors that name the member (`response.clientDataJSON`, …).
struct JSONFields {
    let object: JSONObject
    /// The object's path in the document, for messages ("clientDataJSON", "response").
    let path: String

    /// Parses `bytes` as a JSON object.
    init(_ bytes: [UInt8], what path: String) throws(WebAuthnError) {
        let value: JSONValue
        do {
            value = try JSONValue(parsing: bytes)
        } catch {
            throw .malformed("\(path): \(error)")
        }
        try self.init(value, path: path)
    }

    init(_ value: JSONValue, path: String) throws(WebAuthnError) {
        guard let object = value.objectValue else { throw .malformed("\(path) is not a JSON object") }
        self.object = object
        self.path = path
    }

    private func name(_ key: String) -> String { "\(path).\(key)" }

    func string(_ key: String) throws(WebAuthnError) -> String {
        guard let value = try optionalString(key) else { throw .malformed("\(name(key)) is missing") }
        return value
    }

    /// A member that may be absent or null.
    func optionalString(_ key: String) throws(WebAuthnError) -> String? {
        guard let value = object[key], !value.isNull else { return nil }
        guard let text = value.stringValue else { throw .malformed("\(name(key)) is not a string") }
        return text
    }

    func optionalBool(_ key: String) throws(WebAuthnError) -> Bool? {
        guard let value = object[key], !value.isNull else { return nil }
        guard let flag = value.boolValue else { throw .malformed("\(name(key)) is not a boolean") }
        return flag
    }

    /// A base64url member (no padding), decoded.
    func bytes(_ key: String) throws(WebAuthnError) -> [UInt8] {
        guard let value = try optionalBytes(key) else { throw .malformed("\(name(key)) is missing") }
        return value
    }

    func optionalBytes(_ key: String) throws(WebAuthnError) -> [UInt8]? {
        guard let text = try optionalString(key) else { return nil }
        guard let bytes = Base64URL.decode(text) else { throw .malformed("\(name(key)) is not base64url") }
        return bytes
    }

    func object(_ key: String) throws(WebAuthnError) -> JSONFields {
        guard let value = object[key] else { throw .malformed("\(name(key)) is missing") }
        return try JSONFields(value, path: name(key))
    }

    /// An integer member within `range`.
    func integer(_ key: String, in range: ClosedRange<Int64>) throws(WebAuthnError) -> Int64 {
        guard let value = try optionalInteger(key, in: range) else { throw .malformed("\(name(key)) is missing") }
        return value
    }

    func optionalInteger(_ key: String, in range: ClosedRange<Int64>) throws(WebAuthnError) -> Int64? {
        guard let value = object[key], !value.isNull else { return nil }
        guard case .number(let number) = value, let integer = Int64(number.literal), range.contains(integer) else {
            throw .malformed("\(name(key)) is not an integer in \(range.lowerBound)...\(range.upperBound)")
        }
        return integer
    }

    func bool(_ key: String) throws(WebAuthnError) -> Bool {
        guard let value = try optionalBool(key) else { throw .malformed("\(name(key)) is missing") }
        return value
    }

    /// An array of strings, absent or null read as empty.
    func strings(_ key: String) throws(WebAuthnError) -> [String] {
        guard let value = object[key], !value.isNull else { return [] }
        guard let elements = value.arrayValue else { throw .malformed("\(name(key)) is not an array") }
        var strings: [String] = []
        for element in elements {
            guard let text = element.stringValue else { throw .malformed("\(name(key)) holds a non-string") }
            strings.append(text)
        }
        return strings
    }
}
