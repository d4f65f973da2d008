import ChallengeFlows
import LosslessJSON

/// How a ``StateRecord`` is laid out as a DynamoDB item: partition key `pk` (S), `version` (N), `expiresAt` (N, the
/// table's TTL attribute), and each field as an S or N attribute named `f_` + the field's name.
enum DynamoDBItem {
    static let keyAttribute = "pk"
    static let versionAttribute = "version"
    static let expiryAttribute = "expiresAt"
    static let fieldPrefix = "f_"

    /// `{"pk":{"S":key}}`.
    static func key(_ key: String) -> JSONValue {
        [keyAttribute: string(key)]
    }

    /// The whole item for `record` stored as `version`.
    static func item(key: String, record: StateRecord, version: Int64) -> JSONValue {
        var attributes: [(String, JSONValue)] = [
            (keyAttribute, string(key)), (versionAttribute, number(version)), (expiryAttribute, number(record.expiresAt)),
        ]
        for (name, value) in record.fields.sorted(by: { $0.key < $1.key }) {
            switch value {
            case .number(let number): attributes.append((fieldPrefix + name, Self.number(number)))
            case .string(let text): attributes.append((fieldPrefix + name, string(text)))
            }
        }
        return .object(JSONObject(attributes))
    }

    /// The record an item holds; the problem, as a phrase, when it is not one this store wrote.
    static func record(from item: JSONObject) -> Result<StateRecord, ItemProblem> {
        guard let version = item[versionAttribute].flatMap(numberValue) else {
            return .failure(ItemProblem(description: "the item has no numeric \"\(versionAttribute)\" attribute"))
        }
        guard let expiresAt = item[expiryAttribute].flatMap(numberValue) else {
            return .failure(ItemProblem(description: "the item has no numeric \"\(expiryAttribute)\" attribute"))
        }
        var fields: [String: StateValue] = [:]
        for (attribute, value) in item where attribute.hasPrefix(fieldPrefix) {
            let name = String(attribute.dropFirst(fieldPrefix.count))
            if let number = numberValue(value) {
                fields[name] = .number(number)
            } else if let text = value.objectValue?["S"]?.stringValue {
                fields[name] = .string(text)
            } else {
                return .failure(ItemProblem(description: "attribute \"\(attribute)\" is neither a string nor a 64-bit integer"))
            }
        }
        return .success(StateRecord(fields: fields, version: version, expiresAt: expiresAt))
    }

    /// `{"S":text}`.
    static func string(_ text: String) -> JSONValue {
        ["S": .string(text)]
    }

    /// `{"N":"42"}`: DynamoDB sends and takes numbers as strings.
    static func number(_ value: Int64) -> JSONValue {
        ["N": .string(String(value))]
    }

    /// The integer of an `{"N":"42"}` attribute value.
    private static func numberValue(_ value: JSONValue) -> Int64? {
        value.objectValue?["N"]?.stringValue.flatMap { Int64($0) }
    }

    /// Why an item could not be read as a record.
    struct ItemProblem: Error, CustomStringConvertible {
        let description: String
    }
}
