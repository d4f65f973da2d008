/// A small key-to-record store whose writes are compare-and-swap on a version number.
///
/// A read-modify-write goes: ``read(_:now:)``, change the fields, ``write(_:_:expectedVersion:now:)`` with the version
/// read (nil when there was no record); on `false`, someone else wrote first, so read again and redo the change.
/// An expired record (`expiresAt <= now`) counts as absent for both calls.
public protocol StateStore: AnyObject, Sendable {
    /// The live record under `key` (a strongly consistent read), or nil when there is none or it expired.
    func read(_ key: String, now: Int64) throws(StateStoreError) -> StateRecord?

    /// Stores `record` (its `version` ignored) under `key` only if the live record's version is `expectedVersion`,
    /// or, for a nil `expectedVersion`, only if there is no live record. The stored version becomes
    /// `expectedVersion + 1`, or 1. Returns false, changing nothing, when that condition does not hold.
    func write(_ key: String, _ record: StateRecord, expectedVersion: Int64?, now: Int64) throws(StateStoreError) -> Bool
}
