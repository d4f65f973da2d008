import ChallengeFlows

/// A small key-to-record store whose writes are conditional on a version number.
///
/// A change goes: decide from the record you believe is live (read it, or remember it from an earlier call), then
/// ``write(_:_:expectedVersion:now:)`` with its version (nil when there was no record). When someone else wrote
/// first the write changes nothing and hands back the record it found, so the caller decides again from that
/// without another read: one round trip when the belief was right, two when it was not.
/// An expired record (`expiresAt <= now`) counts as absent for every call.
public protocol StateStore: AnyObject, Sendable {
    /// The live record under `key` (a strongly consistent read), or nil when there is none or it expired.
    func read(_ key: String, now: Int64) throws(StateStoreError) -> StateRecord?

    /// Stores `record` (its `version` ignored) under `key` only if the live record's version is `expectedVersion`,
    /// or, for a nil `expectedVersion`, only if there is no live record. The stored version becomes
    /// `expectedVersion + 1`, or 1. When the condition does not hold, nothing changes and the outcome carries the
    /// live record the store found instead (nil when there is none).
    func write(_ key: String, _ record: StateRecord, expectedVersion: Int64?, now: Int64) throws(StateStoreError)
        -> WriteOutcome
}

/// What a conditional ``StateStore/write(_:_:expectedVersion:now:)`` did.
public enum WriteOutcome: Sendable, Equatable {
    /// The record was stored as this version.
    case written(version: Int64)
    /// Another writer came first: nothing was stored, and this is the live record found (nil: none).
    case conflict(current: StateRecord?)

    /// True when the record was stored.
    public var succeeded: Bool {
        if case .written = self { true } else { false }
    }
}
