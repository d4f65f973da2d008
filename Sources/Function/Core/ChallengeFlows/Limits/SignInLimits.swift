import Basics

/// Limits that hold across sign-ins, kept per user in a state store: one live code per user and channel, a send
/// throttle, a failure budget for every step that proves identity, single use of every accepted answer, and
/// retry-safe Create.
///
/// No session id reaches the triggers, so each new sign-in looks like the first; only shared state can tell that
/// a code was sent a moment ago (to the same user, or by a Create that Cognito is retrying). Every decision is made
/// from the user's record and carried out as one conditional write of the changed record, so two Creates at once
/// send one email, two Verifies of one code accept it once, and concurrent wrong answers never judge more than the
/// budget allows. Records are keyed by a keyed hash of pool and user (`sub` for real users), and unknown users get
/// records too, so the limits never tell them apart.
///
/// Both throttles count over a sliding window: the count of the previous fixed window, weighted by how much of it
/// the sliding window still covers, plus the count of the current one. A burst at a window's boundary therefore
/// gets no second allowance.
public struct SignInLimits: Sendable {
    /// A new sign-in reuses the live code instead of sending another until this long after it was sent.
    public var resendAfterSeconds: Int64 = 60
    /// At most this many messages per user in any send window.
    public var maxSendsPerWindow: Int64 = 5
    public var sendWindowSeconds: Int64 = 900
    /// At most this many wrong answers per user in any failure window, over all sessions and every step that
    /// proves identity (codes, links, TOTPs).
    public var maxFailuresPerWindow: Int64 = 10
    public var failureWindowSeconds: Int64 = 3600
    /// After each wrong answer past the first ``freeFailures`` of the failure window, the user's next answer is
    /// judged only this long after it, doubling with each further wrong answer (`FAILURE_DELAY_BASE_SECONDS`; 0 turns
    /// the delays off). An answer that comes sooner is refused unjudged; no function waits for it.
    public var failureDelayBaseSeconds: Int64 = 1
    /// The longest delay (`FAILURE_DELAY_MAX_SECONDS`).
    public var failureDelayMaxSeconds: Int64 = 60
    /// Wrong answers in the failure window that cost no delay: typing slips.
    public static let freeFailures: Int64 = 2
    /// Answers judged for a delivered code after the failure budget is spent (`FRESH_CODE_ATTEMPTS`; 0: none), so
    /// that whoever receives a code sent after a guesser spent the budget can still sign in with it.
    public var freshCodeAttempts: Int64 = 3
    /// Once the failure window counts this many wrong answers, every challenge of a step that proves identity comes
    /// after a CAPTCHA, and an answer given after a passed CAPTCHA is judged even when the failure budget is spent
    /// (`CAPTCHA_STEP_UP_AFTER_FAILURES`; 0, the default, turns step-ups off). A guesser then pays a CAPTCHA for
    /// every `MAX_ATTEMPTS` guesses instead of meeting a hard block that also locks the user out.
    public var captchaStepUpAfterFailures: Int64 = 0
    /// Budgets for the whole user pool, against floods over many user names; see ``PoolBudgets``.
    public var pool = PoolBudgets()

    public init() {}

    /// Reads the `RESEND_AFTER_SECONDS`, `MAX_SENDS_PER_WINDOW`, `SEND_WINDOW_SECONDS`, `MAX_FAILURES_PER_WINDOW`,
    /// `FAILURE_WINDOW_SECONDS`, `FAILURE_DELAY_BASE_SECONDS`, `FAILURE_DELAY_MAX_SECONDS`, `FRESH_CODE_ATTEMPTS` and
    /// `CAPTCHA_STEP_UP_AFTER_FAILURES` variables, and the pool's `POOL_MAX_SENDS_PER_WINDOW`, `POOL_MAX_SMS_PER_WINDOW`,
    /// `POOL_MAX_FAILURES_PER_WINDOW` and `POOL_WINDOW_SECONDS` (0 turns a pool budget off); a bad value names its
    /// variable.
    public init(environment: [String: String]) throws(ConfigurationError) {
        let reader = EnvironmentReader(environment)
        func read(_ variable: String, _ range: ClosedRange<Int64>, default value: Int64) throws(ConfigurationError) -> Int64 {
            guard let text = reader.value(variable) else { return value }
            guard let number = Int64(text), range.contains(number) else {
                throw .invalid(
                    variable: variable, value: text, expected: "a whole number from \(range.lowerBound) to \(range.upperBound)")
            }
            return number
        }
        resendAfterSeconds = try read("RESEND_AFTER_SECONDS", 0...3600, default: 60)
        maxSendsPerWindow = try read("MAX_SENDS_PER_WINDOW", 1...1000, default: 5)
        sendWindowSeconds = try read("SEND_WINDOW_SECONDS", 60...86_400, default: 900)
        maxFailuresPerWindow = try read("MAX_FAILURES_PER_WINDOW", 1...10_000, default: 10)
        failureWindowSeconds = try read("FAILURE_WINDOW_SECONDS", 60...86_400, default: 3600)
        failureDelayBaseSeconds = try read("FAILURE_DELAY_BASE_SECONDS", 0...3600, default: 1)
        failureDelayMaxSeconds = try read("FAILURE_DELAY_MAX_SECONDS", 1...3600, default: 60)
        freshCodeAttempts = try read("FRESH_CODE_ATTEMPTS", 0...100, default: 3)
        captchaStepUpAfterFailures = try read("CAPTCHA_STEP_UP_AFTER_FAILURES", 0...maxFailuresPerWindow, default: 0)
        pool.maxSendsPerWindow = try read("POOL_MAX_SENDS_PER_WINDOW", 0...100_000_000, default: 0)
        pool.maxTextMessagesPerWindow = try read("POOL_MAX_SMS_PER_WINDOW", 0...100_000_000, default: 1000)
        pool.maxFailuresPerWindow = try read("POOL_MAX_FAILURES_PER_WINDOW", 0...100_000_000, default: 0)
        pool.windowSeconds = try read("POOL_WINDOW_SECONDS", 60...86_400, default: 3600)
    }

    /// How long after the wrong answer that brought the window's count to `failures` the next answer must wait:
    /// nothing for the first ``freeFailures``, then the base, doubling, up to the longest delay.
    public func failureDelay(afterFailures failures: Int64) -> Int64 {
        guard failureDelayBaseSeconds > 0, failures > Self.freeFailures else { return 0 }
        let doublings = min(failures - Self.freeFailures - 1, 32)
        return min(failureDelayBaseSeconds << doublings, failureDelayMaxSeconds)
    }
}

/// Budgets for the whole user pool: messages sent, text messages sent (against SMS pumping, where a flood of sign-ins
/// to premium-rate numbers earns the attacker money) and wrong answers judged, each per window. They stop a flood
/// spread over many user names, which the per-user limits cannot see. 0 turns a budget off.
///
/// Each count is kept in ``shards`` records, a user's sign-ins always counting in the same one (chosen by the user's
/// record key), so that concurrent functions seldom contend for one record; each record allows its share of the
/// budget, rounded up, so the pool as a whole allows at most the budget plus `shards - 1`. A count covers one fixed
/// window (`POOL_WINDOW_SECONDS`) weighted like the per-user ones, so a boundary gives no second allowance.
///
/// Reached, the sends budget answers Creates as the per-user throttle does (nothing sent, a challenge that never
/// verifies), and the failures budget refuses every answer unjudged, right ones too, until the window moves on:
/// a budget that refused only wrong answers would tell a guesser which answer was right.
public struct PoolBudgets: Sendable, Equatable {
    /// Messages of any channel per window (`POOL_MAX_SENDS_PER_WINDOW`, off by default).
    public var maxSendsPerWindow: Int64 = 0
    /// Text messages per window (`POOL_MAX_SMS_PER_WINDOW`, 1000 by default).
    public var maxTextMessagesPerWindow: Int64 = 1000
    /// Wrong answers judged per window (`POOL_MAX_FAILURES_PER_WINDOW`, off by default).
    public var maxFailuresPerWindow: Int64 = 0
    /// The window of all three (`POOL_WINDOW_SECONDS`, an hour by default).
    public var windowSeconds: Int64 = 3600
    /// How many records share each count.
    public static let shards = 8

    public init() {}
}

/// What the limits decided for a Create that issues a fresh code.
public enum SendDecision: Sendable, Equatable {
    /// Go ahead: send the new code, or, when there is nothing to send (an unknown user, an unusable address), answer
    /// with the new challenge. The record now names it as the live code for its channel.
    case proceed
    /// Do not send: a code sent `secondsAgo` by the same channel for the same step is still valid; answer with it.
    case reuse(ChallengeSeal, secondsAgo: Int64)
    /// Do not send: the user reached the send throttle. The new challenge is answered normally but never verifies.
    case throttled
    /// Do not send: the user's wrong answers reached `CAPTCHA_STEP_UP_AFTER_FAILURES`; a CAPTCHA comes first.
    case stepUp
}

/// What the limits made of a judged answer.
public enum AnswerDecision: Sendable, Equatable {
    /// The right answer, now used up (the live code consumed, the step's sequence recorded).
    case accepted
    /// A wrong answer, counted against the failure budget.
    case rejected
    /// Not judged: the user ran out of wrong answers for the window.
    case failureBudgetSpent
    /// Not judged: the answer is to a code that is not the user's live code (never sent, replaced, or already used).
    case notTheLiveCode
    /// A right answer that was accepted before (the step's sequence is not above the last one used); counted as wrong.
    case replayed
    /// Not judged: it came within the delay that the user's last wrong answer set; judged again `secondsLeft` later.
    case tooEarly(secondsLeft: Int64)
}

/// Whether an answer is judged at all, decided from the user's record before the answer is looked at, so that a
/// refusal tells nothing about it.
public enum AnswerGate: Sendable, Equatable {
    /// Judge it; `fresh` when it draws on the live code's own budget because the window's is spent.
    case judge(fresh: Bool)
    /// Refuse it unjudged.
    case refuse(AnswerDecision)
}

extension SignInLimits {
    /// True when the user's record (nil: none) has reached ``captchaStepUpAfterFailures`` wrong answers in the
    /// failure window, with step-ups on.
    public func asksForStepUp(_ current: StateRecord?, now: Int64) -> Bool {
        guard captchaStepUpAfterFailures > 0, let current else { return false }
        return SlidingCount(current, "failures", window: failureWindowSeconds, now: now).value >= captchaStepUpAfterFailures
    }

    /// Decides from the user's record (nil: none) whether an answer to `seal` is judged: not when the window's
    /// failure budget is spent (unless the sign-in passed a step-up CAPTCHA, or the answer is to a delivered live
    /// code with some of its own budget left), not before the delay of the last wrong answer is over, and, for a step
    /// that delivers its answer, not unless `seal` is the live code.
    public func gate(
        _ current: StateRecord?, seal: ChallengeSeal, requiresLiveCode: Bool, passedStepUp: Bool, now: Int64
    ) -> AnswerGate {
        let record = current ?? StateRecord(fields: [:], expiresAt: now)
        let isLiveCode = current == nil || record.liveSeal == seal
        var fresh = false
        if SlidingCount(record, "failures", window: failureWindowSeconds, now: now).value >= maxFailuresPerWindow,
           !(passedStepUp && captchaStepUpAfterFailures > 0)
        {
            guard requiresLiveCode, current != nil, isLiveCode, record.number("delivered") == 1,
                  (record.number("fresh") ?? 0) > 0
            else { return .refuse(.failureBudgetSpent) }
            fresh = true
        }
        if let notBefore = record.number("notBefore"), now < notBefore {
            return .refuse(.tooEarly(secondsLeft: notBefore - now))
        }
        if requiresLiveCode, !isLiveCode { return .refuse(.notTheLiveCode) }
        return .judge(fresh: fresh)
    }

    /// Counts a wrong answer into `record`: one more failure in the window, one fewer answer left on the live code's
    /// own budget when it drew on it, and the time before which the next answer is not judged.
    public func countFailure(in record: inout StateRecord, fresh: Bool, now: Int64) {
        let failures = SlidingCount(record, "failures", window: failureWindowSeconds, now: now)
        let delay = failureDelay(afterFailures: failures.value + 1)
        failures.adding(1, to: &record)
        if fresh { record.fields["fresh"] = .number(max((record.number("fresh") ?? 0) - 1, 0)) }
        record.fields["notBefore"] = delay > 0 ? .number(now + delay) : nil
        record.expiresAt = max(record.expiresAt, now + delay)
    }
}

extension SignInLimits {
    /// Decides from the user's record (nil: none) whether a fresh code for `seal` may go out by `channel` (`delivers` false when nothing would be sent
    /// anyway), and the record that names it as the live code when it may (nil: nothing to write).
    ///
    /// A live code is reused only for the same step and channel, and only if it was delivered or this Create would
    /// deliver nothing either; only delivered messages count against the send throttle. So a Create whose channel
    /// could not be used neither blocks a later one by another channel nor spends the user's sends.
    ///
    /// With `admitsStepUp`, a user whose wrong answers reached `CAPTCHA_STEP_UP_AFTER_FAILURES` is sent nothing and
    /// asked for a CAPTCHA first (``SendDecision/stepUp``), before any code is reused or counted.
    public func sendDecision(
        _ current: StateRecord?, seal: ChallengeSeal, channel: MessageChannel?, delivers: Bool, admitsStepUp: Bool, now: Int64
    ) -> (SendDecision, StateRecord?) {
        if admitsStepUp, asksForStepUp(current, now: now) { return (.stepUp, nil) }
        let record = current ?? StateRecord(fields: [:], expiresAt: now)
        if let live = record.liveSeal, live.stepIndex == seal.stepIndex, live.kind == seal.kind, live.expiresAt > now,
           record.text("channel") == (channel?.rawValue ?? ""), record.number("delivered") == 1 || !delivers,
           let sentAt = record.number("sentAt"), now - sentAt < resendAfterSeconds
        {
            return (.reuse(live, secondsAgo: now - sentAt), nil)
        }
        var changed = record
        if delivers {
            let sends = SlidingCount(record, "sends", window: sendWindowSeconds, now: now)
            guard sends.value < maxSendsPerWindow else { return (.throttled, nil) }
            sends.adding(1, to: &changed)
        }
        changed.fields["seal"] = .string(seal.metadata)
        changed.fields["sentAt"] = .number(now)
        changed.fields["channel"] = .string(channel?.rawValue ?? "")
        changed.fields["delivered"] = .number(delivers ? 1 : 0)
        changed.fields["fresh"] = delivers && freshCodeAttempts > 0 ? .number(freshCodeAttempts) : nil
        changed.expiresAt = max(changed.expiresAt, seal.expiresAt)
        return (.proceed, changed)
    }

    /// Records a judged answer to `seal` and says what it counts as, from the user's record (nil: none), with the record to write (nil: nothing): a wrong answer spends
    /// the failure budget (or the live code's own budget, once the window's is spent) and sets the delay before the
    /// next answer is judged; a right one is accepted only if the write that uses it up succeeds (for a delivered
    /// code: the record still names it as the live code, and the write removes it; for a step that gave a sequence:
    /// it is above the last one used, and the write records it). What ``SignInLimits/gate(_:seal:requiresLiveCode:passedStepUp:now:)``
    /// refuses is refused unjudged, whether the answer was right or not.
    ///
    /// A user without a record is judged: every code sent leaves a record that lives at least as long as the code,
    /// so this only happens to a store that was emptied (a local memory store after a restart), and the seal itself
    /// still has to match; the write that records the answer then creates the record, so it is used only once.
    public func answerDecision(
        _ current: StateRecord?, seal: ChallengeSeal, correct: Bool, usedSequence: Int64?, requiresLiveCode: Bool,
        passedStepUp: Bool, now: Int64
    ) -> (AnswerDecision, StateRecord?) {
        let fresh: Bool
        switch gate(current, seal: seal, requiresLiveCode: requiresLiveCode, passedStepUp: passedStepUp, now: now) {
        case .refuse(let decision): return (decision, nil)
        case .judge(let drawsOnCode): fresh = drawsOnCode
        }
        var changed = current ?? StateRecord(fields: [:], expiresAt: now)
        let usedField = "used_" + seal.kind.rawValue
        if correct, let usedSequence, let last = changed.number(usedField), usedSequence <= last {
            countFailure(in: &changed, fresh: fresh, now: now)
            return (.replayed, changed)
        }
        guard correct else {
            countFailure(in: &changed, fresh: fresh, now: now)
            return (.rejected, changed)
        }
        if requiresLiveCode {
            changed.fields["seal"] = nil
            changed.fields["fresh"] = nil
            changed.expiresAt = max(changed.expiresAt, seal.expiresAt)
        }
        if let usedSequence {
            changed.fields[usedField] = .number(usedSequence)
            // Kept for as long as the step may accept the same answer again (a day covers any clock drift).
            changed.expiresAt = max(changed.expiresAt, now + 86_400)
        }
        return (.accepted, changed)
    }
}

/// A count over a sliding window, estimated from two fixed windows: the previous window's count weighted by the
/// part of it the sliding window still covers, plus the current window's count.
public struct SlidingCount: Sendable {
    public let field: String
    public let window: Int64
    public let windowStart: Int64
    public let current: Int64
    public let previous: Int64
    /// The estimate, rounded up.
    public let value: Int64

    public init(_ record: StateRecord, _ field: String, window: Int64, now: Int64) {
        self.field = field
        self.window = window
        windowStart = now - now % window
        let storedStart = record.number(field + "Window")
        let storedCount = record.number(field) ?? 0
        let storedPrevious = record.number(field + "Previous") ?? 0
        switch storedStart {
        case windowStart?: (current, previous) = (storedCount, storedPrevious)
        case (windowStart - window)?: (current, previous) = (0, storedCount)
        default: (current, previous) = (0, 0)
        }
        let covered = window - (now - windowStart)
        value = current + (previous * covered + window - 1) / window
    }

    /// Writes the count with `amount` more into `record`, which then lives as long as the count matters.
    public func adding(_ amount: Int64, to record: inout StateRecord) {
        record.fields[field + "Window"] = .number(windowStart)
        record.fields[field] = .number(current + amount)
        record.fields[field + "Previous"] = .number(previous)
        record.expiresAt = max(record.expiresAt, windowStart + 2 * window)
    }
}

extension StateRecord {
    /// The live code's seal the record names, if any.
    public var liveSeal: ChallengeSeal? {
        text("seal").flatMap(ChallengeSeal.init(metadata:))
    }

    /// The string field `name`, if it holds one.
    public func text(_ name: String) -> String? {
        guard case .string(let value)? = fields[name] else { return nil }
        return value
    }

    /// The number field `name`, if it holds one.
    public func number(_ name: String) -> Int64? {
        guard case .number(let value)? = fields[name] else { return nil }
        return value
    }
}
