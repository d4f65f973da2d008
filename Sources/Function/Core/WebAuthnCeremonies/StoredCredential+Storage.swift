import ChallengeCrypto
import LosslessJSON

extension StoredCredential {
    /// A user's credentials as one JSON string, for a state record's field: an array of objects with base64url
    /// `id`, `publicKey` and `aaguid`, and `signCount`, `transports`, `backupEligible`, `backedUp`, `name`,
    /// `createdAt`, `lastUsedAt` (absent when nil).
    public static func encodeList(_ credentials: [StoredCredential]) -> String {
        JSONValue.array(credentials.map(\.json)).text()
    }

    /// The credentials ``encodeList(_:)`` wrote.
    public static func decodeList(_ json: String) throws(WebAuthnError) -> [StoredCredential] {
        let value: JSONValue
        do {
            value = try JSONValue(parsing: json)
        } catch {
            throw .malformed("stored credentials: \(error)")
        }
        guard let elements = value.arrayValue else { throw .malformed("stored credentials are not a JSON array") }
        var credentials: [StoredCredential] = []
        for (index, element) in elements.enumerated() {
            credentials.append(try StoredCredential(json: try JSONFields(element, path: "credentials[\(index)]")))
        }
        return credentials
    }

    private var json: JSONValue {
        var object = JSONObject([
            ("id", .string(Base64URL.encode(id))),
            ("publicKey", .string(Base64URL.encode(publicKey))),
            ("signCount", .number(JSONNumber(Int(signCount)))),
            ("transports", .array(transports.map { .string($0) })),
            ("aaguid", .string(Base64URL.encode(aaguid))),
            ("backupEligible", .bool(backupEligible)),
            ("backedUp", .bool(backedUp)),
            ("name", .string(name)),
            ("createdAt", .number(JSONNumber(Int(createdAt)))),
        ])
        if let lastUsedAt { object["lastUsedAt"] = .number(JSONNumber(Int(lastUsedAt))) }
        return .object(object)
    }

    private init(json fields: JSONFields) throws(WebAuthnError) {
        self.init(
            id: try fields.bytes("id"), publicKey: try fields.bytes("publicKey"),
            signCount: UInt32(try fields.integer("signCount", in: 0...Int64(UInt32.max))),
            transports: try fields.strings("transports"), aaguid: try fields.bytes("aaguid"),
            backupEligible: try fields.bool("backupEligible"), backedUp: try fields.bool("backedUp"),
            name: try fields.string("name"), createdAt: try fields.integer("createdAt", in: Int64.min...Int64.max),
            lastUsedAt: try fields.optionalInteger("lastUsedAt", in: Int64.min...Int64.max))
    }
}
