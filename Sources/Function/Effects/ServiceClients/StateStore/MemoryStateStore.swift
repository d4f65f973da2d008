import ChallengeFlows
import Platform

/// A ``StateStore`` in this process's memory, for tests and local runs: safe to share between threads, gone when
/// the process ends. Expired records stay until overwritten, as DynamoDB's lazy TTL leaves them.
public final class MemoryStateStore: StateStore {
    private let records = PosixLock<[String: StateRecord]>([:])

    /// An empty store.
    public init() {}

    /// The live record under `key`, or nil; never throws.
    public func read(_ key: String, now: Int64) -> StateRecord? {
        records.withLock { records in
            records[key].flatMap { $0.isExpired(at: now) ? nil : $0 }
        }
    }

    /// Stores `record` if the live version is `expectedVersion` (nil: no live record); never throws.
    public func write(_ key: String, _ record: StateRecord, expectedVersion: Int64?, now: Int64) -> WriteOutcome {
        records.withLock { records in
            let live = records[key].flatMap { $0.isExpired(at: now) ? nil : $0 }
            guard live?.version == expectedVersion else { return .conflict(current: live) }
            var stored = record
            stored.version = (expectedVersion ?? 0) + 1
            records[key] = stored
            return .written(version: stored.version)
        }
    }
}
