import ChallengeCrypto
import ChallengeFlows
import Platform
import ServiceClients

/// The limits applied to one store. Field names are short: they are stored in every record.
struct SignInLimiter {
    let limits: SignInLimits
    let store: any StateStore
    /// Keys the record names (``StateKey``), so that the table holds no user name.
    let recordKey: [UInt8]
    /// The records this process saw last, so that a decision usually costs one conditional write and no read.
    let seen = SeenRecords()

    /// The name of a user's record: by `sub` for a real user (so that user names differing only in case, in a
    /// case-sensitive pool, never share one), by the lower-cased name for an unknown one (who has no `sub`).
    func key(for user: UserIdentity, attributes: [String: String], userNotFound: Bool) -> String {
        if !userNotFound, let sub = attributes["sub"], !sub.isEmpty {
            return StateKey.derive(secret: recordKey, userPoolId: user.userPoolId, userName: "sub\u{0}" + sub)
        }
        return StateKey.derive(secret: recordKey, userPoolId: user.userPoolId, userName: user.userName.lowercased())
    }

    /// Decides whether a fresh code for `seal` may go out (``SignInLimits/sendDecision(_:seal:channel:delivers:admitsStepUp:now:)``)
    /// and carries the decision out as one conditional write.
    func decideSend(
        key: String, seal: ChallengeSeal, channel: MessageChannel?, delivers: Bool, admitsStepUp: Bool, now: Int64
    ) throws(StateStoreError) -> SendDecision {
        try update(key, now: now) {
            limits.sendDecision($0, seal: seal, channel: channel, delivers: delivers, admitsStepUp: admitsStepUp, now: now)
        }
    }

    /// Decides what a judged answer to `seal` counts as (``SignInLimits/answerDecision(_:seal:correct:usedSequence:requiresLiveCode:passedStepUp:now:)``)
    /// and carries the decision out as one conditional write.
    func decideAnswer(
        key: String, seal: ChallengeSeal, correct: Bool, usedSequence: Int64?, requiresLiveCode: Bool, passedStepUp: Bool,
        now: Int64
    ) throws(StateStoreError) -> AnswerDecision {
        try update(key, now: now) {
            limits.answerDecision(
                $0, seal: seal, correct: correct, usedSequence: usedSequence, requiresLiveCode: requiresLiveCode,
                passedStepUp: passedStepUp, now: now)
        }
    }

    /// True when the user's wrong answers reached `CAPTCHA_STEP_UP_AFTER_FAILURES`, read from the store (for a step
    /// that sends nothing, whose Create decides nothing else there).
    func asksForStepUp(key: String, now: Int64) throws(StateStoreError) -> Bool {
        try update(key, now: now) { current in (limits.asksForStepUp(current, now: now), nil) }
    }

    /// Decides from the record this process saw last (``SeenRecords``) and carries the decision out with
    /// ``ConditionalUpdate``, remembering the record stored.
    func update<Result>(
        _ key: String, now: Int64, _ decide: (StateRecord?) -> (Result, StateRecord?)
    ) throws(StateStoreError) -> Result {
        let outcome = try ConditionalUpdate(store: store, pause: MonotonicTime.system.pause)
            .run(key, believed: seen[key, now], confirmed: false, now: now, decide)
        seen[key, now] = outcome.stored
        return outcome.result
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
