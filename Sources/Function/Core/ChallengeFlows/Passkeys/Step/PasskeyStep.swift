import ChallengeCrypto
import WebAuthnCeremonies

/// Sign-in with a passkey (`passkey`, kind `PASSKEY`): WebAuthn authentication (§7.2) with user verification, so a
/// passkey alone proves who the user is (`CHALLENGE_FLOW=passkey`), or follows the password (`srp+passkey`).
///
/// Built on the public step API alone. Create issues a fresh 32-byte challenge and seals it (single use, expiring
/// with `CODE_TTL_SECONDS`); the public parameter `options` is the `PublicKeyCredentialRequestOptionsJSON` for
/// `PublicKeyCredential.parseRequestOptionsFromJSON`. The answer is the `AuthenticationResponseJSON` that
/// `credential.toJSON()` gives: the challenge in its `clientDataJSON` must be the sealed one, and the assertion must
/// verify against the user's passkeys (`PasskeyAccount`, the step's record per user, which the registration API
/// writes). A right answer stores the credential's new counter, backup state and last use, and marks the challenge
/// used, in one conditional write: an assertion replayed, or sent twice at once, is accepted once, and a counter
/// that does not rise is refused as a possibly cloned authenticator.
///
/// Unknown users, and users without passkeys, are offered decoy credentials derived from their user name (the same
/// every time), so that nobody can tell from Create's answer whether a user exists or has passkeys; every answer of
/// theirs is refused.
public struct PasskeyStep: ChallengeStep {
    /// The relying party and ceremony settings; nil until `PASSKEY_RP_ID` is set (a flow with the step is then
    /// refused at start-up).
    public let settings: PasskeySettings?

    /// `passkey`.
    public var name: String { "passkey" }
    /// `PASSKEY`.
    public var kind: ChallengeKind { Self.kind }
    /// A passkey with user verification is something only the user has and unlocks.
    public var provesIdentity: Bool { true }
    /// The user's passkeys and their counters.
    public var keepsUserRecord: Bool { true }
    /// An assertion needs the passkey's private key: there is nothing to guess.
    public var resistsGuessing: Bool { true }

    /// `PASSKEY`: also the kind of the user's record in the state store (`StateKey.userRecord`).
    public static let kind = ChallengeKind(rawValue: "PASSKEY")!
    /// The record field that holds the challenges already answered, so that none is accepted twice.
    public static let usedChallengesField = "usedChallenges"

    public init(settings: PasskeySettings?) {
        self.settings = settings
    }

    /// Refuses a flow with this step while no relying party is configured.
    public func checkConfiguration(in flow: SignInFlow) throws(ConfigurationError) {
        guard settings != nil else {
            throw .missing(
                variable: "PASSKEY_RP_ID",
                hint: "the passkey step needs the relying party's domain, such as example.com (localhost for local runs), and PASSKEY_ALLOWED_ORIGINS")
        }
    }

    /// A fresh challenge and the request options, with an empty `allowCredentials` for everyone: the browser offers
    /// the user's discoverable passkeys (registration requires resident keys), and the answer is the same for every
    /// user name, whether the user exists or has passkeys or not.
    public func create(_ context: StepContext) throws -> StepChallenge {
        guard let settings else { throw PasskeyStepError.notConfigured }
        let challenge = Base64URL.encode(try context.random.bytes(count: RequestOptions.challengeLength))
        // The browser gives up no later than the seal expires.
        let timeout = min(settings.timeoutMilliseconds, Int(context.expiresAt - context.now) * 1000)
        let options = RequestOptions(challenge: challenge, timeoutMilliseconds: timeout, rpID: settings.relyingParty.id)
        return StepChallenge(publicParameters: ["options": options.json], sealing: .answer(challenge))
    }

    /// Judges an `AuthenticationResponseJSON`: the challenge it signed must be the sealed one, not answered before,
    /// and the assertion must verify against one of the user's passkeys with every check of WebAuthn §7.2.
    public func judge(_ answer: String, context: StepContext) -> AnswerJudgement {
        guard let settings, let seal = context.seal, let challenge = RequestOptions.challenge(inResponse: answer),
              context.sealMatches(Base64URL.encode(challenge))
        else { return .wrong }
        guard let record = context.userRecord, let account = try? PasskeyAccount(fields: record),
              !account.credentials.isEmpty
        else { return .wrong }
        var used = UsedChallenges(record[Self.usedChallengesField], now: context.now)
        let marker = UsedChallenges.marker(for: seal)
        if used.contains(marker) {
            return .refused(reason: "the challenge was answered already (an assertion replayed, or sent twice at once)")
        }
        let verified: VerifiedAssertion
        do {
            verified = try WebAuthn.verifyAssertion(
                answer,
                expecting: AssertionExpectation(
                    challenge: challenge, relyingParty: settings.relyingParty, userHandle: account.handle,
                    requireUserVerification: true),
                credentials: account.credentials)
        } catch {
            switch error {
            case .counterRegression, .originNotAllowed, .rpIDMismatch:
                // An operator should hear of these: a cloned authenticator, or a page or RP ID not configured.
                return .refused(reason: "\(error)")
            default:
                return .wrong
            }
        }
        guard let index = account.credentials.firstIndex(where: { $0.id == verified.credentialID }) else { return .wrong }
        var updated = account
        updated.credentials[index].signCount = verified.signCount
        updated.credentials[index].backedUp = verified.backedUp
        updated.credentials[index].lastUsedAt = context.now
        used.insert(marker, expiresAt: seal.expiresAt)
        var fields = record
        fields.merge(updated.fields) { $1 }
        fields[Self.usedChallengesField] = used.text
        return .correctUpdating(record: fields)
    }
}

/// Why the passkey step could not build a challenge.
public enum PasskeyStepError: Error, Sendable, CustomStringConvertible {
    /// No relying party is configured (`PASSKEY_RP_ID`).
    case notConfigured

    public var description: String {
        switch self {
        case .notConfigured: "The passkey step has no relying party: set PASSKEY_RP_ID and PASSKEY_ALLOWED_ORIGINS."
        }
    }
}
