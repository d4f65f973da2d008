/// One field's value in a ``StateRecord``: a whole number or a string.
public enum StateValue: Sendable, Equatable {
    case number(Int64)
    case string(String)
}

/// What a state store (`StateStore`, in ServiceClients) keeps under one key: named fields, the version that compare-and-swap checks, and an expiry.
public struct StateRecord: Sendable, Equatable {
    /// The record's data, such as a send count or a code's seal.
    public var fields: [String: StateValue]
    /// Set by the store on every write: 1 for a new record, then one more than the version it replaced.
    public var version: Int64
    /// Unix seconds after which the record counts as absent (it is expired when `expiresAt <= now`).
    /// DynamoDB's TTL deletes such items itself, days later at worst.
    public var expiresAt: Int64

    /// A record to write; the store assigns ``version``, so a new one may leave it 0.
    public init(fields: [String: StateValue], version: Int64 = 0, expiresAt: Int64) {
        self.fields = fields
        self.version = version
        self.expiresAt = expiresAt
    }

    /// True when the record counts as absent at `now` (Unix seconds).
    public func isExpired(at now: Int64) -> Bool {
        expiresAt <= now
    }
}
