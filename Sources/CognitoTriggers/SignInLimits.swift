import ChallengeFlows
import ChallengeStateStore

/// Limits that hold across sign-ins, kept per user in a ``StateStore``: one live code per user, a send throttle, a
/// failure budget, and retry-safe Create.
///
/// No session id reaches the triggers, so each new sign-in looks like the first; only shared state can tell that
/// a code was sent a moment ago (to the same user, or by a Create that Cognito is retrying). Every change is a
/// compare-and-swap on the user's record, so two Creates at once send one email. Records are keyed by a keyed hash
/// of pool and user name, and unknown users get records too, so the limits never tell them apart.
public struct SignInLimits: Sendable {
    /// A new sign-in reuses the live code instead of sending another until this long after it was sent.
    public var resendAfterSeconds: Int64 = 60
    /// At most this many emails per user per send window.
    public var maxSendsPerWindow: Int64 = 5
    public var sendWindowSeconds: Int64 = 900
    /// At most this many wrong codes per user per failure window, over all sessions.
    public var maxFailuresPerWindow: Int64 = 10
    public var failureWindowSeconds: Int64 = 3600

    public init() {}

    /// Reads the `RESEND_AFTER_SECONDS`, `MAX_SENDS_PER_WINDOW`, `SEND_WINDOW_SECONDS`, `MAX_FAILURES_PER_WINDOW` and
    /// `FAILURE_WINDOW_SECONDS` variables; a bad value names its variable.
    public init(environment: [String: String]) throws(ConfigurationError) {
        func read(_ variable: String, _ range: ClosedRange<Int64>, default value: Int64) throws(ConfigurationError) -> Int64 {
            guard let text = environment[variable], !text.isEmpty else { return value }
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
    }
}

/// What the limits decided for a Create that would send a fresh code.
enum SendDecision: Equatable {
    /// Send the new code; the record now names it as the live code.
    case send
    /// Do not send: a code sent `secondsAgo` for the same step is still valid; answer with its seal.
    case reuse(ChallengeSeal, secondsAgo: Int64)
    /// Do not send: the user reached the send throttle. The new challenge is answered normally but never verifies.
    case throttled
}

/// What the limits decided before judging an answer to a code.
enum VerifyGate: Equatable {
    /// Judge the answer.
    case open
    /// The user ran out of wrong answers for this window.
    case failureBudgetSpent
    /// The answer is to a code that is not the user's live code (never sent, replaced, or already used).
    case notTheLiveCode
}

/// The limits applied to one store. Field names are short: they are stored in every record.
struct SignInLimiter {
    let limits: SignInLimits
    let store: any StateStore
    /// Keys the record names (``StateKey``), so that the table holds no user name.
    let recordKey: [UInt8]
    /// The most compare-and-swap attempts one decision makes before giving up (each is a read and a write).
    static let maximumAttempts = 4

    /// The name of a user's record.
    func key(for user: UserIdentity) -> String {
        StateKey.derive(secret: recordKey, userPoolId: user.userPoolId, userName: user.userName.lowercased())
    }

    /// Decides whether a fresh code for `seal` may be sent, and records it as the live code when it may.
    func decideSend(key: String, seal: ChallengeSeal, now: Int64) throws(StateStoreError) -> SendDecision {
        try update(key, now: now) { record in
            if let live = record.liveSeal, live.stepIndex == seal.stepIndex, live.kind == seal.kind, live.expiresAt > now,
               let sentAt = record.number("sentAt"), now - sentAt < limits.resendAfterSeconds
            {
                return (.reuse(live, secondsAgo: now - sentAt), nil)
            }
            let window = now - now % limits.sendWindowSeconds
            let sends = record.number("sendWindow") == window ? record.number("sends") ?? 0 : 0
            guard sends < limits.maxSendsPerWindow else { return (.throttled, nil) }
            var changed = record
            changed.fields["seal"] = .string(seal.metadata)
            changed.fields["sentAt"] = .number(now)
            changed.fields["sendWindow"] = .number(window)
            changed.fields["sends"] = .number(sends + 1)
            changed.expiresAt = max(record.expiresAt, seal.expiresAt, window + limits.sendWindowSeconds)
            return (.send, changed)
        }
    }

    /// Whether an answer to `seal` may be judged at all.
    ///
    /// A user without a record is judged: every code sent leaves a record that lives at least as long as the code,
    /// so this only happens to a store that was emptied (a local memory store after a restart), and the seal itself
    /// still has to match.
    func gate(key: String, seal: ChallengeSeal, now: Int64) throws(StateStoreError) -> VerifyGate {
        guard let record = try store.read(key, now: now) else { return .open }
        let window = now - now % limits.failureWindowSeconds
        if record.number("failureWindow") == window, record.number("failures") ?? 0 >= limits.maxFailuresPerWindow {
            return .failureBudgetSpent
        }
        return record.liveSeal == seal ? .open : .notTheLiveCode
    }

    /// Records the outcome of a judged answer: a wrong one spends the failure budget; a right one uses the code up.
    func record(correct: Bool, key: String, seal: ChallengeSeal, now: Int64) throws(StateStoreError) {
        try update(key, now: now) { record in
            var changed = record
            if correct {
                guard record.liveSeal == seal else { return ((), nil) }
                changed.fields["seal"] = nil
            } else {
                let window = now - now % limits.failureWindowSeconds
                let failures = record.number("failureWindow") == window ? record.number("failures") ?? 0 : 0
                changed.fields["failureWindow"] = .number(window)
                changed.fields["failures"] = .number(failures + 1)
                changed.expiresAt = max(record.expiresAt, window + limits.failureWindowSeconds)
            }
            return ((), changed)
        }
    }

    /// Reads the record, lets `change` decide, and writes the changed record if there is one, retrying on a conflict.
    private func update<Result>(
        _ key: String, now: Int64, _ change: (StateRecord) -> (Result, StateRecord?)
    ) throws(StateStoreError) -> Result {
        for _ in 0..<Self.maximumAttempts {
            let current = try store.read(key, now: now)
            let (result, changed) = change(current ?? StateRecord(fields: [:], expiresAt: now))
            guard let changed else { return result }
            if try store.write(key, changed, expectedVersion: current?.version, now: now) { return result }
        }
        throw .contended(key: key, attempts: Self.maximumAttempts)
    }
}

extension StateRecord {
    fileprivate var liveSeal: ChallengeSeal? {
        guard case .string(let text)? = fields["seal"] else { return nil }
        return ChallengeSeal(metadata: text)
    }

    fileprivate func number(_ name: String) -> Int64? {
        guard case .number(let value)? = fields[name] else { return nil }
        return value
    }
}
