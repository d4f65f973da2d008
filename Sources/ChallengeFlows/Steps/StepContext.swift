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
    /// Derives decoy destinations for unknown users (see `EmailMask.decoy`).
    let decoyKey: [UInt8]

    /// A context for calling a step directly, e.g. in a unit test of the step.
    public init(
        user: UserIdentity, userAttributes: [String: String], userNotFound: Bool = false, now: Int64,
        random: any RandomSource = SystemRandom(), policy: ChallengePolicy, stepIndex: Int = 0, attempt: Int? = 1,
        seal: ChallengeSeal? = nil
    ) {
        self.init(
            user: user, userAttributes: userAttributes, userNotFound: userNotFound, now: now, random: random,
            policy: policy, stepIndex: stepIndex, attempt: attempt, seal: seal, decoyKey: [])
    }

    init(
        user: UserIdentity, userAttributes: [String: String], userNotFound: Bool, now: Int64, random: any RandomSource,
        policy: ChallengePolicy, stepIndex: Int, attempt: Int?, seal: ChallengeSeal?, decoyKey: [UInt8]
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
        self.decoyKey = decoyKey
    }

    /// When a challenge sealed now expires: `now` plus ``ChallengePolicy/validitySeconds``.
    public var expiresAt: Int64 { now + Int64(policy.validitySeconds) }

    /// At Create, the previous attempt's seal when it is still valid (a step that delivers a code keeps it in force,
    /// so the user never holds two codes); nil otherwise.
    public var liveSeal: ChallengeSeal? {
        guard attempt != nil, let seal, seal.expiresAt > now else { return nil }
        return seal
    }
}
