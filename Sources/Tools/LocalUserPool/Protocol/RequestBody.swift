import LosslessJSON

/// The JSON body of one Cognito request, read field by field with Cognito's errors for missing or mistyped fields.
public struct RequestBody: Sendable {
    private let object: JSONObject

    public init(_ object: JSONObject) {
        self.object = object
    }

    /// Parses a request body; an empty body is an empty object, as the SDKs send for parameterless calls.
    public init(parsing bytes: [UInt8]) throws(PoolError) {
        guard !bytes.isEmpty else {
            self.init(JSONObject())
            return
        }
        let json: JSONValue
        do {
            json = try JSONValue(parsing: bytes)
        } catch {
            throw PoolError(.serialization, "The request body is not JSON: \(error.description).")
        }
        guard let object = json.objectValue else {
            throw PoolError(.serialization, "The request body is a JSON \(json.typeName), not an object.")
        }
        self.init(object)
    }

    /// A required non-empty string.
    public func string(_ field: String) throws(PoolError) -> String {
        guard let value = try optionalString(field), !value.isEmpty else { throw .missing(field) }
        return value
    }

    /// A string, or nil when the field is absent or null.
    public func optionalString(_ field: String) throws(PoolError) -> String? {
        guard let value = object[field], !value.isNull else { return nil }
        guard let text = value.stringValue else {
            throw PoolError(.serialization, "The field \"\(field)\" is a JSON \(value.typeName), not a string.")
        }
        return text
    }

    /// A boolean, or `defaultValue` when absent.
    public func bool(_ field: String, default defaultValue: Bool) throws(PoolError) -> Bool {
        guard let value = object[field], !value.isNull else { return defaultValue }
        guard let flag = value.boolValue else {
            throw PoolError(.serialization, "The field \"\(field)\" is a JSON \(value.typeName), not a boolean.")
        }
        return flag
    }

    /// A map of strings (`AuthParameters`, `ChallengeResponses`, `ClientMetadata`), or nil when absent.
    public func stringMap(_ field: String) throws(PoolError) -> [String: String]? {
        guard let value = object[field], !value.isNull else { return nil }
        guard let members = value.objectValue else {
            throw PoolError(.serialization, "The field \"\(field)\" is a JSON \(value.typeName), not an object.")
        }
        var map: [String: String] = [:]
        for (key, member) in members {
            guard let text = member.stringValue else {
                throw PoolError(.serialization, "The value of \"\(field).\(key)\" is a JSON \(member.typeName), not a string.")
            }
            map[key] = text
        }
        return map
    }

    /// A list of `{"Name": …, "Value": …}` attributes (`UserAttributes`), as a map; empty when absent.
    public func attributes(_ field: String) throws(PoolError) -> [String: String] {
        guard let value = object[field], !value.isNull else { return [:] }
        guard let elements = value.arrayValue else {
            throw PoolError(.serialization, "The field \"\(field)\" is a JSON \(value.typeName), not an array.")
        }
        var attributes: [String: String] = [:]
        for element in elements {
            guard let name = element.objectValue?["Name"]?.stringValue else {
                throw PoolError(.invalidParameter, "Every element of \"\(field)\" needs a string \"Name\".")
            }
            attributes[name] = element.objectValue?["Value"]?.stringValue ?? ""
        }
        return attributes
    }
}
