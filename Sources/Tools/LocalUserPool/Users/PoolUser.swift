import CognitoSRP
import Invoker
import LosslessJSON

/// A user's account status, as Cognito reports it in `UserStatus` and `cognito:user_status`.
public enum UserStatus: String, Sendable {
    case confirmed = "CONFIRMED"
    case unconfirmed = "UNCONFIRMED"
    case forceChangePassword = "FORCE_CHANGE_PASSWORD"
}

/// One user of the local pool. Only a salt and an SRP verifier stand for the password: the password itself is never
/// kept.
public struct PoolUser: Sendable {
    public let userName: String
    public let sub: String
    /// Attributes other than `sub` (`email`, `email_verified`, …).
    public var attributes: [String: String]
    public var status: UserStatus
    public var enabled: Bool
    /// The password's salt and verifier; nil for a user without a password.
    public var verifier: SRPVerifier?
    /// Unix seconds.
    public let createdAt: Int64
    public var modifiedAt: Int64

    public init(
        userName: String, sub: String, attributes: [String: String], status: UserStatus, verifier: SRPVerifier?,
        createdAt: Int64
    ) {
        self.userName = userName
        self.sub = sub
        self.attributes = attributes.filter { $0.key != "sub" }
        self.status = status
        enabled = true
        self.verifier = verifier
        self.createdAt = createdAt
        modifiedAt = createdAt
    }

    /// The attributes the trigger events and ID tokens carry, `sub` included.
    public var allAttributes: [String: String] {
        attributes.merging(["sub": sub]) { _, sub in sub }
    }

    /// Who signs in, as the trigger events describe this user.
    public func identity(_ settings: PoolSettings) -> EventIdentity {
        EventIdentity(
            userName: userName,
            userAttributes: allAttributes.merging(["cognito:user_status": status.rawValue]) { _, status in status },
            userPoolId: settings.userPoolId, region: settings.region, clientId: settings.clientId)
    }

    /// `[{"Name": …, "Value": …}]`, `sub` first and the rest sorted, as Cognito lists them.
    public var attributeList: JSONValue {
        let others = attributes.sorted { $0.key < $1.key }.map { JSONValue.attribute($0.key, $0.value) }
        return .array([.attribute("sub", sub)] + others)
    }

    /// Like ``attributeList``, with only the attributes the app client may read (GetUser).
    func attributeList(readableBy settings: PoolSettings) -> JSONValue {
        let others = attributes.filter { settings.clientReads($0.key) }.sorted { $0.key < $1.key }.map { JSONValue.attribute($0.key, $0.value) }
        return .array([.attribute("sub", sub)] + others)
    }

    /// Sets the attributes in `changes`; an empty value removes one. `sub` cannot change. As in Cognito, a new
    /// `email` or `phone_number` is unverified unless the change sets its `_verified` flag too.
    mutating func update(_ changes: [String: String], now: Int64) throws(PoolError) {
        if changes["sub"] != nil { throw PoolError(.invalidParameter, "Cannot modify the non-mutable attribute sub") }
        for contact in ["email", "phone_number"] {
            if let new = changes[contact], new != attributes[contact], changes["\(contact)_verified"] == nil, !new.isEmpty {
                attributes["\(contact)_verified"] = "false"
            }
        }
        for (name, value) in changes {
            attributes[name] = value.isEmpty ? nil : value
        }
        modifiedAt = now
    }

    /// The user as AdminGetUser and AdminCreateUser describe it (`Attributes` under the name `attributesKey`).
    func description(attributesKey: String) -> JSONObject {
        JSONObject([
            ("Username", .string(userName)),
            (attributesKey, attributeList),
            ("UserCreateDate", .number(JSONNumber(Int(createdAt)))),
            ("UserLastModifiedDate", .number(JSONNumber(Int(modifiedAt)))),
            ("Enabled", .bool(enabled)),
            ("UserStatus", .string(status.rawValue)),
        ])
    }
}

extension JSONValue {
    /// `{"Name": name, "Value": value}`.
    static func attribute(_ name: String, _ value: String) -> JSONValue {
        .object(JSONObject([("Name", .string(name)), ("Value", .string(value))]))
    }
}
