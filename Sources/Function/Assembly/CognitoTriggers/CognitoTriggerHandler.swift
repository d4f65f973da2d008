import CaptchaVerification
import ChallengeFlows
import ChallengeStateStore
import CognitoEvents
import CurlHTTP
import EmailDelivery
import LosslessJSON
import Settings

/// Answers any of the three custom-auth triggers: reads the event, asks the flow engine, delivers a code when one
/// is due, and returns the whole event with its response filled in.
///
/// One instance serves every invocation of a process, one at a time.
public final class CognitoTriggerHandler {
    /// The decisions of the configured flow.
    public let engine: ChallengeFlowEngine
    private let delivery: any CodeDelivery
    private let clock: @Sendable () -> Int64
    /// How long deliveries take on each channel, so that a Create that sends nothing takes as long as one that does.
    private var deliveryTimes: [MessageChannel: DeliveryTimeModel]
    private let limiter: SignInLimiter?
    /// The records steps keep per user (``ChallengeStep/keepsUserRecord``), in the limits' store.
    private let userRecords: UserRecords?
    private let siteverify: SiteverifyClient?

    /// - Parameters:
    ///   - delivery: where codes go; by default the one the configuration names.
    ///   - stateStore: where the limits across sign-ins are kept; by default the one the configuration names
    ///     (`STATE_STORE`). Handlers in one process can share a store, as functions share a table.
    ///   - clock: Unix time in seconds; injected by tests.
    public init(
        configuration: TriggerConfiguration, delivery: (any CodeDelivery)? = nil, stateStore: (any StateStore)? = nil,
        clock: @escaping @Sendable () -> Int64 = SystemClock.unixSeconds
    ) throws(ConfigurationError) {
        engine = try configuration.makeEngine()
        if let delivery {
            self.delivery = delivery
        } else {
            self.delivery = try configuration.makeDelivery(clock: clock)
        }
        self.clock = clock
        deliveryTimes = configuration.typicalDeliveryTimes.mapValues { DeliveryTimeModel(typical: $0) }
        limiter = try configuration.makeLimiter(store: stateStore)
        userRecords = limiter.map { UserRecords(store: $0.store, recordKey: $0.recordKey) }
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
    public func handle(_ event: AuthChallengeEvent, facts: inout TriggerFacts) throws(TriggerError) -> TriggerResult {
        let user = UserIdentity(userPoolId: event.header.userPoolId ?? "", userName: event.header.userName)
        switch event {
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
            let (issued, note) = try createChallenge(create.request, user: user, facts: &facts)
            create.response = issued.response
            let warning = issued.unusableAddress.map {
                "No code was sent because \($0); the user was answered as an unknown user."
            }
            let summary = summary(of: issued, userNotFound: create.request.userNotFound)
            return TriggerResult(
                event: .create(create), summary: note.map { "\(summary) (\($0))" } ?? summary, warning: warning,
                facts: facts)

        case .verify(var verify):
            facts.trigger = .verify
            let (correct, summary, warning) = try verifyAnswer(verify.request, user: user, facts: &facts)
            verify.response = VerifyAuthChallengeResponseResponse(answerCorrect: correct)
            return TriggerResult(event: .verify(verify), summary: summary, warning: warning, facts: facts)
        }
    }

    /// Builds the challenge and sends its code, within the limits across sign-ins; returns a note for the log when
    /// the limits changed what happened.
    private func createChallenge(
        _ request: CreateAuthChallengeRequest, user: UserIdentity, facts: inout TriggerFacts
    ) throws(TriggerError) -> (IssuedChallenge, note: String?) {
        let now = clock()
        var userRecord: [String: String]?
        if let userRecords, let step = engine.stepDue(for: request), step.keepsUserRecord {
            userRecord = try readUserRecord(
                userRecords, kind: step.kind, user: user, attributes: request.userAttributes,
                userNotFound: request.userNotFound, now: now, facts: &facts
            ).record?.stringFields
        }
        var issued: IssuedChallenge
        do {
            issued = try engine.create(request, user: user, now: now, userRecord: userRecord)
        } catch let error as CreateChallengeError {
            facts.outcome = .error
            throw .challengeNotCreated(error)
        } catch {
            facts.outcome = .error
            throw .randomnessUnavailable
        }
        facts.stepKind = issued.kind
        facts.channel = issued.channel
        var note: String?
        var throttled = false
        let deliversAnswer = engine.step(for: issued.kind)?.deliversAnswer ?? false
        if let limiter, deliversAnswer, !issued.reusedEarlierCode {
            let key = limiter.key(for: user, attributes: request.userAttributes, userNotFound: request.userNotFound)
            let decision: SendDecision
            let start = MonotonicInstant.now
            do {
                defer { facts.stateStoreTime = start.duration(to: .now) }
                decision = try limiter.decideSend(
                    key: key, seal: issued.seal, channel: issued.channel, delivers: issued.delivery != nil, now: now)
            } catch {
                facts.outcome = .stateStoreError
                throw .stateStoreUnavailable(error)
            }
            switch decision {
            case .proceed:
                if let message = issued.delivery,
                   let spent = try reservePoolSend(message, seal: issued.seal, limiter: limiter, user: user, key: key, now: now, facts: &facts)
                {
                    issued = engine.withholding(issued)
                    throttled = true
                    note = "nothing sent: the pool reached \(spent); the challenge will not verify"
                }
            case .reuse(let live, let secondsAgo):
                issued = engine.reusing(live, for: issued, now: now)
                note = "nothing sent again: the message sent \(secondsAgo) s ago is still valid"
            case .throttled:
                issued = engine.withholding(issued)
                throttled = true
                note = "nothing sent: the user reached MAX_SENDS_PER_WINDOW=\(limiter.limits.maxSendsPerWindow); the challenge will not verify"
            }
        }
        if let message = issued.delivery {
            let start = MonotonicInstant.now
            do {
                defer { facts.deliveryTime = start.duration(to: .now) }
                try delivery.deliver(message)
            } catch {
                facts.outcome = .deliveryFailed
                throw .deliveryFailed(String(describing: error))
            }
            deliveryTimes[message.channel]?.record(start.duration(to: .now))
            facts.outcome = .sent
        } else if deliversAnswer, !issued.reusedEarlierCode,
                  throttled || request.userNotFound || issued.unusableAddress != nil
        {
            // A real user would have waited for a delivery by this channel here: take as long, so that timing tells
            // neither unknown users nor users without this channel apart.
            if let model = deliveryTimes[issued.channel ?? .email] { Pause.sleep(model.drawDelay()) }
        }
        if facts.outcome == nil {
            facts.outcome =
                if throttled { .throttled }
                else if issued.reusedEarlierCode { .reused }
                else if deliversAnswer && (request.userNotFound || issued.unusableAddress != nil) { .decoy }
                else { .issued }
        }
        return (issued, note)
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

    /// Judges an answer, and for a step that proves identity records it within the limits across sign-ins: the
    /// answer counts as right only if the write that uses it up succeeds.
    private func verifyAnswer(
        _ request: VerifyAuthChallengeResponseRequest, user: UserIdentity, facts: inout TriggerFacts
    ) throws(TriggerError) -> (correct: Bool, summary: String, warning: String?) {
        let now = clock()
        let seal = ChallengeSeal(privateParameters: request.privateChallengeParameters)
        facts.stepKind = seal?.kind
        if let siteverify, let seal, seal.kind == .captcha {
            return verifyWidgetToken(request, seal: seal, with: siteverify, now: now, facts: &facts)
        }
        let verdict: Verdict
        var recordNote: String?
        if let userRecords, let seal, let step = engine.step(for: seal.kind), step.keepsUserRecord {
            (verdict, recordNote) = try judgeKeepingRecord(
                request, step: step, in: userRecords, user: user, now: now, facts: &facts)
        } else {
            verdict = engine.verdict(on: request, user: user, now: now)
        }
        let outcome = verdict.outcome
        facts.outcome = switch outcome {
        case .correct: .correct
        case .wrong: .wrong
        case .expired: .expired
        case .unknownUser, .unusableAddress: .decoy
        case .refused, .notIssuedByThisFlow, .retiredKey: .refused
        }
        var warning: String?
        if case .unusableAddress(let problem) = outcome {
            warning = "The answer was rejected because \(problem) and no code was sent."
        } else if case .refused(let reason) = outcome {
            warning = "The answer was rejected whatever it was: \(reason)."
        }
        let judged = recordNote.map { "\(outcome.description) (\($0))" } ?? outcome.description
        guard let limiter, let seal, let step = engine.step(for: seal.kind), step.provesIdentity || step.deliversAnswer,
              outcome != .notIssuedByThisFlow, outcome != .retiredKey
        else { return (outcome.isCorrect, judged, warning) }
        let decision: AnswerDecision
        let start = MonotonicInstant.now
        do {
            defer { facts.stateStoreTime = start.duration(to: .now) }
            let key = limiter.key(for: user, attributes: request.userAttributes, userNotFound: request.userNotFound)
            // An answer the user's record refuses unjudged (out of wrong answers, too early) is refused below without
            // taking from the pool: one user's guesser cannot spend everyone's budget.
            let poolSpent = if outcome.isCorrect {
                try limiter.poolFailuresSpent(user: user, userKey: key, now: now)
            } else if try limiter.refusesUnjudged(key: key, seal: seal, requiresLiveCode: step.deliversAnswer, now: now) {
                false
            } else {
                try limiter.reservePool([.failures], user: user, userKey: key, now: now) != nil
            }
            if poolSpent {
                facts.outcome = .budgetExhausted
                return (false, "answer not judged: the pool reached POOL_MAX_FAILURES_PER_WINDOW=\(limiter.limits.pool.maxFailuresPerWindow) wrong answers", nil)
            }
            decision = try limiter.decideAnswer(
                key: key, seal: seal, correct: outcome.isCorrect, usedSequence: verdict.usedSequence,
                requiresLiveCode: step.deliversAnswer, now: now)
        } catch {
            facts.outcome = .stateStoreError
            throw .stateStoreUnavailable(error)
        }
        switch decision {
        case .accepted, .rejected:
            return (decision == .accepted, judged, warning)
        case .failureBudgetSpent:
            facts.outcome = .budgetExhausted
            return (false, "answer not judged: MAX_FAILURES_PER_WINDOW=\(limiter.limits.maxFailuresPerWindow) wrong answers reached", nil)
        case .notTheLiveCode:
            facts.outcome = .notLiveCode
            return (false, "answer not judged: the code was never sent, was replaced by a newer one, or was already used", nil)
        case .replayed:
            facts.outcome = .replayed
            return (false, "answer rejected: it was accepted before, and may be used only once", nil)
        case .tooEarly(let secondsLeft):
            facts.outcome = .tooEarly
            return (false, "answer not judged: too soon after a wrong answer (FAILURE_DELAY_BASE_SECONDS); answers are judged again in \(secondsLeft) s", nil)
        }
    }

    /// Reads the user's record for a step that keeps one, timing it as state store time.
    private func readUserRecord(
        _ userRecords: UserRecords, kind: ChallengeKind, user: UserIdentity, attributes: [String: String],
        userNotFound: Bool, now: Int64, facts: inout TriggerFacts
    ) throws(TriggerError) -> (key: String?, record: StateRecord?) {
        let start = MonotonicInstant.now
        defer { facts.stateStoreTime = (facts.stateStoreTime ?? .zero) + start.duration(to: .now) }
        do {
            return try userRecords.read(kind: kind, user: user, attributes: attributes, userNotFound: userNotFound, now: now)
        } catch {
            facts.outcome = .stateStoreError
            throw .stateStoreUnavailable(error)
        }
    }

    /// Judges an answer to a step that keeps a record per user, and carries out a right answer's record as one
    /// conditional write on the version judged from. When another write came first, the answer is judged again from
    /// the record then stored (so of two answers decided from one record only one takes effect); a note says so.
    private func judgeKeepingRecord(
        _ request: VerifyAuthChallengeResponseRequest, step: any ChallengeStep, in userRecords: UserRecords,
        user: UserIdentity, now: Int64, facts: inout TriggerFacts
    ) throws(TriggerError) -> (Verdict, note: String?) {
        var (key, record) = try readUserRecord(
            userRecords, kind: step.kind, user: user, attributes: request.userAttributes,
            userNotFound: request.userNotFound, now: now, facts: &facts)
        var note: String?
        var losses = 0
        for _ in 0..<SignInLimiter.maximumAttempts {
            let verdict = engine.verdict(on: request, user: user, now: now, userRecord: record?.stringFields)
            guard let fields = verdict.updatedRecord else { return (verdict, note) }
            guard let key else {
                return (Verdict(.refused("the user has no record to update (no sub attribute)")), note)
            }
            let outcome: WriteOutcome
            let start = MonotonicInstant.now
            do {
                defer { facts.stateStoreTime = (facts.stateStoreTime ?? .zero) + start.duration(to: .now) }
                outcome = try userRecords.write(fields, key: key, over: record, now: now)
            } catch {
                facts.outcome = .stateStoreError
                throw .stateStoreUnavailable(error)
            }
            switch outcome {
            case .written:
                return (verdict, note)
            case .conflict(let current):
                record = current
                note = "judged again: the user's record changed while the answer was judged"
                losses += 1
                Pause.sleep(SignInLimiter.backoff(afterLosses: losses))
            }
        }
        facts.outcome = .stateStoreError
        throw .stateStoreUnavailable(.contended(key: key ?? "", attempts: SignInLimiter.maximumAttempts))
    }

    /// Checks a CAPTCHA widget's token with the provider. Judged the same for real and unknown users: a CAPTCHA
    /// proves a human, not an identity.
    private func verifyWidgetToken(
        _ request: VerifyAuthChallengeResponseRequest, seal: ChallengeSeal, with siteverify: SiteverifyClient, now: Int64,
        facts: inout TriggerFacts
    ) -> (correct: Bool, summary: String, warning: String?) {
        guard seal.expiresAt > now else {
            facts.outcome = .expired
            return (false, VerifyOutcome.expired.description, nil)
        }
        // The same sign-in step and token give the same key, so a Verify that Cognito retries is not refused as a
        // duplicate (Turnstile); another step, or another token, gets another key.
        let key = CaptchaIdempotencyKey.derive(challenge: seal.metadata, token: request.challengeAnswer)
        switch siteverify.verify(token: request.challengeAnswer, idempotencyKey: key, now: now) {
        case .passed:
            facts.outcome = .correct
            return (true, "CAPTCHA token accepted by \(siteverify.configuration.provider.rawValue)", nil)
        case .rejected(let reason):
            facts.outcome = .captchaRejected
            facts.captchaRejection = reason.reasonClass
            return (false, "CAPTCHA token rejected: \(reason)", nil)
        }
    }

    private func summary(of issued: IssuedChallenge, userNotFound: Bool) -> String {
        let step = "\(issued.kind.rawValue) step \(issued.seal.stepIndex + 1), \(issued.publicParameters["attemptsLeft"] ?? "?") attempts left"
        guard engine.step(for: issued.kind)?.deliversAnswer == true else {
            return "\(step), \(issued.kind == .captcha ? "CAPTCHA" : "challenge") issued"
        }
        if issued.reusedEarlierCode { return "\(step), earlier message still valid (not sent again)" }
        if userNotFound || issued.unusableAddress != nil { return "\(step), unknown user or no usable address: nothing sent" }
        guard let message = issued.delivery else { return "\(step), nothing sent" }
        return "\(step), \(message.link == nil ? "code" : "sign-in link") sent by \(message.channel) to \(message.maskedRecipient)"
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
