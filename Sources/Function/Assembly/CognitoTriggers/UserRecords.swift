import ChallengeFlows
import ServiceClients

/// The records steps keep per user across sign-ins (``ChallengeStep/keepsUserRecord``), in the limits' store.
///
/// The step decides from the record it is handed; the handler carries the decision out as one conditional write on
/// the version it read, never as a read, a judgement and a later blind write.
struct UserRecords {
    let store: any StateStore
    /// Keys the record names, as the limits' records are keyed (so that the table holds no user name).
    let recordKey: [UInt8]
    /// A record a step creates (none existed) lives this long; one that existed keeps its own expiry.
    static let newRecordLifetime: Int64 = 10 * 365 * 86_400

    /// A user's record for `kind`, as read now: its key (nil for an unknown user or one without `sub`, who has no
    /// record) and the record (nil when there is none).
    ///
    /// For a user without a record key a record under a key no user has is read all the same and ignored, so that
    /// how long a Create takes does not tell unknown users apart.
    func read(
        kind: ChallengeKind, user: UserIdentity, attributes: [String: String], userNotFound: Bool, now: Int64
    ) throws(StateStoreError) -> (key: String?, record: StateRecord?) {
        if !userNotFound, let sub = attributes["sub"], !sub.isEmpty {
            let key = StateKey.userRecord(secret: recordKey, userPoolId: user.userPoolId, kind: kind.rawValue, sub: sub)
            return (key, try store.read(key, now: now))
        }
        // No `sub` holds a NUL byte, so this key is nobody's.
        let nobody = StateKey.userRecord(
            secret: recordKey, userPoolId: user.userPoolId, kind: kind.rawValue, sub: "\u{0}" + user.userName.lowercased())
        _ = try store.read(nobody, now: now)
        return (nil, nil)
    }

    /// The record to write for `fields`, a step's new string fields, over `read` (nil: there is none yet): the
    /// record's other fields and its expiry stay as read.
    static func record(with fields: [String: String], over read: StateRecord?, now: Int64) -> StateRecord {
        var record = StateRecord(fields: [:], expiresAt: read?.expiresAt ?? now + Self.newRecordLifetime)
        for (name, value) in read?.fields ?? [:] {
            if case .number = value { record.fields[name] = value }
        }
        for (name, value) in fields { record.fields[name] = .string(value) }
        return record
    }
}

extension StateRecord {
    /// The fields that hold strings, as a step sees them (``StepContext/userRecord``).
    var stringFields: [String: String] {
        var strings: [String: String] = [:]
        for (name, value) in fields {
            if case .string(let text) = value { strings[name] = text }
        }
        return strings
    }
}
