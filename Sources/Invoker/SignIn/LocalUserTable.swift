import EmailDelivery
import LosslessJSON

/// A user the local sign-in knows: what Cognito's user pool would hold.
public struct LocalUser: Sendable, Equatable {
    public let userName: String
    /// Checked locally in place of Cognito's PASSWORD_VERIFIER (the real SRP exchange is not run).
    public let password: String
    public let email: String
    public let sub: String
    /// A verified phone number in E.164 form (`sms-code`, `email-or-sms-code`), if the user has one.
    public let phoneNumber: String?

    public init(userName: String, password: String, email: String, sub: String, phoneNumber: String? = nil) {
        self.userName = userName
        self.password = password
        self.email = email
        self.sub = sub
        self.phoneNumber = phoneNumber
    }

    /// The attributes the trigger events carry for this user.
    public var identity: EventIdentity { .confirmedUser(userName, email: email, sub: sub, phoneNumber: phoneNumber) }
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

    /// Reads `[{"userName": "…", "password": "…", "email": "…", "sub": "…", "phoneNumber": "+1…"}, …]` (`sub` and
    /// `phoneNumber` optional; a phone number is taken as verified).
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
            users.append(LocalUser(userName: userName, password: password, email: email, sub: sub, phoneNumber: phoneNumber))
        }
        return LocalUserTable(users: users)
    }

    public func user(named userName: String) -> LocalUser? {
        users.first { $0.userName == userName }
    }
}
