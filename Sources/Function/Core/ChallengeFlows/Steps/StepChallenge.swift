/// What a step's Create returns: what the client sees, what the engine seals, and what to deliver.
public struct StepChallenge: Sendable, Equatable {
    /// Sent to the client as `publicChallengeParameters` (never the answer). The engine adds `challenge` and
    /// `attemptsLeft`.
    public var publicParameters: [String: String]
    /// What the engine seals.
    public var sealing: SealedAnswer
    /// A message to deliver before Cognito is answered; nil when nothing is sent.
    public var delivery: CodeMessage?
    /// Why a real user's code was not sent (the user is answered as an unknown user would be), if it was not.
    public var unusableAddress: UnusableAddress?
    /// The channel the secret goes by, or would have gone by when nothing is sent; nil means the delivery's
    /// channel, or the step's only one. Set by a step that may send by more than one channel, so that a code sealed for one
    /// channel is never taken for a code sent by another.
    public var channel: MessageChannel?

    /// A challenge; by default nothing is delivered.
    public init(
        publicParameters: [String: String], sealing: SealedAnswer, delivery: CodeMessage? = nil,
        unusableAddress: UnusableAddress? = nil, channel: MessageChannel? = nil
    ) {
        self.publicParameters = publicParameters
        self.sealing = sealing
        self.delivery = delivery
        self.unusableAddress = unusableAddress
        self.channel = channel
    }
}

/// What the engine seals for a challenge.
public enum SealedAnswer: Sendable, Equatable {
    /// The expected answer: the engine seals its keyed hash (after ``ChallengeStep/normalize(_:)``) and, unless the
    /// step judges answers itself, compares answers with it in constant time.
    case answer(String)
    /// A random nonce nobody can answer: the seal only marks the step and its expiry, and the step judges answers
    /// itself (``ChallengeStep/judge(_:context:)``), or another part does (a CAPTCHA provider).
    case nonce
    /// The seal of the previous attempt, still valid (``StepContext/liveSeal``): the answer stays the same, and
    /// nothing is delivered again.
    case previous(ChallengeSeal)
}

/// How a step judged an answer.
public enum AnswerJudgement: Sendable, Equatable {
    /// The engine decides: the answer is right when its keyed hash matches the seal.
    case matchSeal
    /// The step found the answer right.
    case correct
    /// The step found the answer right, and it may be used only once: `sequence` grows with each answer the step
    /// accepts (a TOTP's time step), and where the limits across sign-ins are kept, an answer whose sequence is not
    /// above the last one accepted for this user and step is refused as a replay.
    case correctOnce(sequence: Int64)
    /// The step found the answer right, provided that `record` replaces the user's record
    /// (``StepContext/userRecord``, its string fields; fields the record holds that are not strings stay as they
    /// are) in one conditional write on the version the step judged from. When another write came first, the step
    /// judges the same answer again from the record now stored, so that of two answers decided from one record
    /// only one takes effect (an assertion replayed or sent twice at once, a counter that must rise). Only for a
    /// step that ``ChallengeStep/keepsUserRecord``; where no record can be written the answer is refused.
    case correctUpdating(record: [String: String])
    /// The step found the answer wrong.
    case wrong
    /// Refused whatever the answer: the user's address could not have received the code.
    case unusableAddress(UnusableAddress)
    /// Refused whatever the answer, for a reason the step names (for logs, e.g. "the user has no
    /// \"custom:totp_secret\" attribute"); it must not hold an answer or a secret.
    case refused(reason: String)
}
