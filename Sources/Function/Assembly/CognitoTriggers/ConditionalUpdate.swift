import ChallengeCrypto
import ChallengeFlows
import Platform
import ServiceClients

/// The one compare-and-swap loop of the triggers: a decision of the core made from the record believed live is
/// written on that record's version; a lost write hands back the winning record, and the decision is made again from
/// it after a short random pause. The limits' records and the records steps keep per user both change this way.
struct ConditionalUpdate {
    let store: any StateStore
    /// Waits between attempts (``backoff(afterLosses:)``).
    let pause: @Sendable (Duration) -> Void

    /// The most conditional writes one decision makes before giving up; each lost one returns the winning record.
    /// Forty answers to one user at once from eight functions all get decided within it (a test holds it to that).
    static let maximumAttempts = 16
    /// The longest pause before trying again after a lost write; pauses are random up to a bound that doubles with
    /// each loss, so that writers who met once do not meet again in step.
    static let longestBackoffMilliseconds: Int64 = 128

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
                pause(Self.backoff(afterLosses: losses))
            }
        }
        throw .contended(key: key, attempts: Self.maximumAttempts)
    }
}

extension ConditionalUpdate {
    /// A random pause of up to 2^`losses` ms, at most ``longestBackoffMilliseconds``.
    static func backoff(afterLosses losses: Int) -> Duration {
        let boundMicroseconds = UInt64(min(Int64(1) << min(losses, 20), longestBackoffMilliseconds) * 1000)
        let random = (try? SystemRandom().bytes(count: 8))?.reduce(UInt64(0)) { $0 << 8 | UInt64($1) } ?? 0
        // Cosmetic: the bias of `%` on 64 random bits does not matter for a pause.
        return .microseconds(Int64(random % boundMicroseconds))
    }
}
