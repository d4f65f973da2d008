import ChallengeCrypto
import ChallengeFlows
import ChallengeStateStore
import Basics

/// Limits that hold across sign-ins, kept per user in a ``StateStore``: one live code per user and channel, a send
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
    /// Budgets for the whole user pool, against floods over many user names; see ``PoolBudgets``.
    public var pool = PoolBudgets()

    public init() {}

    /// Reads the `RESEND_AFTER_SECONDS`, `MAX_SENDS_PER_WINDOW`, `SEND_WINDOW_SECONDS`, `MAX_FAILURES_PER_WINDOW`,
    /// `FAILURE_WINDOW_SECONDS`, `FAILURE_DELAY_BASE_SECONDS`, `FAILURE_DELAY_MAX_SECONDS` and `FRESH_CODE_ATTEMPTS`
    /// variables, and the pool's `POOL_MAX_SENDS_PER_WINDOW`, `POOL_MAX_SMS_PER_WINDOW`,
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

/// What the limits decided for a Create that issues a fresh code.
enum SendDecision: Equatable {
    /// Go ahead: send the new code, or, when there is nothing to send (an unknown user, an unusable address), answer
    /// with the new challenge. The record now names it as the live code for its channel.
    case proceed
    /// Do not send: a code sent `secondsAgo` by the same channel for the same step is still valid; answer with it.
    case reuse(ChallengeSeal, secondsAgo: Int64)
    /// Do not send: the user reached the send throttle. The new challenge is answered normally but never verifies.
    case throttled
}

/// What the limits made of a judged answer.
enum AnswerDecision: Equatable {
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
enum AnswerGate: Equatable {
    /// Judge it; `fresh` when it draws on the live code's own budget because the window's is spent.
    case judge(fresh: Bool)
    /// Refuse it unjudged.
    case refuse(AnswerDecision)
}

extension SignInLimits {
    /// Decides from the user's record (nil: none) whether an answer to `seal` is judged: not when the window's
    /// failure budget is spent (unless the answer is to a delivered live code with some of its own budget left), not
    /// before the delay of the last wrong answer is over, and, for a step that delivers its answer, not unless
    /// `seal` is the live code.
    func gate(_ current: StateRecord?, seal: ChallengeSeal, requiresLiveCode: Bool, now: Int64) -> AnswerGate {
        let record = current ?? StateRecord(fields: [:], expiresAt: now)
        let isLiveCode = current == nil || record.liveSeal == seal
        var fresh = false
        if SlidingCount(record, "failures", window: failureWindowSeconds, now: now).value >= maxFailuresPerWindow {
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
    func countFailure(in record: inout StateRecord, fresh: Bool, now: Int64) {
        let failures = SlidingCount(record, "failures", window: failureWindowSeconds, now: now)
        let delay = failureDelay(afterFailures: failures.value + 1)
        failures.adding(1, to: &record)
        if fresh { record.fields["fresh"] = .number(max((record.number("fresh") ?? 0) - 1, 0)) }
        record.fields["notBefore"] = delay > 0 ? .number(now + delay) : nil
        record.expiresAt = max(record.expiresAt, now + delay)
    }
}

/// The limits applied to one store. Field names are short: they are stored in every record.
struct SignInLimiter {
    let limits: SignInLimits
    let store: any StateStore
    /// Keys the record names (``StateKey``), so that the table holds no user name.
    let recordKey: [UInt8]
    /// The records this process saw last, so that a decision usually costs one conditional write and no read.
    let seen = SeenRecords()
    /// The most conditional writes one decision makes before giving up; each lost one returns the winning record.
    /// Forty answers to one user at once from eight functions all get decided within it (a test holds it to that).
    static let maximumAttempts = 16
    /// The longest pause before trying again after a lost write; pauses are random up to a bound that doubles with
    /// each loss, so that writers who met once do not meet again in step.
    static let longestBackoffMilliseconds: Int64 = 128

    /// The name of a user's record: by `sub` for a real user (so that user names differing only in case, in a
    /// case-sensitive pool, never share one), by the lower-cased name for an unknown one (who has no `sub`).
    func key(for user: UserIdentity, attributes: [String: String], userNotFound: Bool) -> String {
        if !userNotFound, let sub = attributes["sub"], !sub.isEmpty {
            return StateKey.derive(secret: recordKey, userPoolId: user.userPoolId, userName: "sub\u{0}" + sub)
        }
        return StateKey.derive(secret: recordKey, userPoolId: user.userPoolId, userName: user.userName.lowercased())
    }

    /// Decides whether a fresh code for `seal` may go out by `channel` (`delivers` false when nothing would be sent
    /// anyway), and records it as the live code when it may.
    ///
    /// A live code is reused only for the same step and channel, and only if it was delivered or this Create would
    /// deliver nothing either; only delivered messages count against the send throttle. So a Create whose channel
    /// could not be used neither blocks a later one by another channel nor spends the user's sends.
    func decideSend(
        key: String, seal: ChallengeSeal, channel: MessageChannel?, delivers: Bool, now: Int64
    ) throws(StateStoreError) -> SendDecision {
        try update(key, now: now) { current in
            let record = current ?? StateRecord(fields: [:], expiresAt: now)
            if let live = record.liveSeal, live.stepIndex == seal.stepIndex, live.kind == seal.kind, live.expiresAt > now,
               record.text("channel") == (channel?.rawValue ?? ""), record.number("delivered") == 1 || !delivers,
               let sentAt = record.number("sentAt"), now - sentAt < limits.resendAfterSeconds
            {
                return (.reuse(live, secondsAgo: now - sentAt), nil)
            }
            var changed = record
            if delivers {
                let sends = SlidingCount(record, "sends", window: limits.sendWindowSeconds, now: now)
                guard sends.value < limits.maxSendsPerWindow else { return (.throttled, nil) }
                sends.adding(1, to: &changed)
            }
            changed.fields["seal"] = .string(seal.metadata)
            changed.fields["sentAt"] = .number(now)
            changed.fields["channel"] = .string(channel?.rawValue ?? "")
            changed.fields["delivered"] = .number(delivers ? 1 : 0)
            changed.fields["fresh"] = delivers && limits.freshCodeAttempts > 0 ? .number(limits.freshCodeAttempts) : nil
            changed.expiresAt = max(changed.expiresAt, seal.expiresAt)
            return (.proceed, changed)
        }
    }

    /// Records a judged answer to `seal` and says what it counts as, in one conditional write: a wrong answer spends
    /// the failure budget (or the live code's own budget, once the window's is spent) and sets the delay before the
    /// next answer is judged; a right one is accepted only if the write that uses it up succeeds (for a delivered
    /// code: the record still names it as the live code, and the write removes it; for a step that gave a sequence:
    /// it is above the last one used, and the write records it). What ``SignInLimits/gate(_:seal:requiresLiveCode:now:)``
    /// refuses is refused unjudged, whether the answer was right or not.
    ///
    /// A user without a record is judged: every code sent leaves a record that lives at least as long as the code,
    /// so this only happens to a store that was emptied (a local memory store after a restart), and the seal itself
    /// still has to match; the write that records the answer then creates the record, so it is used only once.
    func decideAnswer(
        key: String, seal: ChallengeSeal, correct: Bool, usedSequence: Int64?, requiresLiveCode: Bool, now: Int64
    ) throws(StateStoreError) -> AnswerDecision {
        try update(key, now: now) { current in
            let fresh: Bool
            switch limits.gate(current, seal: seal, requiresLiveCode: requiresLiveCode, now: now) {
            case .refuse(let decision): return (decision, nil)
            case .judge(let drawsOnCode): fresh = drawsOnCode
            }
            var changed = current ?? StateRecord(fields: [:], expiresAt: now)
            let usedField = "used_" + seal.kind.rawValue
            if correct, let usedSequence, let last = changed.number(usedField), usedSequence <= last {
                limits.countFailure(in: &changed, fresh: fresh, now: now)
                return (.replayed, changed)
            }
            guard correct else {
                limits.countFailure(in: &changed, fresh: fresh, now: now)
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

    /// Decides from the record believed live and writes the change on that record's version; a lost write hands back
    /// the winning record, and the decision is made again from it. A decision that writes nothing is confirmed with
    /// a read when it was made from a record only remembered.
    func update<Result>(
        _ key: String, now: Int64, _ decide: (StateRecord?) -> (Result, StateRecord?)
    ) throws(StateStoreError) -> Result {
        var believed = seen[key, now]
        var confirmed = false
        var losses = 0
        for _ in 0..<Self.maximumAttempts {
            let (result, changed) = decide(believed)
            guard let changed else {
                if confirmed { return result }
                believed = try store.read(key, now: now)
                seen[key, now] = believed
                confirmed = true
                continue
            }
            switch try store.write(key, changed, expectedVersion: believed?.version, now: now) {
            case .written(let version):
                var stored = changed
                stored.version = version
                seen[key, now] = stored
                return result
            case .conflict(let current):
                believed = current
                seen[key, now] = current
                confirmed = true
                losses += 1
                Pause.sleep(Self.backoff(afterLosses: losses))
            }
        }
        throw .contended(key: key, attempts: Self.maximumAttempts)
    }
}

extension SignInLimiter {
    /// A random pause of up to 2^`losses` ms, at most ``longestBackoffMilliseconds``.
    static func backoff(afterLosses losses: Int) -> Duration {
        let boundMicroseconds = UInt64(min(Int64(1) << min(losses, 20), longestBackoffMilliseconds) * 1000)
        let random = (try? SystemRandom().bytes(count: 8))?.reduce(UInt64(0)) { $0 << 8 | UInt64($1) } ?? 0
        // Cosmetic: the bias of `%` on 64 random bits does not matter for a pause.
        return .microseconds(Int64(random % boundMicroseconds))
    }
}

/// A count over a sliding window, estimated from two fixed windows: the previous window's count weighted by the
/// part of it the sliding window still covers, plus the current window's count.
struct SlidingCount {
    let field: String
    let window: Int64
    let windowStart: Int64
    let current: Int64
    let previous: Int64
    /// The estimate, rounded up.
    let value: Int64

    init(_ record: StateRecord, _ field: String, window: Int64, now: Int64) {
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
    func adding(_ amount: Int64, to record: inout StateRecord) {
        record.fields[field + "Window"] = .number(windowStart)
        record.fields[field] = .number(current + amount)
        record.fields[field + "Previous"] = .number(previous)
        record.expiresAt = max(record.expiresAt, windowStart + 2 * window)
    }
}

/// The last record this process saw under each key, a guess that a conditional write checks. Bounded: when full, it
/// starts again empty.
final class SeenRecords: Sendable {
    private let records = PosixLock<[String: StateRecord]>([:])
    static let capacity = 4096

    /// The remembered live record (nil: none remembered, or it expired).
    subscript(key: String, now: Int64) -> StateRecord? {
        get { records.withLock { $0[key].flatMap { $0.isExpired(at: now) ? nil : $0 } } }
        set {
            records.withLock { records in
                if records.count >= Self.capacity, records[key] == nil { records.removeAll(keepingCapacity: true) }
                records[key] = newValue
            }
        }
    }
}

extension StateRecord {
    var liveSeal: ChallengeSeal? {
        text("seal").flatMap(ChallengeSeal.init(metadata:))
    }

    func text(_ name: String) -> String? {
        guard case .string(let value)? = fields[name] else { return nil }
        return value
    }

    func number(_ name: String) -> Int64? {
        guard case .number(let value)? = fields[name] else { return nil }
        return value
    }
}
