import ChallengeCrypto

/// What a step may know when it builds a challenge or judges an answer, injected by the engine so that steps stay
/// pure and testable.
public struct StepContext: Sendable {
    /// Whom the sign-in is for.
    public let user: UserIdentity
    /// The user's attributes as Cognito sent them (none for an unknown user).
    public let userAttributes: [String: String]
    /// True when Cognito does not know the user (the pool answers unknown users with challenges too, so that
    /// sign-ins do not reveal which users exist).
    public let userNotFound: Bool
    /// The current time, in Unix seconds.
    public let now: Int64
    /// Where the step's random choices come from.
    public let random: any RandomSource
    /// The limits every custom step follows.
    public let policy: ChallengePolicy
    /// The step's position among the flow's custom steps, from 0.
    public let stepIndex: Int
    /// At Create, which attempt at this step is being built, from 1; nil at Verify, where Cognito sends no session.
    public let attempt: Int?
    /// At Create, the seal of the previous attempt at this step when the last answer to it was wrong; at Verify,
    /// the seal of the challenge being answered.
    public let seal: ChallengeSeal?
    /// What the app passed as `ClientMetadata` with this call (e.g. `method`); empty when it passed nothing.
    /// The client chooses it, so it may steer a choice the user is allowed to make, never a check.
    public let clientMetadata: [String: String]
    /// Keys for the step's own signed data, derived from the deployment's secret for this step's kind.
    public let keys: StepKeys
    /// For a step that ``ChallengeStep/keepsUserRecord``, the string fields of the record the state store keeps for
    /// this user and step, as read for this call; nil when there is none, and always nil for an unknown user or a user
    /// without a `sub` attribute.
    public let userRecord: [String: String]?
    /// Derives decoy destinations for unknown users (see `EmailMask.decoy`).
    let decoyKey: [UInt8]
    /// At Verify, the hasher that made ``seal``, for ``sealMatches(_:)``.
    let sealHasher: AnswerHasher?

    /// A context for calling a step directly, e.g. in a unit test of the step. `keys` defaults to a fixed key that
    /// is public here, so only a test may rely on it; the engine always passes keys derived from its secret.
    public init(
        user: UserIdentity, userAttributes: [String: String], userNotFound: Bool = false, now: Int64,
        random: any RandomSource, policy: ChallengePolicy, stepIndex: Int = 0, attempt: Int? = 1,
        seal: ChallengeSeal? = nil, clientMetadata: [String: String] = [:],
        keys: StepKeys = StepKeys(current: ("test", Array("StepContext test key, never for production".utf8))),
        userRecord: [String: String]? = nil
    ) {
        self.init(
            user: user, userAttributes: userAttributes, userNotFound: userNotFound, now: now, random: random,
            policy: policy, stepIndex: stepIndex, attempt: attempt, seal: seal, clientMetadata: clientMetadata,
            keys: keys, userRecord: userRecord, decoyKey: [], sealHasher: nil)
    }

    init(
        user: UserIdentity, userAttributes: [String: String], userNotFound: Bool, now: Int64, random: any RandomSource,
        policy: ChallengePolicy, stepIndex: Int, attempt: Int?, seal: ChallengeSeal?, clientMetadata: [String: String],
        keys: StepKeys, userRecord: [String: String]?, decoyKey: [UInt8], sealHasher: AnswerHasher?
    ) {
        self.user = user
        self.userAttributes = userAttributes
        self.userNotFound = userNotFound
        self.now = now
        self.random = random
        self.policy = policy
        self.stepIndex = stepIndex
        self.attempt = attempt
        self.seal = seal
        self.clientMetadata = clientMetadata
        self.keys = keys
        self.userRecord = userRecord
        self.decoyKey = decoyKey
        self.sealHasher = sealHasher
    }

    /// At Verify, true when `answer` is the answer ``seal`` was made for (compared as its keyed hash, in constant
    /// time), for a step whose answer carries the sealed value inside it (a passkey assertion's `clientDataJSON`
    /// holds the challenge) and so judges answers itself. `answer` is hashed as given: pass it as the step's
    /// ``ChallengeStep/normalize(_:)`` would have left the sealed answer. False at Create, and in a context made
    /// with the public initializer, which has no key to check a seal with.
    public func sealMatches(_ answer: String) -> Bool {
        guard let seal, let sealHasher else { return false }
        let candidate = sealHasher.hash(
            normalizedAnswer: answer, kind: seal.kind, stepIndex: seal.stepIndex, expiresAt: seal.expiresAt, user: user)
        return constantTimeEquals(candidate, seal.answerHash)
    }

    /// `count` bytes that look random and are the same every time for the same user name (in any case), `purpose`
    /// and deployment: a keyed hash under the deployment's decoy key (`DECOY_MASK_SECRET`), so nobody without it can
    /// tell which bytes a name gets. For a step that answers an unknown user, or a user without what the step needs,
    /// with made-up data shaped like a real user's (a passkey step's credential ids).
    public func decoyBytes(for purpose: String, count: Int) -> [UInt8] {
        var bytes: [UInt8] = []
        var block = 0
        while bytes.count < count {
            bytes += HMACSHA256.authenticationCode(
                key: decoyKey, message: "decoy-bytes/v1\u{0}\(purpose)\u{0}\(block)\u{0}\(user.userName.lowercased())")
            block += 1
        }
        return Array(bytes.prefix(count))
    }

    /// A destination shown to an unknown user in place of a masked address: the same for the same user name every
    /// time, and shaped like `EmailMask.mask`'s output, so it cannot be told from a real one.
    public var decoyEmailDestination: String {
        EmailMask.decoy(for: user.userName, key: decoyKey)
    }

    /// Like ``decoyEmailDestination``, shaped like `PhoneMask.mask`'s output.
    public var decoyPhoneDestination: String {
        PhoneMask.decoy(for: user.userName, key: decoyKey)
    }

    /// The destination to show for an email: the user's own `email` attribute masked, whether or not anything can be
    /// sent to it (an unverified address gets nothing, but showing a decoy instead would tell such users apart), or
    /// ``decoyEmailDestination`` for a user without one and for an unknown user.
    public var emailDestination: String {
        guard !userNotFound, let email = userAttributes["email"], !email.isEmpty else { return decoyEmailDestination }
        return EmailMask.mask(email)
    }

    /// Like ``emailDestination``, for the `phone_number` attribute.
    public var phoneDestination: String {
        guard !userNotFound, let number = userAttributes["phone_number"], !number.isEmpty else { return decoyPhoneDestination }
        return PhoneMask.mask(number)
    }

    /// When a challenge sealed now expires: `now` plus ``ChallengePolicy/validitySeconds``.
    public var expiresAt: Int64 { now + Int64(policy.validitySeconds) }

    /// At Create, what a step that delivers a secret (a code, a link's token) seals: the previous attempt's secret
    /// while it is valid, so the user never holds two and nothing is sent again, or else a new one from
    /// `makeSecret`.
    public func deliveredSecret(_ makeSecret: () throws -> String) rethrows -> DeliveredSecret {
        if let live = liveSeal {
            return DeliveredSecret(sealing: .previous(live), newSecret: nil, expiresInSeconds: max(0, live.expiresAt - now))
        }
        let secret = try makeSecret()
        return DeliveredSecret(sealing: .answer(secret), newSecret: secret, expiresInSeconds: expiresAt - now)
    }

    /// At Create, the previous attempt's seal when it is still valid (a step that delivers a code keeps it in force,
    /// so the user never holds two codes); nil otherwise.
    public var liveSeal: ChallengeSeal? {
        guard attempt != nil, let seal, seal.expiresAt > now else { return nil }
        return seal
    }
}

/// What ``StepContext/deliveredSecret(_:)`` chose.
public struct DeliveredSecret: Sendable {
    /// What to seal.
    public let sealing: SealedAnswer
    /// The secret to deliver; nil when the one delivered earlier stays in force.
    public let newSecret: String?
    /// Seconds until the secret in force expires, for the public parameters.
    public let expiresInSeconds: Int64
}
