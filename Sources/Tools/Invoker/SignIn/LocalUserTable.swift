import LosslessJSON
import Platform
import ServiceClients

/// A user the local sign-in knows: what Cognito's user pool would hold.
public struct LocalUser: Sendable, Equatable {
    public let userName: String
    /// Checked locally in place of Cognito's PASSWORD_VERIFIER (the real SRP exchange is not run).
    public let password: String
    public let email: String
    public let sub: String
    /// A verified phone number in E.164 form (`sms-code`, and `email-or-sms-code` when the user chooses it), if the user has one.
    public let phoneNumber: String?
    /// Any other attributes, as Cognito names them (`custom:totp_secret`, `name`, …), over those the fields above
    /// give: `"email_verified": "false"` makes the address unverified.
    public let attributes: [String: String]

    public init(
        userName: String, password: String, email: String, sub: String, phoneNumber: String? = nil,
        attributes: [String: String] = [:]
    ) {
        self.userName = userName
        self.password = password
        self.email = email
        self.sub = sub
        self.phoneNumber = phoneNumber
        self.attributes = attributes.filter { $0.key != "sub" }
    }

    /// Every attribute of the user, `sub` included, as Cognito sends them in `userAttributes`: `email` (verified),
    /// `phone_number` (verified) when there is one, then ``attributes`` over them.
    public var userAttributes: [String: String] {
        var all = ["sub": sub, "email": email, "email_verified": "true"]
        if let phoneNumber {
            all["phone_number"] = phoneNumber
            all["phone_number_verified"] = "true"
        }
        return all.merging(attributes) { _, own in own }
    }

    /// The attributes the trigger events carry for this user.
    public var identity: EventIdentity {
        EventIdentity(userName: userName, userAttributes: userAttributes.merging(["cognito:user_status": "CONFIRMED"]) { _, status in status })
    }
}

/// The local user pool: the embedded user `jane`, or a JSON file of users.
public struct LocalUserTable: Sendable, Equatable {
    public let users: [LocalUser]

    public init(users: [LocalUser]) {
        self.users = users
    }

    /// jane / `Correct-Horse-9` / jane.doe@example.com / +15555550100, the user of the sample events.
    public static let embedded = LocalUserTable(users: [
        LocalUser(
            userName: LocalDefaults.userName, password: LocalDefaults.password, email: LocalDefaults.email,
            sub: "5f1c7e2a-3b4d-4e6f-8a9b-0c1d2e3f4a5b", phoneNumber: LocalDefaults.phoneNumber),
    ])

    /// Reads `[{"userName": "…", "password": "…", "email": "…", "sub": "…", "phoneNumber": "+1…", "attributes":
    /// {"custom:totp_secret": "…", "email_verified": "false", …}}, …]` (`sub`, `phoneNumber` and `attributes`
    /// optional; a phone number is taken as verified unless `attributes` says otherwise). Attribute values are
    /// strings (booleans and numbers are taken as their text). User names are case-insensitive, as in the template's
    /// pool: two users whose names differ only in case are refused.
    public static func load(path: String) throws(InvokerError) -> LocalUserTable {
        func invalid(_ reason: String) -> InvokerError { .invalidConfiguration("user table \(path): \(reason)") }
        let elements: [JSONValue]
        do {
            elements = try LocalFile.nonEmptyJSONArray(at: path)
        } catch {
            throw invalid(error.reason)
        }
        var users: [LocalUser] = []
        for (position, element) in elements.enumerated() {
            let object = element.objectValue
            guard let userName = object?["userName"]?.stringValue, let password = object?["password"]?.stringValue,
                  let email = object?["email"]?.stringValue
            else { throw invalid("user \(position) needs string fields userName, password and email") }
            let sub = object?["sub"]?.stringValue ?? "00000000-0000-4000-8000-\(String(position + 1, radix: 16).leftPadded(to: 12, with: "0"))"
            var phoneNumber: String?
            switch object?["phoneNumber"] {
            case nil, .null?: phoneNumber = nil
            case .string(let number)?: phoneNumber = number
            default: throw invalid("user \(position): phoneNumber must be a string such as \"+15555550100\"")
            }
            var attributes: [String: String] = [:]
            switch object?["attributes"] {
            case nil, .null?: break
            case .object(let members)?:
                for (name, value) in members {
                    switch value {
                    case .string(let text): attributes[name] = text
                    case .bool(let flag): attributes[name] = flag ? "true" : "false"
                    case .number(let number): attributes[name] = number.literal
                    default: throw invalid("user \(position): attribute \"\(name)\" must be a string, not a JSON \(value.typeName)")
                    }
                }
                if attributes["sub"] != nil { throw invalid("user \(position): give \"sub\" as a field of its own, not among the attributes") }
            case let other?:
                throw invalid("user \(position): attributes must be an object such as {\"custom:totp_secret\": \"…\"}, not a JSON \(other.typeName)")
            }
            if users.contains(where: { $0.userName.lowercased() == userName.lowercased() }) {
                throw invalid("user \(position): the user name \"\(userName)\" is taken (user names are case-insensitive)")
            }
            users.append(LocalUser(
                userName: userName, password: password, email: email, sub: sub, phoneNumber: phoneNumber, attributes: attributes))
        }
        return LocalUserTable(users: users)
    }

    /// The user named `userName`, whatever its case.
    public func user(named userName: String) -> LocalUser? {
        users.first { $0.userName.lowercased() == userName.lowercased() }
    }
}
