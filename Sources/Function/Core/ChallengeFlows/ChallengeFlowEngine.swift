import ChallengeCrypto

/// The Define, Create and Verify decisions for one configured sign-in flow.
///
/// Pure: no I/O. Randomness is injected, the current time is passed in, and a code that must be sent comes back
/// as a ``CodeMessage`` for the caller to deliver. What each custom step asks and how it judges answers is the
/// step's own (``ChallengeStep``); the engine finds the step that is due, seals its answer, and enforces the
/// attempts, the expiry and the refusal of unknown users.
public struct ChallengeFlowEngine: Sendable {
    /// The flow this engine answers for.
    public let flow: SignInFlow
    /// The limits every step follows.
    public let policy: ChallengePolicy
    /// The CAPTCHA a Create may put in front of a step that proves identity, when the limits across sign-ins ask
    /// for one (`CAPTCHA_STEP_UP_AFTER_FAILURES`); nil when step-ups are off. See ``createStepUp(_:user:now:)``.
    public let stepUp: CaptchaStep?
    private let keys: ChallengeKeys
    /// Each step's own keys, derived once: they depend only on the secrets and the kind.
    private let stepKeys: [ChallengeKind: StepKeys]
    private let random: any RandomSource

    /// An engine for `flow`, with `stepUp` as the CAPTCHA it may put in front of a step that proves identity;
    /// throws when one of its steps cannot work as configured.
    public init(
        flow: SignInFlow, policy: ChallengePolicy, keys: ChallengeKeys, random: any RandomSource,
        stepUp: CaptchaStep? = nil
    ) throws(ConfigurationError) {
        for step in flow.allSteps { try step.checkConfiguration(in: flow) }
        self.flow = flow
        self.policy = policy
        self.stepUp = stepUp
        self.keys = keys
        stepKeys = Dictionary((flow.allSteps + (stepUp.map { [$0] } ?? [])).map { ($0.kind, keys.stepKeys(for: $0.kind)) }) {
            first, _ in first
        }
        self.random = random
    }

    /// An engine whose only key is `secret` (no rotation in progress, decoys derived from `secret`).
    public init(
        flow: SignInFlow, policy: ChallengePolicy, secret: [UInt8], random: any RandomSource
    ) throws(ConfigurationError) {
        try self.init(flow: flow, policy: policy, keys: ChallengeKeys(current: secret), random: random)
    }

    /// The flow's step that writes seals of `kind`, if there is one (the step-up CAPTCHA for a CAPTCHA when the
    /// flow has none).
    public func step(for kind: ChallengeKind) -> (any ChallengeStep)? {
        flow.allSteps.first { $0.kind == kind } ?? (kind == .captcha ? stepUp : nil)
    }

    /// Where the sign-in of `session` stands.
    public func progress(of session: [SessionEntry]) -> FlowProgress {
        FlowProgress(session: session, flow: flow, policy: policy, admitsStepUp: stepUp != nil)
    }

    // MARK: Define

    /// Chooses the next challenge from the session alone.
    public func define(_ request: DefineAuthChallengeRequest) -> DefineDecision {
        switch progress(of: request.session) {
        case .awaitingPasswordVerifier: .present(.passwordVerifier)
        case .customStep: .present(.customChallenge)
        case .complete: .issueTokens
        case .failed(let failure): .fail(failure)
        }
    }

    // MARK: Create

    /// The step whose challenge a Create for `request` builds; nil when no custom challenge is due (or no method was
    /// chosen where one must be). Tells the caller whether to read the user's record first
    /// (``ChallengeStep/keepsUserRecord``).
    public func stepDue(for request: CreateAuthChallengeRequest) -> (any ChallengeStep)? {
        try? dueStep(for: request).step
    }

    /// True when a Create for `request` may put the step-up CAPTCHA in front of the step due: step-ups are on, the
    /// step proves identity, and the sign-in has not passed one yet. Whether it does is for the limits to say
    /// (``createStepUp(_:user:now:)``).
    public func admitsStepUp(_ request: CreateAuthChallengeRequest) -> Bool {
        guard stepUp != nil, let due = try? dueStep(for: request) else { return false }
        return due.step.provesIdentity && !due.step.resistsGuessing && !due.passedStepUp
    }

    /// The custom step due, and where the session stands with it. At a position with choices: the step issued there
    /// before, or else the one the app named in `ClientMetadata` `method` with the answer that chose it.
    private func dueStep(for request: CreateAuthChallengeRequest) throws(CreateChallengeError) -> DueStep {
        guard request.challengeName == .customChallenge else { throw .notACustomChallenge(request.challengeName) }
        let progress = progress(of: request.session)
        guard case .customStep(let index, let kind, let attempt, let previousSeal, let passedStepUp) = progress else {
            throw .noCustomStepDue(progress)
        }
        func due(_ step: any ChallengeStep) -> DueStep {
            DueStep(index: index, step: step, attempt: attempt, previousSeal: previousSeal, passedStepUp: passedStepUp)
        }
        guard let offered = flow.choices[index] else { return due(flow.steps[index]) }
        if previousSeal != nil, let issued = offered.first(where: { $0.kind == kind }) { return due(issued) }
        let named = request.clientMetadata?[MethodChoiceStep.metadataKey].map { $0.lowercased() }
        guard let chosen = offered.first(where: { $0.name == named }) else { throw .noMethodChosen(offered: offered.map(\.name)) }
        return due(chosen)
    }

    /// A custom step due in a sign-in, and where the sign-in stands with it.
    private struct DueStep {
        let index: Int
        let step: any ChallengeStep
        let attempt: Int
        let previousSeal: ChallengeSeal?
        let passedStepUp: Bool
    }

    /// Builds the custom challenge that is due. Throws when the session has no custom challenge due, which means
    /// Cognito was not driven by this flow's Define, or when the step cannot build its challenge. For a step that
    /// ``ChallengeStep/keepsUserRecord``, `userRecord` holds the string fields of the user's record (see
    /// ``StepContext/userRecord``).
    public func create(
        _ request: CreateAuthChallengeRequest, user: UserIdentity, now: Int64, userRecord: [String: String]? = nil
    ) throws -> IssuedChallenge {
        try issue(try dueStep(for: request), request: request, user: user, now: now, userRecord: userRecord)
    }

    /// Builds the step-up CAPTCHA in place of the step due (which follows once it is passed): for the position and
    /// attempt of that step, judged like the flow's own CAPTCHA. Throws like ``create(_:user:now:userRecord:)``, and
    /// when step-ups are off.
    public func createStepUp(_ request: CreateAuthChallengeRequest, user: UserIdentity, now: Int64) throws -> IssuedChallenge {
        let due = try dueStep(for: request)
        guard let stepUp else { throw CreateChallengeError.noCustomStepDue(progress(of: request.session)) }
        return try issue(
            DueStep(index: due.index, step: stepUp, attempt: due.attempt, previousSeal: nil, passedStepUp: false),
            request: request, user: user, now: now, userRecord: nil)
    }

    private func issue(
        _ due: DueStep, request: CreateAuthChallengeRequest, user: UserIdentity, now: Int64, userRecord: [String: String]?
    ) throws -> IssuedChallenge {
        let (index, step, attempt, previousSeal) = (due.index, due.step, due.attempt, due.previousSeal)
        let kind = step.kind
        let context = StepContext(
            user: user, userAttributes: request.userAttributes, userNotFound: request.userNotFound, now: now,
            random: random, policy: policy, stepIndex: index, attempt: attempt, seal: previousSeal,
            clientMetadata: request.clientMetadata ?? [:], keys: stepKeys[kind] ?? keys.stepKeys(for: kind),
            userRecord: userRecord, decoyKey: keys.decoy, sealHasher: nil)
        let made = try step.create(context)
        let seal: ChallengeSeal
        var delivery = made.delivery
        var reused = false
        switch made.sealing {
        case .answer(let answer):
            seal = self.seal(normalizedAnswer: step.normalize(answer), kind: kind, stepIndex: index, user: user, now: now)
        case .nonce:
            let nonce = step.normalize(Hex.encode(try random.bytes(count: 16)))
            seal = self.seal(normalizedAnswer: nonce, kind: kind, stepIndex: index, user: user, now: now)
        case .previous(let earlier):
            seal = earlier
            delivery = nil
            reused = true
        }
        var publicParameters = made.publicParameters
        publicParameters["challenge"] = kind.rawValue
        publicParameters["attemptsLeft"] = String(policy.maxAttempts - attempt + 1)
        let channel = made.delivery?.channel ?? made.channel
            ?? (step.deliveryChannels.count == 1 ? step.deliveryChannels.first : nil)
        return IssuedChallenge(
            kind: kind, seal: seal, publicParameters: publicParameters, delivery: delivery,
            reusedEarlierCode: reused, unusableAddress: made.unusableAddress, channel: channel,
            passedStepUp: stepUp != nil && due.passedStepUp)
    }

    /// The same challenge answered with `live`, a code sent earlier (in another sign-in) that is still valid:
    /// nothing is sent.
    public func reusing(_ live: ChallengeSeal, for issued: IssuedChallenge, now: Int64) -> IssuedChallenge {
        var publicParameters = issued.publicParameters
        publicParameters["expiresInSeconds"] = String(max(0, live.expiresAt - now))
        return IssuedChallenge(
            kind: issued.kind, seal: live, publicParameters: publicParameters, delivery: nil, reusedEarlierCode: true,
            unusableAddress: issued.unusableAddress, channel: issued.channel, passedStepUp: issued.passedStepUp)
    }

    /// The same challenge with its code withheld (e.g. by a send throttle): it looks the same, and nothing is sent.
    public func withholding(_ issued: IssuedChallenge) -> IssuedChallenge {
        IssuedChallenge(
            kind: issued.kind, seal: issued.seal, publicParameters: issued.publicParameters, delivery: nil,
            reusedEarlierCode: false, unusableAddress: issued.unusableAddress, channel: issued.channel,
            passedStepUp: issued.passedStepUp)
    }

    private func seal(
        normalizedAnswer: String, kind: ChallengeKind, stepIndex: Int, user: UserIdentity, now: Int64
    ) -> ChallengeSeal {
        let expiresAt = now + Int64(policy.validitySeconds)
        let hash = keys.current.hash(
            normalizedAnswer: normalizedAnswer, kind: kind, stepIndex: stepIndex, expiresAt: expiresAt, user: user)
        return ChallengeSeal(kind: kind, stepIndex: stepIndex, expiresAt: expiresAt, answerHash: hash, keyID: keys.current.keyID)
    }

    // MARK: Verify

    /// Judges an answer: by the step's own judgement, or against the sealed expectation in constant time.
    ///
    /// Steps that prove identity never pass for an unknown user, and a step may refuse every answer (a code never
    /// sent to an unusable address); a CAPTCHA is judged on its answer alone for everyone, so that passing it does
    /// not tell real users from unknown ones.
    public func verify(_ request: VerifyAuthChallengeResponseRequest, user: UserIdentity, now: Int64) -> VerifyOutcome {
        verdict(on: request, user: user, now: now).outcome
    }

    /// Like ``verify(_:user:now:)``, with what a right answer may be used for only once (see
    /// ``AnswerJudgement/correctOnce(sequence:)``), for the limits across sign-ins to record, and the record a right
    /// answer must write (see ``AnswerJudgement/correctUpdating(record:)``). For a step that
    /// ``ChallengeStep/keepsUserRecord``, `userRecord` holds the string fields of the user's record (see
    /// ``StepContext/userRecord``).
    public func verdict(
        on request: VerifyAuthChallengeResponseRequest, user: UserIdentity, now: Int64, userRecord: [String: String]? = nil
    ) -> Verdict {
        verdict(
            on: request, seal: ChallengeSeal(privateParameters: request.privateChallengeParameters), user: user, now: now,
            userRecord: userRecord)
    }

    /// The same, with `request`'s seal already read from its private parameters (nil when they hold none), for a
    /// caller that read it first.
    package func verdict(
        on request: VerifyAuthChallengeResponseRequest, seal: ChallengeSeal?, user: UserIdentity, now: Int64,
        userRecord: [String: String]? = nil
    ) -> Verdict {
        guard let seal, let step = step(for: seal.kind) else { return Verdict(.notIssuedByThisFlow) }
        guard let hasher = keys.hasher(forKeyID: seal.keyID) else { return Verdict(.retiredKey) }
        let candidate = hasher.hash(
            normalizedAnswer: step.normalize(request.challengeAnswer), kind: seal.kind, stepIndex: seal.stepIndex,
            expiresAt: seal.expiresAt, user: user)
        // Compare first, whatever the outcome, so that every path costs the same.
        let matches = constantTimeEquals(candidate, seal.answerHash)
        if step.provesIdentity && request.userNotFound { return Verdict(.unknownUser) }
        let context = StepContext(
            user: user, userAttributes: request.userAttributes, userNotFound: request.userNotFound, now: now,
            random: random, policy: policy, stepIndex: seal.stepIndex, attempt: nil, seal: seal,
            clientMetadata: request.clientMetadata ?? [:], keys: stepKeys[seal.kind] ?? keys.stepKeys(for: seal.kind),
            userRecord: userRecord, decoyKey: keys.decoy, sealHasher: hasher)
        let judgement = step.judge(request.challengeAnswer, context: context)
        switch judgement {
        case .unusableAddress(let problem): return Verdict(.unusableAddress(problem))
        case .refused(let reason): return Verdict(.refused(reason))
        case .correctUpdating where !step.keepsUserRecord:
            return Verdict(.refused("the step \"\(step.name)\" asked to store a record but keeps none (keepsUserRecord is false)"))
        case .matchSeal, .correct, .correctOnce, .correctUpdating, .wrong: break
        }
        if seal.expiresAt <= now { return Verdict(.expired) }
        switch judgement {
        case .correct: return Verdict(.correct)
        case .correctOnce(let sequence): return Verdict(.correct, usedSequence: sequence)
        case .correctUpdating(let record): return Verdict(.correct, updatedRecord: record)
        case .matchSeal where matches: return Verdict(.correct)
        default: return Verdict(.wrong)
        }
    }
}

/// What Verify found, and what a right answer used up.
public struct Verdict: Sendable, Equatable {
    /// The judgement.
    public let outcome: VerifyOutcome
    /// For a right answer that may be used only once, its sequence (see ``AnswerJudgement/correctOnce(sequence:)``).
    public let usedSequence: Int64?
    /// For a right answer that holds only if the user's record is replaced, the record's new string fields (see
    /// ``AnswerJudgement/correctUpdating(record:)``): the caller writes them on the version the step judged from, or
    /// refuses the answer.
    public let updatedRecord: [String: String]?

    public init(_ outcome: VerifyOutcome, usedSequence: Int64? = nil, updatedRecord: [String: String]? = nil) {
        self.outcome = outcome
        self.usedSequence = usedSequence
        self.updatedRecord = updatedRecord
    }
}
