import LosslessJSON

extension LocalUserPool {
    /// Signs in `user`: new ID, access and refresh tokens, as `{"AuthenticationResult", "ChallengeParameters"}`.
    func issueTokens(for user: PoolUser) throws(PoolError) -> JSONValue {
        let now = unixNow
        let tokens = try sign(user, authTime: now, now: now)
        refreshTokens.record(tokens.refreshToken, RefreshTokenStore.Grant(
            userName: user.userName, clientId: settings.clientId, authTime: now,
            originJTIs: [try originJTI(of: tokens.accessToken, now: now)]))
        return .object(JSONObject([("AuthenticationResult", tokens.authenticationResult), ("ChallengeParameters", .object(JSONObject()))]))
    }

    /// REFRESH_TOKEN_AUTH: new ID and access tokens for a live refresh token (no new refresh token).
    func refresh(_ parameters: [String: String]) throws(PoolError) -> JSONValue {
        let token = try Self.required("REFRESH_TOKEN", in: parameters)
        let grant = try refreshTokens.grant(for: token, clientId: settings.clientId)
        guard let user = users.find(grant.userName) else { throw PoolError(.notAuthorized, "User does not exist.") }
        guard user.enabled else { throw PoolError(.notAuthorized, "User is disabled.") }
        let now = unixNow
        let tokens = try sign(user, authTime: grant.authTime, now: now)
        refreshTokens.addOrigin(try originJTI(of: tokens.accessToken, now: now), to: token)
        let result = JSONObject([
            ("AccessToken", .string(tokens.accessToken)),
            ("ExpiresIn", .number(JSONNumber(tokens.expiresIn))),
            ("IdToken", .string(tokens.idToken)),
            ("TokenType", .string(tokens.tokenType)),
        ])
        return .object(JSONObject([("AuthenticationResult", .object(result)), ("ChallengeParameters", .object(JSONObject()))]))
    }

    /// GetUser: the user of a live access token.
    func getUser(_ request: RequestBody) throws(PoolError) -> JSONValue {
        let claims = try accessTokenClaims(try request.string("AccessToken"))
        guard let userName = claims["username"]?.stringValue, let user = users.find(userName) else {
            throw PoolError(.notAuthorized, "User does not exist.")
        }
        return .object(JSONObject([("Username", .string(user.userName)), ("UserAttributes", user.attributeList(readableBy: settings))]))
    }

    /// UpdateUserAttributes: the user of a live access token changes attributes the app client may write; any other
    /// is refused as Cognito refuses it.
    func updateUserAttributes(_ request: RequestBody) throws(PoolError) -> JSONValue {
        let claims = try accessTokenClaims(try request.string("AccessToken"))
        guard let userName = claims["username"]?.stringValue, var user = users.find(userName) else {
            throw PoolError(.notAuthorized, "User does not exist.")
        }
        let changes = try request.attributes("UserAttributes")
        guard !changes.isEmpty else { throw .missing("UserAttributes") }
        guard changes.keys.allSatisfy(settings.clientWrites) else {
            throw PoolError(.notAuthorized, "A client attempted to write unauthorized attribute")
        }
        try user.update(changes, now: unixNow)
        users.replace(user)
        return .object(JSONObject([("CodeDeliveryDetailsList", .array([]))]))
    }

    /// RevokeToken: the refresh token stops working, and so do the access tokens issued with it.
    func revokeToken(_ request: RequestBody) throws(PoolError) -> JSONValue {
        try checkClient(request)
        try refreshTokens.revoke(try request.string("Token"), clientId: settings.clientId)
        return .object(JSONObject())
    }

    private func sign(_ user: PoolUser, authTime: Int64, now: Int64) throws(PoolError) -> IssuedTokens {
        do {
            return try issuer.issue(
                subject: user.sub, userName: user.userName, attributes: user.attributes.filter { settings.clientReads($0.key) },
                authTime: authTime, now: now)
        } catch {
            throw PoolError(.internalError, "The tokens could not be signed: \"\(error)\".")
        }
    }

    private func originJTI(of accessToken: String, now: Int64) throws(PoolError) -> String {
        guard let claims = try? JWT.verify(accessToken, key: issuer.key, now: now), let origin = claims["origin_jti"]?.stringValue else {
            throw PoolError(.internalError, "A token just issued has no readable \"origin_jti\".")
        }
        return origin
    }

    /// The claims of an access token this pool issued, still valid and (unless `refusingRevoked` is false, as for API
    /// Gateway's authorizer, which cannot see revocation) not revoked.
    func accessTokenClaims(_ token: String, refusingRevoked: Bool = true) throws(PoolError) -> JSONObject {
        let claims: JSONObject
        do {
            claims = try JWT.verify(token, key: issuer.key, now: unixNow)
        } catch {
            if case .expired = error { throw PoolError(.notAuthorized, "Access Token has expired.") }
            throw PoolError(.notAuthorized, "Invalid Access Token: \(error.description)")
        }
        guard claims["token_use"]?.stringValue == "access", claims["iss"]?.stringValue == issuer.issuer else {
            throw PoolError(.notAuthorized, "Invalid Access Token: it is not an access token of this pool.")
        }
        if refusingRevoked, let origin = claims["origin_jti"]?.stringValue, refreshTokens.isRevoked(originJTI: origin) {
            throw PoolError(.notAuthorized, "Access Token has been revoked.")
        }
        return claims
    }
}
