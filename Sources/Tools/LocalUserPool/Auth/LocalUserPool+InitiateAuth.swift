import ChallengeFlows
import Invoker
import LosslessJSON

extension LocalUserPool {
    /// InitiateAuth and AdminInitiateAuth: CUSTOM_AUTH (with or without SRP_A), USER_SRP_AUTH and the refresh flow,
    /// each only when the app client allows it.
    func initiateAuth(_ request: RequestBody, admin: Bool) async throws(PoolError) -> JSONValue {
        if admin { try checkPool(request) }
        try checkClient(request)
        let flowName = try request.string("AuthFlow")
        guard let flow = AuthFlow(rawValue: flowName) else {
            throw PoolError(.invalidParameter, "The auth flow \"\(flowName)\" is not one Cognito knows.")
        }
        guard settings.flows.permits(flow) else {
            throw PoolError(.invalidParameter, "\(flowName) flow not enabled for this client: \"\(flow.permission)\" is not among its auth flows.")
        }
        let parameters = try request.stringMap("AuthParameters") ?? [:]
        switch flow {
        case .customAuth: return try await startCustomAuth(parameters)
        case .userSRPAuth: return try startUserSRP(parameters)
        case .refreshTokenAuth, .refreshToken: return try refresh(parameters)
        case .userPasswordAuth, .adminUserPasswordAuth, .adminNoSRPAuth:
            guard admin == (flow != .userPasswordAuth) else {
                throw PoolError(.invalidParameter, "The auth flow \"\(flowName)\" is for \(admin ? "InitiateAuth" : "AdminInitiateAuth").")
            }
            return try await startPasswordSignIn(parameters)
        }
    }

    /// CUSTOM_AUTH: an empty session (or `[SRP_A]` when the client starts with SRP), then Define; the first Create
    /// gets no `ClientMetadata`.
    private func startCustomAuth(_ parameters: [String: String]) async throws(PoolError) -> JSONValue {
        let name = try Self.required("USERNAME", in: parameters)
        let user = try signInCandidate(name)
        var entries: [SessionEntry] = []
        switch parameters["CHALLENGE_NAME"] {
        case nil, ChallengeName.customChallenge.rawValue?:
            break
        case ChallengeName.srpA.rawValue?:
            _ = try Self.required("SRP_A", in: parameters)
            entries.append(SessionEntry(challengeName: .srpA, challengeResult: true))
        case let other?:
            throw PoolError(.invalidParameter, "CHALLENGE_NAME \"\(other)\" cannot start CUSTOM_AUTH; use \"SRP_A\" or \"CUSTOM_CHALLENGE\".")
        }
        let session = AuthSession(
            kind: .customAuth, requestedName: name, user: user, identity: identity(of: user, requestedName: name),
            entries: entries, clientPublicA: parameters["SRP_A"], pending: nil)
        // InitiateAuth's ClientMetadata goes to pre sign-up, pre authentication and migration, none of which runs here.
        return try await advance(session, clientMetadata: nil)
    }

    /// USER_SRP_AUTH: straight to PASSWORD_VERIFIER; no trigger runs.
    private func startUserSRP(_ parameters: [String: String]) throws(PoolError) -> JSONValue {
        let name = try Self.required("USERNAME", in: parameters)
        let clientPublicA = try Self.required("SRP_A", in: parameters)
        let user = try signInCandidate(name)
        let session = AuthSession(
            kind: .passwordOnly, requestedName: name, user: user, identity: identity(of: user, requestedName: name),
            entries: [], clientPublicA: clientPublicA, pending: nil)
        return try passwordVerifierChallenge(session, clientPublicA: clientPublicA)
    }

    /// USER_PASSWORD_AUTH and ADMIN_USER_PASSWORD_AUTH: the password itself, checked against the stored verifier.
    private func startPasswordSignIn(_ parameters: [String: String]) async throws(PoolError) -> JSONValue {
        let name = try Self.required("USERNAME", in: parameters)
        let password = try Self.required("PASSWORD", in: parameters)
        let user = try signInCandidate(name)
        var correct = false
        if let user, let stored = user.verifier {
            correct = try Self.verifier(poolName: poolName, userName: user.userName, password: password, saltHex: stored.saltHex) == stored
        }
        let session = AuthSession(
            kind: .passwordOnly, requestedName: name, user: user, identity: identity(of: user, requestedName: name),
            entries: [], clientPublicA: nil, pending: nil)
        return try await passwordChecked(session, correct: correct)
    }

    /// The user signing in as `name`; nil for an unknown user when the pool hides user existence.
    private func signInCandidate(_ name: String) throws(PoolError) -> PoolUser? {
        guard let user = users.find(name) else {
            if settings.preventUserExistenceErrors { return nil }
            throw .userDoesNotExist()
        }
        guard user.enabled else { throw PoolError(.notAuthorized, "User is disabled.") }
        guard user.status != .unconfirmed else { throw PoolError(.userNotConfirmed, "User is not confirmed.") }
        return user
    }

    private func identity(of user: PoolUser?, requestedName: String) -> EventIdentity {
        user?.identity(settings) ?? EventIdentity(
            userName: requestedName, userAttributes: [:], userNotFound: true, userPoolId: settings.userPoolId,
            region: settings.region, clientId: settings.clientId)
    }

    /// A value of `AuthParameters` or `ChallengeResponses` the request must have.
    static func required(_ key: String, in parameters: [String: String]) throws(PoolError) -> String {
        guard let value = parameters[key], !value.isEmpty else { throw .missing(key) }
        return value
    }
}
