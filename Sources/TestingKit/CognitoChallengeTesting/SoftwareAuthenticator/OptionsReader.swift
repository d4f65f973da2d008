import ChallengeCrypto
import LosslessJSON

/// One JSON object of WebAuthn options, read member by member; errors name the member's path.
struct OptionsReader {
    let object: JSONObject
    let path: String

    /// The root object of `json`.
    init(json: String) throws(SoftwareAuthenticatorError) {
        let value: JSONValue
        do {
            value = try JSONValue(parsing: json)
        } catch {
            throw .malformedOptions(error.description)
        }
        guard let object = value.objectValue else { throw .malformedOptions("the options are not a JSON object") }
        self.init(object: object, path: "$")
    }

    init(object: JSONObject, path: String) {
        self.object = object
        self.path = path
    }

    func optionalString(_ key: String) throws(SoftwareAuthenticatorError) -> String? {
        guard let value = object[key], !value.isNull else { return nil }
        guard let text = value.stringValue else { throw .malformedOptions("\(path).\(key) is not a string") }
        return text
    }

    /// A base64url member, decoded.
    func bytes(_ key: String) throws(SoftwareAuthenticatorError) -> [UInt8] {
        guard let text = try optionalString(key) else { throw .malformedOptions("\(path).\(key) is missing") }
        guard let bytes = Base64URL.decode(text) else { throw .malformedOptions("\(path).\(key) is not base64url") }
        return bytes
    }

    func integer(_ key: String) throws(SoftwareAuthenticatorError) -> Int {
        guard case .number(let number)? = object[key], let value = number.intValue else {
            throw .malformedOptions("\(path).\(key) is not an integer")
        }
        return value
    }

    func object(_ key: String) throws(SoftwareAuthenticatorError) -> OptionsReader {
        guard let member = object[key]?.objectValue else { throw .malformedOptions("\(path).\(key) is not an object") }
        return OptionsReader(object: member, path: "\(path).\(key)")
    }

    /// An array of objects; absent or null reads as empty.
    func optionalArray(_ key: String) throws(SoftwareAuthenticatorError) -> [OptionsReader] {
        guard let value = object[key], !value.isNull else { return [] }
        guard let elements = value.arrayValue else { throw .malformedOptions("\(path).\(key) is not an array") }
        var readers: [OptionsReader] = []
        for (index, element) in elements.enumerated() {
            guard let member = element.objectValue else {
                throw .malformedOptions("\(path).\(key)[\(index)] is not an object")
            }
            readers.append(OptionsReader(object: member, path: "\(path).\(key)[\(index)]"))
        }
        return readers
    }
}
