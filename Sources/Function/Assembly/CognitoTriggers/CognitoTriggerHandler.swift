import Basics
import ChallengeFlows
import LosslessJSON
import Platform
import ServiceClients

/// Answers any of the three custom-auth triggers: reads the event, asks the flow engine, delivers a code when one
/// is due, and returns the whole event with its response filled in.
///
/// One instance serves every invocation of a process, one at a time.
public final class CognitoTriggerHandler {
    /// The decisions of the configured flow.
    public let engine: ChallengeFlowEngine
    private let delivery: any CodeDelivery
    private let clock: @Sendable () -> Int64
    private let time: MonotonicTime
    /// How long deliveries take on each channel, so that a Create that sends nothing takes as long as one that does.
    private var deliveryTimes: [MessageChannel: DeliveryTimeModel]
    private let limiter: SignInLimiter?
    /// The records steps keep per user (``ChallengeStep/keepsUserRecord``), in the limits' store.
    private let userRecords: UserRecords?
    private let siteverify: SiteverifyClient?

    /// A handler for the flow, limits and deliveries `configuration` describes.
    ///
    /// - Parameters:
    ///   - configuration: what the environment configured (``TriggerConfiguration``).
    ///   - delivery: where codes go; by default the one the configuration names.
    ///   - stateStore: where the limits across sign-ins are kept; by default the one the configuration names
    ///     (`STATE_STORE`). Handlers in one process can share a store, as functions share a table.
    ///   - clock: Unix time in seconds; injected by tests.
    ///   - time: the monotonic clock deliveries are timed with and the pause a Create that sends nothing waits with;
    ///     injected by tests.
    public init(
        configuration: TriggerConfiguration, delivery: (any CodeDelivery)? = nil, stateStore: (any StateStore)? = nil,
        clock: @escaping @Sendable () -> Int64 = SystemClock.unixSeconds, time: MonotonicTime = .system
    ) throws(ConfigurationError) {
        engine = try configuration.makeEngine()
        if let delivery {
            self.delivery = delivery
        } else {
            self.delivery = try configuration.makeDelivery(clock: clock)
        }
        self.clock = clock
        self.time = time
        deliveryTimes = configuration.typicalDeliveryTimes.mapValues { DeliveryTimeModel(typical: $0) }
        limiter = try configuration.makeLimiter(store: stateStore)
        userRecords = limiter.map { UserRecords(store: $0.store, recordKey: $0.recordKey) }
        if limiter == nil, engine.stepUp != nil {
            throw .missing(
                variable: "STATE_STORE",
                hint: "CAPTCHA_STEP_UP_AFTER_FAILURES counts wrong answers across sign-ins; set it to \"dynamodb\" with STATE_TABLE (\"memory\" for local runs)")
        }
        if userRecords == nil, let step = engine.flow.allSteps.first(where: \.keepsUserRecord) {
            throw .missing(
                variable: "STATE_STORE",
                hint: "the step \"\(step.name)\" keeps a record per user across sign-ins (e.g. a user's passkeys); set it to \"dynamodb\" with STATE_TABLE (\"memory\" for local runs)")
        }
        do {
            siteverify = try configuration.captchaProvider.map(SiteverifyClient.init(configuration:))
        } catch {
            throw .setting(SettingError(variable: "CAPTCHA_PROVIDER", problem: "cannot be used: \(error)"))
        }
    }

    /// Handles raw event bytes and returns the response event's bytes.
    public func handle(_ bytes: [UInt8]) throws(TriggerError) -> TriggerResult {
        var facts = TriggerFacts()
        return try handle(bytes, facts: &facts)
    }

    /// Handles raw event bytes, recording in `facts` what happened as it goes: when the invocation fails, `facts`
    /// still tell how far it got (the result's ``TriggerResult/facts`` are the same when it succeeds).
    public func handle(_ bytes: [UInt8], facts: inout TriggerFacts) throws(TriggerError) -> TriggerResult {
        try handle(facts: &facts) { () throws(EventDecodingError) in try AuthChallengeEvent(parsing: bytes) }
    }

    /// Handles an event already read with `ParsedDocument(parsingEvent:)` (by a function that serves other events
    /// too), recording in `facts` what happened as it goes.
    public func handle(_ document: ParsedDocument, facts: inout TriggerFacts) throws(TriggerError) -> TriggerResult {
        try handle(facts: &facts) { () throws(EventDecodingError) in try AuthChallengeEvent(document: document) }
    }

    /// Handles the event `decode` reads; an event that does not read is an error with the outcome recorded.
    private func handle(
        facts: inout TriggerFacts, decoding decode: () throws(EventDecodingError) -> AuthChallengeEvent
    ) throws(TriggerError) -> TriggerResult {
        let event: AuthChallengeEvent
        do {
            event = try decode()
        } catch {
            facts.outcome = .error
            throw .invalidEvent(error)
        }
        return try handle(event, facts: &facts)
    }

    /// Handles a decoded event.
    public func handle(_ event: AuthChallengeEvent) throws(TriggerError) -> TriggerResult {
        var facts = TriggerFacts()
        return try handle(event, facts: &facts)
    }

    /// Handles a decoded event, recording in `facts` what happened as it goes.
    public func handle(_ event: consuming AuthChallengeEvent, facts: inout TriggerFacts) throws(TriggerError) -> TriggerResult {
        let user = event.user
        // Taken apart, not copied: the response is set on the event that arrived.
        switch consume event {
        case .define(var define):
            facts.trigger = .define
            let decision = engine.define(define.request)
            define.response = decision.response
            facts.outcome = switch decision {
            case .present: .challengePresented
            case .issueTokens: .tokensIssued
            case .fail: .signInFailed
            }
            return TriggerResult(event: .define(define), summary: decision.description, facts: facts)

        case .create(var create):
            facts.trigger = .create
            let plan = try createChallenge(create.request, user: user, facts: &facts)
            create.response = plan.challenge.response
            return TriggerResult(event: .create(create), summary: plan.summary, warning: plan.warning, facts: facts)

        case .verify(var verify):
            facts.trigger = .verify
            let conclusion = try verifyAnswer(verify.request, user: user, facts: &facts)
            facts.outcome = switch conclusion.outcome {
            case .correct: .correct
            case .wrong: .wrong
            case .expired: .expired
            case .decoy: .decoy
            case .refused: .refused
            case .budgetExhausted: .budgetExhausted
            case .notLiveCode: .notLiveCode
            case .replayed: .replayed
            case .tooEarly: .tooEarly
            case .captchaRejected: .captchaRejected
            }
            verify.response = VerifyAuthChallengeResponseResponse(answerCorrect: conclusion.correct)
            return TriggerResult(event: .verify(verify), summary: conclusion.summary, warning: conclusion.warning, facts: facts)
        }
    }

    /// Builds the challenge, has the limits across sign-ins decide on it from the user's record (one conditional
    /// write), and carries out the plan the core makes of both: delivers its message, or waits as long as a delivery
    /// would.
    private func createChallenge(
        _ request: CreateAuthChallengeRequest, user: UserIdentity, facts: inout TriggerFacts
    ) throws(TriggerError) -> CreatePlan {
        let now = clock()
        var userRecord: [String: String]?
        if let userRecords, let step = engine.stepDue(for: request), step.keepsUserRecord {
            userRecord = try readUserRecord(
                userRecords, kind: step.kind, user: user, attributes: request.userAttributes,
                userNotFound: request.userNotFound, now: now, facts: &facts
            ).record?.stringFields
        }
        let issued = try issue(facts: &facts) { try engine.create(request, user: user, now: now, userRecord: userRecord) }
        facts.stepKind = issued.kind
        facts.channel = issued.channel
        var decision: SendDecision?
        var key: String?
        if let limiter {
            let userKey = limiter.key(for: user, attributes: request.userAttributes, userNotFound: request.userNotFound)
            switch engine.limitsQuestion(for: issued, request: request) {
            case .send(let admitsStepUp):
                key = userKey
                decision = try consultingStore(facts: &facts) { () throws(StateStoreError) in
                    try limiter.decideSend(
                        key: userKey, seal: issued.seal, channel: issued.channel, delivers: issued.delivery != nil,
                        admitsStepUp: admitsStepUp, now: now)
                }
            case .stepUp:
                let due = try consultingStore(facts: &facts) { () throws(StateStoreError) in
                    try limiter.asksForStepUp(key: userKey, now: now)
                }
                if due { decision = .stepUp }
            case .none:
                break
            }
        }
        let limits = limiter?.limits ?? SignInLimits()
        var plan = try issue(facts: &facts) {
            try engine.plan(issued, after: decision, request: request, user: user, now: now, limits: limits)
        }
        if let limiter, let key, decision == .proceed, let message = plan.message,
           let spent = try reservePoolSend(message, seal: issued.seal, limiter: limiter, user: user, key: key, now: now, facts: &facts)
        {
            plan = engine.withholding(
                issued, userNotFound: request.userNotFound,
                note: "nothing sent: the pool reached \(spent); the challenge will not verify")
        }
        facts.stepKind = plan.challenge.kind
        if plan.outcome == .steppedUp { facts.channel = nil }
        if let message = plan.message {
            let start = time.now()
            do {
                defer { facts.deliveryTime = start.duration(to: time.now()) }
                try delivery.deliver(message)
            } catch {
                facts.outcome = .deliveryFailed
                throw .deliveryFailed(String(describing: error))
            }
            deliveryTimes[message.channel]?.record(start.duration(to: time.now()))
        } else if let channel = plan.imitatedDelivery, let model = deliveryTimes[channel] {
            time.pause(model.drawDelay())
        }
        facts.outcome = switch plan.outcome {
        case .sent: .sent
        case .reused: .reused
        case .throttled: .throttled
        case .decoy: .decoy
        case .issued: .issued
        case .steppedUp: .steppedUp
        }
        return plan
    }

    /// Builds a challenge, or the plan for one, with the engine, reporting its failure as the trigger's.
    private func issue<Built>(facts: inout TriggerFacts, _ build: () throws -> Built) throws(TriggerError) -> Built {
        do {
            return try build()
        } catch let error as CreateChallengeError {
            facts.outcome = .error
            throw .challengeNotCreated(error)
        } catch {
            facts.outcome = .error
            throw .randomnessUnavailable
        }
    }

    /// Runs a decision of the limits against the state store, timed as state store time; the store's failure ends
    /// the invocation (fail closed).
    private func consultingStore<Result>(
        facts: inout TriggerFacts, _ decide: () throws(StateStoreError) -> Result
    ) throws(TriggerError) -> Result {
        let start = time.now()
        defer { facts.stateStoreTime = (facts.stateStoreTime ?? .zero) + start.duration(to: time.now()) }
        do {
            return try decide()
        } catch {
            facts.outcome = .stateStoreError
            throw .stateStoreUnavailable(error)
        }
    }

    /// Takes the message from the pool's send budgets; when one is spent, withdraws the send the user's record just
    /// counted and returns the budget's variable for the log.
    private func reservePoolSend(
        _ message: CodeMessage, seal: ChallengeSeal, limiter: SignInLimiter, user: UserIdentity, key: String, now: Int64,
        facts: inout TriggerFacts
    ) throws(TriggerError) -> String? {
        let counts: [PoolCount] = message.channel == .sms ? [.sends, .textMessages] : [.sends]
        do {
            guard let spent = try limiter.reservePool(counts, user: user, userKey: key, now: now) else { return nil }
            try limiter.withdrawSend(key: key, seal: seal, now: now)
            return spent == .sends
                ? "POOL_MAX_SENDS_PER_WINDOW=\(limiter.limits.pool.maxSendsPerWindow)"
                : "POOL_MAX_SMS_PER_WINDOW=\(limiter.limits.pool.maxTextMessagesPerWindow)"
        } catch {
            facts.outcome = .stateStoreError
            throw .stateStoreUnavailable(error)
        }
    }

    /// Judges an answer, and for a step that proves identity has the limits across sign-ins decide on it from the
    /// user's record (one conditional write): the answer counts as right only if the write that uses it up succeeds.
    private func verifyAnswer(
        _ request: VerifyAuthChallengeResponseRequest, user: UserIdentity, facts: inout TriggerFacts
    ) throws(TriggerError) -> VerifyConclusion {
        let now = clock()
        let seal = ChallengeSeal(privateParameters: request.privateChallengeParameters)
        facts.stepKind = seal?.kind
        if let siteverify, let seal, seal.kind == .captcha {
            return verifyWidgetToken(request, seal: seal, with: siteverify, now: now, facts: &facts)
        }
        let verdict: Verdict
        var note: String?
        if let userRecords, let seal, let step = engine.step(for: seal.kind), step.keepsUserRecord {
            (verdict, note) = try judgeKeepingRecord(
                request, seal: seal, step: step, in: userRecords, user: user, now: now, facts: &facts)
        } else {
            verdict = engine.verdict(on: request, seal: seal, user: user, now: now)
        }
        let outcome = verdict.outcome
        guard let limiter, let seal, let step = engine.stepUnderLimits(seal, verdict: verdict) else {
            return VerifyConclusion(verdict, note: note)
        }
        let passedStepUp = request.privateChallengeParameters[IssuedChallenge.passedStepUpParameter] == "true"
        let key = limiter.key(for: user, attributes: request.userAttributes, userNotFound: request.userNotFound)
        let decision = try consultingStore(facts: &facts) { () throws(StateStoreError) -> AnswerDecision? in
            // An answer the user's record refuses unjudged (out of wrong answers, too early) is refused below without
            // taking from the pool: one user's guesser cannot spend everyone's budget.
            let poolSpent = if outcome.isCorrect {
                try limiter.poolFailuresSpent(user: user, userKey: key, now: now)
            } else if try limiter.refusesUnjudged(
                key: key, seal: seal, requiresLiveCode: step.deliversAnswer, passedStepUp: passedStepUp, now: now)
            {
                false
            } else {
                try limiter.reservePool([.failures], user: user, userKey: key, now: now) != nil
            }
            if poolSpent { return nil }
            return try limiter.decideAnswer(
                key: key, seal: seal, correct: outcome.isCorrect, usedSequence: verdict.usedSequence,
                requiresLiveCode: step.deliversAnswer, passedStepUp: passedStepUp, now: now)
        }
        guard let decision else { return .poolFailuresSpent(limiter.limits) }
        return VerifyConclusion(verdict, note: note, after: decision, limits: limiter.limits)
    }

    /// Reads the user's record for a step that keeps one, timing it as state store time.
    private func readUserRecord(
        _ userRecords: UserRecords, kind: ChallengeKind, user: UserIdentity, attributes: [String: String],
        userNotFound: Bool, now: Int64, facts: inout TriggerFacts
    ) throws(TriggerError) -> (key: String?, record: StateRecord?) {
        try consultingStore(facts: &facts) { () throws(StateStoreError) in
            try userRecords.read(kind: kind, user: user, attributes: attributes, userNotFound: userNotFound, now: now)
        }
    }

    /// Judges an answer to a step that keeps a record per user, and carries out a right answer's record as one
    /// conditional write on the version judged from. When another write came first, the answer is judged again from
    /// the record then stored (so of two answers decided from one record only one takes effect); a note says so.
    private func judgeKeepingRecord(
        _ request: VerifyAuthChallengeResponseRequest, seal: ChallengeSeal, step: any ChallengeStep,
        in userRecords: UserRecords, user: UserIdentity, now: Int64, facts: inout TriggerFacts
    ) throws(TriggerError) -> (Verdict, note: String?) {
        let (key, record) = try readUserRecord(
            userRecords, kind: step.kind, user: user, attributes: request.userAttributes,
            userNotFound: request.userNotFound, now: now, facts: &facts)
        let judge = { (record: StateRecord?) in
            self.engine.verdict(on: request, seal: seal, user: user, now: now, userRecord: record?.stringFields)
        }
        guard let key else {
            let verdict = judge(nil)
            guard verdict.updatedRecord == nil else {
                return (Verdict(.refused("the user has no record to update (no sub attribute)")), nil)
            }
            return (verdict, nil)
        }
        let outcome = try consultingStore(facts: &facts) { () throws(StateStoreError) in
            try ConditionalUpdate(store: userRecords.store, pause: time.pause)
                .run(key, believed: record, confirmed: true, now: now) { record in
                    let verdict = judge(record)
                    return (verdict, verdict.updatedRecord.map { UserRecords.record(with: $0, over: record, now: now) })
                }
        }
        return (outcome.result, outcome.losses > 0 ? "judged again: the user's record changed while the answer was judged" : nil)
    }

    /// Checks a CAPTCHA widget's token with the provider. Judged the same for real and unknown users: a CAPTCHA
    /// proves a human, not an identity.
    private func verifyWidgetToken(
        _ request: VerifyAuthChallengeResponseRequest, seal: ChallengeSeal, with siteverify: SiteverifyClient, now: Int64,
        facts: inout TriggerFacts
    ) -> VerifyConclusion {
        guard seal.expiresAt > now else { return VerifyConclusion(Verdict(.expired)) }
        // The same sign-in step and token give the same key, so a Verify that Cognito retries is not refused as a
        // duplicate (Turnstile); another step, or another token, gets another key.
        let key = CaptchaIdempotencyKey.derive(challenge: seal.metadata, token: request.challengeAnswer)
        switch siteverify.verify(token: request.challengeAnswer, idempotencyKey: key, now: now) {
        case .passed:
            return VerifyConclusion(
                correct: true, outcome: .correct, summary: "CAPTCHA token accepted by \(siteverify.configuration.provider.rawValue)")
        case .rejected(let reason):
            facts.captchaRejection = reason.reasonClass
            return VerifyConclusion(correct: false, outcome: .captchaRejected, summary: "CAPTCHA token rejected: \(reason)")
        }
    }
}

/// The outcome of one invocation.
public struct TriggerResult: Sendable {
    /// The whole event with its response filled in.
    public let event: AuthChallengeEvent
    /// One line saying what was decided, safe to log: it never holds a code, answer or secret.
    public let summary: String
    /// A line for a WARN log, when the invocation met something an operator should hear of (e.g. a user without a
    /// usable address).
    public let warning: String?
    /// What the invocation did, for metrics: the trigger, step, channel, outcome and timings.
    public let facts: TriggerFacts

    public init(event: AuthChallengeEvent, summary: String, warning: String? = nil, facts: TriggerFacts = TriggerFacts()) {
        self.event = event
        self.summary = summary
        self.warning = warning
        self.facts = facts
    }

    /// The response event's bytes, ready for the Runtime API.
    public var responseBytes: [UInt8] { event.serialized() }
}

/// Why a trigger could not answer. Cognito turns any of these into `UserLambdaValidationException` and ends the
/// sign-in, so each one names what to fix.
public enum TriggerError: Error, Sendable, CustomStringConvertible {
    case invalidEvent(EventDecodingError)
    case challengeNotCreated(CreateChallengeError)
    case deliveryFailed(String)
    case randomnessUnavailable
    /// The state store of the limits across sign-ins could not be used: nothing was sent and no answer accepted
    /// (fail closed).
    case stateStoreUnavailable(StateStoreError)

    /// The error type reported to Lambda.
    public var errorType: String {
        switch self {
        case .invalidEvent(.unknownTriggerSource): "Function.UnknownTriggerSource"
        case .invalidEvent: "Runtime.UnmarshalError"
        case .challengeNotCreated: "Function.ChallengeNotCreated"
        case .deliveryFailed: "Function.DeliveryFailed"
        case .randomnessUnavailable: "Function.RandomnessUnavailable"
        case .stateStoreUnavailable: "Function.StateStoreUnavailable"
        }
    }

    /// The whole story, for the function's log only: it may name the user, the address or what a provider said.
    public var description: String {
        switch self {
        case .invalidEvent(let error): "\(error)"
        case .challengeNotCreated(let error): "\(error)"
        case .deliveryFailed(let reason): "The code could not be delivered: \(reason)"
        case .randomnessUnavailable: "The system random number generator failed; no code was issued."
        case .stateStoreUnavailable(let error):
            "The sign-in limits could not be checked or recorded, so nothing was sent and no answer was accepted: \(error)"
        }
    }

    /// The message for Lambda's error report. Cognito passes it to the client that is signing in ("… failed with
    /// error <message>"), who may not be the user, so it says nothing about the user or why: only a reference
    /// that finds the detail in the log.
    public static func publicMessage(reference: String) -> String {
        "Sign-in could not continue (reference \(reference))."
    }
}
