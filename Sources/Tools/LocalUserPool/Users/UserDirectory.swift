/// The pool's users, found by user name or by email address (the deployed pool signs users in by email), whatever
/// the case of either: the template's pool has `UsernameConfiguration: CaseSensitive: false`, so `Alice` and `alice`
/// are one user.
struct UserDirectory: Sendable {
    /// By lower-cased user name.
    private var users: [String: PoolUser] = [:]

    init(_ users: [PoolUser]) {
        for user in users { self.users[Self.key(user.userName)] = user }
    }

    /// The user named `name`, or the one whose `email` is `name`, case ignored.
    func find(_ name: String) -> PoolUser? {
        let key = Self.key(name)
        return users[key] ?? users.values.first { $0.attributes["email"].map(Self.key) == key }
    }

    /// The user named `name` (or with that email), or `UserNotFoundException`.
    func existing(_ name: String) throws(PoolError) -> PoolUser {
        guard let user = find(name) else { throw .userDoesNotExist() }
        return user
    }

    /// Adds a new user; `UsernameExistsException` when the name or the email address is taken.
    mutating func add(_ user: PoolUser) throws(PoolError) {
        guard find(user.userName) == nil, user.attributes["email"].flatMap(find) == nil else {
            throw PoolError(.usernameExists, "User account \"\(user.userName)\" already exists.")
        }
        users[Self.key(user.userName)] = user
    }

    /// Replaces a user already in the directory (found by its user name).
    mutating func replace(_ user: PoolUser) {
        users[Self.key(user.userName)] = user
    }

    private static func key(_ name: String) -> String { name.lowercased() }
}
