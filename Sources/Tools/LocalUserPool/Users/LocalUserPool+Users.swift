import CognitoSRP
import Foundation
import LosslessJSON

extension LocalUserPool {
    /// AdminCreateUser: a new user in FORCE_CHANGE_PASSWORD (with its temporary password, if one is given).
    func adminCreateUser(_ request: RequestBody) throws(PoolError) -> JSONValue {
        try checkPool(request)
        let userName = try request.string("Username")
        let verifier = try request.optionalString("TemporaryPassword").map { password throws(PoolError) in
            try passwordVerifier(userName: userName, password: password)
        }
        let user = PoolUser(
            userName: userName, sub: UUID().uuidString.lowercased(), attributes: try request.attributes("UserAttributes"),
            status: .forceChangePassword, verifier: verifier, createdAt: unixNow)
        try users.add(user)
        return .object(JSONObject([("User", .object(user.description(attributesKey: "Attributes")))]))
    }

    /// AdminSetUserPassword: a new password; `Permanent` makes the user CONFIRMED.
    func adminSetUserPassword(_ request: RequestBody) throws(PoolError) -> JSONValue {
        try checkPool(request)
        var user = try users.existing(try request.string("Username"))
        user.verifier = try passwordVerifier(userName: user.userName, password: try request.string("Password"))
        user.status = try request.bool("Permanent", default: false) ? .confirmed : .forceChangePassword
        user.modifiedAt = unixNow
        users.replace(user)
        return .object(JSONObject())
    }

    /// SignUp: a new UNCONFIRMED user with a password.
    func signUp(_ request: RequestBody) throws(PoolError) -> JSONValue {
        try checkClient(request)
        let userName = try request.string("Username")
        let user = PoolUser(
            userName: userName, sub: UUID().uuidString.lowercased(), attributes: try request.attributes("UserAttributes"),
            status: .unconfirmed, verifier: try passwordVerifier(userName: userName, password: try request.string("Password")),
            createdAt: unixNow)
        try users.add(user)
        return .object(JSONObject([("UserConfirmed", false), ("UserSub", .string(user.sub))]))
    }

    /// AdminConfirmSignUp: an UNCONFIRMED user becomes CONFIRMED.
    func adminConfirmSignUp(_ request: RequestBody) throws(PoolError) -> JSONValue {
        try checkPool(request)
        var user = try users.existing(try request.string("Username"))
        guard user.status == .unconfirmed else {
            throw PoolError(.notAuthorized, "User cannot be confirmed. Current status is \(user.status.rawValue).")
        }
        user.status = .confirmed
        user.modifiedAt = unixNow
        users.replace(user)
        return .object(JSONObject())
    }

    /// AdminGetUser: the user's attributes and status.
    func adminGetUser(_ request: RequestBody) throws(PoolError) -> JSONValue {
        try checkPool(request)
        let user = try users.existing(try request.string("Username"))
        return .object(user.description(attributesKey: "UserAttributes"))
    }

    /// AdminUpdateUserAttributes: any attribute but `sub`, whatever the app client may write.
    func adminUpdateUserAttributes(_ request: RequestBody) throws(PoolError) -> JSONValue {
        try checkPool(request)
        var user = try users.existing(try request.string("Username"))
        let changes = try request.attributes("UserAttributes")
        guard !changes.isEmpty else { throw .missing("UserAttributes") }
        try user.update(changes, now: unixNow)
        users.replace(user)
        return .object(JSONObject())
    }

    /// The salt and verifier for a password that satisfies the policy.
    func passwordVerifier(userName: String, password: String) throws(PoolError) -> SRPVerifier {
        try passwordPolicy.check(password)
        return try Self.verifier(poolName: poolName, userName: userName, password: password)
    }

    /// The salt and verifier Cognito's SRP checks `password` against, with `userName` as `USER_ID_FOR_SRP`; a fresh
    /// salt unless `saltHex` is given (to check a password against a stored verifier).
    static func verifier(poolName: String, userName: String, password: String, saltHex: String? = nil) throws(PoolError) -> SRPVerifier {
        do {
            return try SRPVerifier.make(poolName: poolName, userId: userName, password: password, saltHex: saltHex)
        } catch {
            throw PoolError(.internalError, "The password verifier could not be made: \(error.description).")
        }
    }
}
