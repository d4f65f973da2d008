/// The refresh tokens the pool issued, and what revoking one takes away: the token itself and every access token
/// issued along with it (by their `origin_jti`).
struct RefreshTokenStore: Sendable {
    struct Grant: Sendable {
        let userName: String
        let clientId: String
        /// The sign-in's time, kept in refreshed tokens' `auth_time`.
        let authTime: Int64
        var originJTIs: Set<String>
        var revoked = false
    }

    private var grants: [String: Grant] = [:]
    private var revokedOrigins: Set<String> = []

    mutating func record(_ token: String, _ grant: Grant) {
        grants[token] = grant
    }

    /// The live grant behind `token`, for the refresh flow.
    func grant(for token: String, clientId: String) throws(PoolError) -> Grant {
        guard let grant = grants[token], grant.clientId == clientId else {
            throw PoolError(.notAuthorized, "Invalid Refresh Token.")
        }
        guard !grant.revoked else { throw PoolError(.notAuthorized, "Refresh Token has been revoked.") }
        return grant
    }

    /// Notes a token issued from `token`'s grant by a refresh.
    mutating func addOrigin(_ originJTI: String, to token: String) {
        grants[token]?.originJTIs.insert(originJTI)
    }

    /// Revokes `token` and the tokens issued with it. An unknown token is not an error (RFC 7009).
    mutating func revoke(_ token: String, clientId: String) throws(PoolError) {
        guard let grant = grants[token] else { return }
        guard grant.clientId == clientId else {
            throw PoolError(.notAuthorized, "The refresh token was not issued to client \"\(clientId)\".")
        }
        grants[token]?.revoked = true
        revokedOrigins.formUnion(grant.originJTIs)
    }

    func isRevoked(originJTI: String) -> Bool {
        revokedOrigins.contains(originJTI)
    }
}
