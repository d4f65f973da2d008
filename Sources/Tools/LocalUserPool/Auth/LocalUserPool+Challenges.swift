import ChallengeFlows
import Invoker
import LosslessJSON

extension LocalUserPool {
    /// RespondToAuthChallenge and AdminRespondToAuthChallenge: the answer to the session's pending challenge, then
    /// the next step.
    func respondToAuthChallenge(_ request: RequestBody, admin: Bool) async throws(PoolError) -> JSONValue {
        if admin { try checkPool(request) }
        try checkClient(request)
        let challengeName = try request.string("ChallengeName")
        let responses = try request.stringMap("ChallengeResponses") ?? [:]
        let clientMetadata = try request.stringMap("ClientMetadata")
        var session: AuthSession
        if let id = try request.optionalString("Session"), !id.isEmpty {
            session = try sessions.take(id, now: .now)
        } else if challengeName == ChallengeName.passwordVerifier.rawValue, let block = responses["PASSWORD_CLAIM_SECRET_BLOCK"] {
            session = try sessions.take(secretBlock: block, now: .now)
        } else {
            throw .missing("Session")
        }
        guard let pending = session.pending, pending.challengeName.rawValue == challengeName else {
            throw PoolError(.invalidParameter, "The session waits for an answer to \"\(session.pending?.challengeName.rawValue ?? "nothing")\", not to \"\(challengeName)\".")
        }
        if let name = responses["USERNAME"],
           ![session.requestedName, session.userName, session.user?.attributes["email"]].contains(where: { $0?.lowercased() == name.lowercased() }) {
            throw PoolError(.notAuthorized, "The USERNAME \"\(name)\" is not the user of this session.")
        }
        session.pending = nil

        switch pending {
        case .custom(let privateParameters, let metadata):
            let answer = try Self.required("ANSWER", in: responses)
            let correct: Bool
            do {
                correct = try await triggers.verify(
                    session.identity, privateChallengeParameters: privateParameters, answer: answer, clientMetadata: clientMetadata)
            } catch {
                throw error.poolError
            }
            session.entries.append(SessionEntry(challengeName: .customChallenge, challengeResult: correct, challengeMetadata: metadata))
            return try await advance(session, clientMetadata: clientMetadata)
        case .passwordVerifier(let server, let clientPublicA, let secretBlock):
            let correct = try checkPasswordClaim(
                responses, server: server, clientPublicA: clientPublicA, secretBlock: secretBlock, session: session)
            return try await passwordChecked(session, correct: correct, clientMetadata: clientMetadata)
        case .newPassword:
            guard var user = session.user else { throw .incorrectCredentials }
            user.verifier = try passwordVerifier(userName: user.userName, password: try Self.required("NEW_PASSWORD", in: responses))
            user.status = .confirmed
            user.modifiedAt = unixNow
            users.replace(user)
            session.user = user
            return try await passwordChecked(session, correct: true, clientMetadata: clientMetadata)
        }
    }

    /// What follows a checked password: NEW_PASSWORD_REQUIRED for a temporary one; then tokens (password-only
    /// flows, or a refusal) or, in CUSTOM_AUTH, a PASSWORD_VERIFIER entry and Define.
    /// - Parameter clientMetadata: the `ClientMetadata` of the RespondToAuthChallenge that answered the password,
    ///   for a Create that follows (nil when the password came with InitiateAuth).
    func passwordChecked(
        _ session: AuthSession, correct: Bool, clientMetadata: [String: String]? = nil
    ) async throws(PoolError) -> JSONValue {
        if correct, let user = session.user, user.status == .forceChangePassword {
            var next = session
            next.pending = .newPassword
            let id = try sessions.store(next, now: .now)
            let attributes = JSONValue.object(JSONObject(
                user.attributes.filter { settings.clientReads($0.key) }.sorted { $0.key < $1.key }.map { ($0.key, .string($0.value)) }))
            return Self.challengeAnswer(.newPasswordRequired, parameters: [
                "USER_ID_FOR_SRP": user.userName, "requiredAttributes": "[]",
                "userAttributes": String(decoding: attributes.serialized(), as: UTF8.self),
            ], session: id)
        }
        switch session.kind {
        case .passwordOnly:
            guard correct, let user = session.user else { throw .incorrectCredentials }
            return try issueTokens(for: user)
        case .customAuth:
            var next = session
            next.entries.append(SessionEntry(challengeName: .passwordVerifier, challengeResult: correct))
            return try await advance(next, clientMetadata: clientMetadata)
        }
    }

    /// One CUSTOM_AUTH step as Cognito takes it: Define decides; PASSWORD_VERIFIER is run by the pool, a
    /// CUSTOM_CHALLENGE is built by Create and sent to the client.
    /// - Parameter clientMetadata: the `ClientMetadata` of the RespondToAuthChallenge this step answers, which
    ///   Cognito passes to Create (and Verify) but never to Define; nil in InitiateAuth, whose `ClientMetadata`
    ///   reaches none of the three (DESIGN.md §7).
    func advance(_ session: AuthSession, clientMetadata: [String: String]?) async throws(PoolError) -> JSONValue {
        let decision: Invoker.DefineDecision
        do {
            decision = try await triggers.define(session.identity, session: session.entries)
        } catch {
            throw error.poolError
        }
        switch decision {
        case .issueTokens:
            // Define issuing tokens to a user that does not exist is a broken function; Cognito still refuses.
            guard let user = session.user else { throw .incorrectCredentials }
            return try issueTokens(for: user)
        case .failAuthentication:
            throw .incorrectCredentials
        case .challenge(.passwordVerifier):
            guard let clientPublicA = session.clientPublicA else {
                throw PoolError(.invalidParameter, "DefineAuthChallenge asked for PASSWORD_VERIFIER, which needs \"SRP_A\" in the AuthParameters.")
            }
            return try passwordVerifierChallenge(session, clientPublicA: clientPublicA)
        case .challenge(.customChallenge):
            let challenge: CreateAuthChallengeResponse
            do {
                challenge = try await triggers.create(session.identity, session: session.entries, clientMetadata: clientMetadata)
            } catch {
                throw error.poolError
            }
            var next = session
            next.pending = .custom(privateParameters: challenge.privateChallengeParameters ?? [:], metadata: challenge.challengeMetadata)
            let id = try sessions.store(next, now: .now)
            var parameters = challenge.publicChallengeParameters ?? [:]
            parameters["USERNAME"] = session.userName
            return Self.challengeAnswer(.customChallenge, parameters: parameters, session: id)
        case .challenge(let other):
            throw PoolError(.invalidLambdaResponse, "DefineAuthChallenge named the challenge \"\(other)\"; this pool runs \"PASSWORD_VERIFIER\" and \"CUSTOM_CHALLENGE\".")
        }
    }

    /// `{"ChallengeName", "ChallengeParameters", "Session"}`.
    static func challengeAnswer(_ name: ChallengeName, parameters: [String: String], session: String) -> JSONValue {
        .object(JSONObject([
            ("ChallengeName", .string(name.rawValue)),
            ("ChallengeParameters", .object(JSONObject(parameters.sorted { $0.key < $1.key }.map { ($0.key, .string($0.value)) }))),
            ("Session", .string(session)),
        ]))
    }
}
