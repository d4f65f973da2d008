import ChallengeFlows
import Platform
import ServiceClients

/// The one compare-and-swap loop of the triggers: a decision of the core made from the record believed live is
/// written on that record's version; a lost write hands back the winning record, and the decision is made again from
/// it after a short random pause. The limits' records and the records steps keep per user both change this way.
struct ConditionalUpdate {
    let store: any StateStore
    /// Waits between attempts (``SignInLimiter/backoff(afterLosses:)``).
    let pause: @Sendable (Duration) -> Void

    /// The most conditional writes one decision makes before giving up; each lost one returns the winning record.
    /// Forty answers to one user at once from eight functions all get decided within it (a test holds it to that).
    static let maximumAttempts = 16

    /// What came of an update: the decision that was written (or needed no write), how many writes it lost first,
    /// and the record now stored (nil when none was read or written).
    struct Outcome<Result> {
        let result: Result
        let losses: Int
        let stored: StateRecord?
    }

    /// Decides from `believed` and writes the change on its version. A decision that writes nothing is confirmed
    /// with a read first unless `confirmed` (the record was just read, not remembered).
    func run<Result>(
        _ key: String, believed: StateRecord?, confirmed: Bool, now: Int64,
        _ decide: (StateRecord?) -> (Result, StateRecord?)
    ) throws(StateStoreError) -> Outcome<Result> {
        var believed = believed
        var confirmed = confirmed
        var losses = 0
        for _ in 0..<Self.maximumAttempts {
            let (result, changed) = decide(believed)
            guard let changed else {
                if confirmed { return Outcome(result: result, losses: losses, stored: believed) }
                believed = try store.read(key, now: now)
                confirmed = true
                continue
            }
            switch try store.write(key, changed, expectedVersion: believed?.version, now: now) {
            case .written(let version):
                var stored = changed
                stored.version = version
                return Outcome(result: result, losses: losses, stored: stored)
            case .conflict(let current):
                believed = current
                confirmed = true
                losses += 1
                pause(SignInLimiter.backoff(afterLosses: losses))
            }
        }
        throw .contended(key: key, attempts: Self.maximumAttempts)
    }
}
