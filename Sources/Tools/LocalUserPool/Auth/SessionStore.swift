import ChallengeCrypto
import CognitoSRP
import Platform

/// Sign-in sessions waiting for the client's answer, under opaque random strings. Each string works once and only
/// until it expires; a used or expired string is told apart from one never issued.
struct SessionStore: Sendable {
    private struct Open: Sendable {
        let session: AuthSession
        let expiresAt: ContinuousClock.Instant
    }

    /// Random bytes behind one session string.
    static let sessionByteCount = 96

    let lifetime: Duration
    private var open: [String: Open] = [:]
    /// Strings already answered, kept until they would have expired.
    private var used: [String: ContinuousClock.Instant] = [:]
    /// PASSWORD_VERIFIER sessions by their base64 `SECRET_BLOCK`, for clients that answer without `Session`.
    private var bySecretBlock: [String: String] = [:]

    init(lifetime: Duration) {
        self.lifetime = lifetime
    }

    /// Stores `session` and returns its new session string.
    mutating func store(_ session: AuthSession, now: ContinuousClock.Instant) throws(PoolError) -> String {
        forgetExpired(now: now)
        let id: String
        do {
            id = Base64.encode(try SystemRandom().bytes(count: Self.sessionByteCount))
        } catch {
            throw PoolError(.internalError, "The random source failed: \"\(error)\".")
        }
        open[id] = Open(session: session, expiresAt: now + lifetime)
        if case .passwordVerifier(_, _, let block)? = session.pending { bySecretBlock[Base64.encode(block)] = id }
        return id
    }

    /// Takes the session out for answering: it cannot be used again.
    mutating func take(_ id: String, now: ContinuousClock.Instant) throws(PoolError) -> AuthSession {
        guard let entry = open.removeValue(forKey: id) else {
            if used[id] != nil {
                throw PoolError(.notAuthorized, "Invalid session for the user, session can only be used once.")
            }
            throw PoolError(.notAuthorized, "Invalid session for the user.")
        }
        used[id] = entry.expiresAt
        if case .passwordVerifier(_, _, let block)? = entry.session.pending { bySecretBlock[Base64.encode(block)] = nil }
        guard entry.expiresAt > now else {
            throw PoolError(.notAuthorized, "Invalid session for the user, session is expired.")
        }
        return entry.session
    }

    /// Takes the PASSWORD_VERIFIER session that issued `secretBlock` (base64).
    mutating func take(secretBlock: String, now: ContinuousClock.Instant) throws(PoolError) -> AuthSession {
        guard let id = bySecretBlock[secretBlock] else {
            throw PoolError(.notAuthorized, "Invalid session for the user.")
        }
        return try take(id, now: now)
    }

    /// Forgets strings that expired more than one lifetime ago (until then, their errors stay precise).
    private mutating func forgetExpired(now: ContinuousClock.Instant) {
        let horizon = now - lifetime
        used = used.filter { $0.value > horizon }
        for (id, entry) in open where entry.expiresAt <= horizon {
            open[id] = nil
            if case .passwordVerifier(_, _, let block)? = entry.session.pending { bySecretBlock[Base64.encode(block)] = nil }
        }
    }
}
