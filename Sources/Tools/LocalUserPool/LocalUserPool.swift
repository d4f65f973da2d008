import ChallengeCrypto
import CognitoSRP
import Foundation
import Invoker
import LosslessJSON
import Platform

/// A local Cognito user pool with one app client: it answers the Cognito Identity Provider operations, runs SRP
/// itself, drives the custom-auth triggers through a ``TriggerTransport`` the way Cognito does, and signs tokens
/// with its own RSA key.
public actor LocalUserPool {
    public nonisolated let settings: PoolSettings
    /// The JSON Web Key Set tokens verify against.
    public nonisolated let jwks: JSONValue
    /// The OpenID discovery document: the issuer and where its keys are, for libraries that start from it.
    public nonisolated let openIDConfiguration: JSONValue
    let passwordPolicy: PasswordPolicy
    let triggers: TriggerCall
    let issuer: CognitoTokenIssuer
    /// The SRP pool name: the user-pool id after "_".
    let poolName: String
    /// A random key made when the pool starts, under which a user that does not exist gets what would be stable
    /// for a real one (its salt): the same on every sign-in, unlike the others', and not derivable from outside.
    let decoyKey: [UInt8]
    var users: UserDirectory
    var sessions: SessionStore
    var refreshTokens = RefreshTokenStore()
    /// The base URL of the HTTP API in front of the function (``HTTPAPIEndpoint``), once it listens: the sign-in page
    /// calls the passkey routes there.
    public private(set) var httpAPIURL: String?

    /// - Parameters:
    ///   - users: the pool's first users.
    ///   - transport: where the triggers run.
    ///   - issuer: signs the tokens; its `issuer` is the pool's URL.
    public init(
        settings: PoolSettings, users: [PoolUser], transport: any TriggerTransport, issuer: CognitoTokenIssuer,
        passwordPolicy: PasswordPolicy = .template
    ) throws(PoolError) {
        self.settings = settings
        self.passwordPolicy = passwordPolicy
        self.issuer = issuer
        jwks = JWKS.document(keys: [issuer.key])
        openIDConfiguration = .object(JSONObject([
            ("issuer", .string(issuer.issuer)),
            ("jwks_uri", .string("\(issuer.issuer)/.well-known/jwks.json")),
            ("id_token_signing_alg_values_supported", .array(["RS256"])),
            ("subject_types_supported", .array(["public"])),
            ("response_types_supported", .array(["code", "token"])),
        ]))
        triggers = TriggerCall(transport: transport)
        poolName = try Self.poolName(settings.userPoolId)
        do {
            decoyKey = try SystemRandom().bytes(count: 32)
        } catch {
            throw PoolError(.internalError, "The pool could not draw its random key: \(error).")
        }
        self.users = UserDirectory(users)
        sessions = SessionStore(lifetime: settings.sessionLifetime)
    }

    /// Records where the HTTP API in front of the function listens, for the sign-in page.
    public func setHTTPAPIURL(_ url: String) {
        httpAPIURL = url
    }

    /// Answers one request: `operation` is the part of `X-Amz-Target` after the dot.
    public func handle(operation: String, body: [UInt8]) async throws(PoolError) -> JSONValue {
        let request = try RequestBody(parsing: body)
        switch operation {
        case "InitiateAuth": return try await initiateAuth(request, admin: false)
        case "AdminInitiateAuth": return try await initiateAuth(request, admin: true)
        case "RespondToAuthChallenge": return try await respondToAuthChallenge(request, admin: false)
        case "AdminRespondToAuthChallenge": return try await respondToAuthChallenge(request, admin: true)
        case "AdminCreateUser": return try adminCreateUser(request)
        case "AdminSetUserPassword": return try adminSetUserPassword(request)
        case "SignUp": return try signUp(request)
        case "AdminConfirmSignUp": return try adminConfirmSignUp(request)
        case "AdminGetUser": return try adminGetUser(request)
        case "GetUser": return try getUser(request)
        case "AdminUpdateUserAttributes": return try adminUpdateUserAttributes(request)
        case "UpdateUserAttributes": return try updateUserAttributes(request)
        case "RevokeToken": return try revokeToken(request)
        default:
            throw PoolError(.unknownOperation, "The operation \"\(operation)\" is not served by this local user pool.")
        }
    }

    // MARK: Shared checks

    /// `ClientId` must name this pool's app client.
    func checkClient(_ request: RequestBody) throws(PoolError) {
        let clientId = try request.string("ClientId")
        guard clientId == settings.clientId else {
            throw PoolError(.resourceNotFound, "User pool client \"\(clientId)\" does not exist.")
        }
    }

    /// `UserPoolId` must name this pool.
    func checkPool(_ request: RequestBody) throws(PoolError) {
        let poolId = try request.string("UserPoolId")
        guard poolId == settings.userPoolId else {
            throw PoolError(.resourceNotFound, "User pool \"\(poolId)\" does not exist.")
        }
    }

    /// Unix seconds.
    nonisolated var unixNow: Int64 { Int64(Date().timeIntervalSince1970) }

    static func poolName(_ userPoolId: String) throws(PoolError) -> String {
        do {
            return try cognitoPoolName(userPoolId: userPoolId)
        } catch {
            throw PoolError(.invalidParameter, "The user-pool id is unusable: \(error.description).")
        }
    }
}
