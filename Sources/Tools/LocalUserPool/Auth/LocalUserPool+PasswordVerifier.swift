import ChallengeCrypto
import ChallengeFlows
import CognitoSRP
import LosslessJSON
import Platform

extension LocalUserPool {
    /// Random bytes in a `SECRET_BLOCK`.
    static let secretBlockByteCount = 64

    /// Answers `SRP_A` with PASSWORD_VERIFIER: `SALT`, `SRP_B`, `SECRET_BLOCK`, `USER_ID_FOR_SRP`. A user that does not
    /// exist (or has no password) gets a decoy verifier (``decoyVerifier(userName:)``) whose salt is as stable as a
    /// real user's, with a fresh B like every user's, and fails later.
    func passwordVerifierChallenge(_ session: AuthSession, clientPublicA: String) throws(PoolError) -> JSONValue {
        let server: SRPServerSession
        let secretBlock: [UInt8]
        do {
            let verifier = try session.user?.verifier ?? decoyVerifier(userName: session.userName)
            server = try SRPServerSession(verifier: verifier)
            secretBlock = try SystemRandom().bytes(count: Self.secretBlockByteCount)
        } catch {
            throw PoolError(.internalError, "The SRP exchange could not start: \"\(error)\".")
        }
        var next = session
        next.pending = .passwordVerifier(server: server, clientPublicA: clientPublicA, secretBlock: secretBlock)
        let id = try sessions.store(next, now: .now)
        return Self.challengeAnswer(.passwordVerifier, parameters: [
            "SALT": server.saltHex,
            "SRP_B": server.publicB,
            "SECRET_BLOCK": Base64.encode(secretBlock),
            "USERNAME": session.userName,
            "USER_ID_FOR_SRP": session.userName,
        ], session: id)
    }

    /// The verifier a user without one is answered with: its salt (``SRPVerifier/saltByteCount`` bytes, like a real
    /// salt) and the password it is made from are HMAC-SHA256 under the pool's random ``decoyKey`` of the pool id and
    /// the name, so that asking twice for the same unknown name gives the same salt, as a real user's does, while
    /// different names get unrelated salts nobody can work out without the key.
    func decoyVerifier(userName: String) throws(SRPError) -> SRPVerifier {
        func derived(_ purpose: String) -> [UInt8] {
            HMACSHA256.authenticationCode(
                key: decoyKey, message: Array("\(purpose)\u{0}\(settings.userPoolId)\u{0}\(userName)".utf8))
        }
        return try SRPVerifier.make(
            poolName: poolName, userId: userName, password: Hex.encode(derived("password")),
            saltHex: Hex.encode(Array(derived("salt").prefix(SRPVerifier.saltByteCount))))
    }

    /// Whether the client's PASSWORD_VERIFIER answer proves the password. Throws for a claim that is malformed, stale
    /// or made for another `SECRET_BLOCK`.
    func checkPasswordClaim(
        _ responses: [String: String], server: SRPServerSession, clientPublicA: String, secretBlock: [UInt8],
        session: AuthSession
    ) throws(PoolError) -> Bool {
        let claimedBlock = try Self.required("PASSWORD_CLAIM_SECRET_BLOCK", in: responses)
        let signature = try Self.required("PASSWORD_CLAIM_SIGNATURE", in: responses)
        let timestamp = try Self.required("TIMESTAMP", in: responses)
        guard Base64.decode(claimedBlock) == secretBlock else {
            throw PoolError(.notAuthorized, "The PASSWORD_CLAIM_SECRET_BLOCK is not the SECRET_BLOCK this session issued.")
        }
        let correct: Bool
        do {
            correct = try server.verifyPasswordClaim(
                clientPublicA: clientPublicA, poolName: poolName, userId: session.userName, secretBlock: secretBlock,
                timestamp: timestamp, signature: signature, now: unixNow)
        } catch {
            switch error {
            case .staleTimestamp: throw PoolError(.notAuthorized, "The password claim is refused: \(error.description).")
            default: throw PoolError(.invalidParameter, "The password claim is refused: \(error.description).")
            }
        }
        return correct && session.user?.verifier != nil
    }
}
