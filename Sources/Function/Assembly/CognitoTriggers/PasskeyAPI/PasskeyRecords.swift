import ChallengeCrypto
import ChallengeFlows
import ServiceClients
import WebAuthnCeremonies

/// The state records of one caller, under keys that do not name them (see `StateKey.userRecord`):
///
/// - `PASSKEY`: the account (`PasskeyAccount`'s fields); the sign-in step reads and updates it too, and keeps fields
///   of its own there (the challenges it has seen used), which every write here carries over.
/// - `PASSKEY_REGISTRATION`: the pending registration's challenge (`challenge`, base64url), expiring with the
///   ceremony's timeout and consumed (written expired) by the first registration that presents it.
/// - `PASSKEY_CREDENTIAL` (one per credential id, keyed by the id in base64url): the claim that makes a credential
///   id one user's only; its `owner` is the owning account's record key.
struct PasskeyRecords {
    static let accountKind = "PASSKEY"
    static let registrationKind = "PASSKEY_REGISTRATION"
    static let credentialKind = "PASSKEY_CREDENTIAL"
    /// How long a new account or claim lives, as the sign-in step's new records do; a record keeps its expiry
    /// across changes.
    static let newRecordLifetime: Int64 = 10 * 365 * 86_400

    let store: any StateStore
    let recordKey: [UInt8]
    let userPoolID: String
    let sub: String

    var accountKey: String {
        StateKey.userRecord(secret: recordKey, userPoolId: userPoolID, kind: Self.accountKind, sub: sub)
    }

    var registrationKey: String {
        StateKey.userRecord(secret: recordKey, userPoolId: userPoolID, kind: Self.registrationKind, sub: sub)
    }

    /// The key of the claim on a credential id, the same whoever asks.
    func claimKey(credentialID: [UInt8]) -> String {
        StateKey.userRecord(secret: recordKey, userPoolId: userPoolID, kind: Self.credentialKind, sub: Base64URL.encode(credentialID))
    }

    /// The account as stored, with the record's version; nil when the caller has none yet.
    func readAccount(now: Int64) throws(APIRefusal) -> (account: PasskeyAccount, version: Int64)? {
        try account(from: try read(accountKey, now: now))
    }

    /// The account a record holds (nil for none); a record the API cannot read is a server error.
    func account(from record: StateRecord?) throws(APIRefusal) -> (account: PasskeyAccount, version: Int64)? {
        guard let record else { return nil }
        var fields: [String: String] = [:]
        for case (let name, .string(let text)) in record.fields { fields[name] = text }
        do {
            return (try PasskeyAccount(fields: fields), record.version)
        } catch {
            throw .internalError("the caller's passkey record cannot be read: \(error)")
        }
    }

    /// The record to store for `account` over the one read (nil: none): the account's fields written over the
    /// read record's, which keep the sign-in step's own, and the read record's expiry.
    static func record(of account: PasskeyAccount, over read: StateRecord?, now: Int64) -> StateRecord {
        var record = StateRecord(fields: read?.fields ?? [:], expiresAt: read?.expiresAt ?? now + newRecordLifetime)
        for (name, value) in account.fields { record.fields[name] = .string(value) }
        return record
    }

    func read(_ key: String, now: Int64) throws(APIRefusal) -> StateRecord? {
        do {
            return try store.read(key, now: now)
        } catch {
            throw .storeFailure(error)
        }
    }

    func write(_ key: String, _ record: StateRecord, expectedVersion: Int64?, now: Int64) throws(APIRefusal) -> WriteOutcome {
        do {
            return try store.write(key, record, expectedVersion: expectedVersion, now: now)
        } catch {
            throw .storeFailure(error)
        }
    }

    /// How many times a decision is made again from the record a conflicting write found, before giving up.
    static let attempts = 4

    /// Decides a change of the account from the live record and stores it with one conditional write, deciding
    /// again from the record a conflict hands back. `decide` gets the account (nil when there is none) and returns
    /// the account to store and a result, or throws a refusal.
    func changeAccount<Result>(
        startingFrom known: StateRecord??, now: Int64,
        _ decide: (PasskeyAccount?) throws(APIRefusal) -> (PasskeyAccount, Result)
    ) throws(APIRefusal) -> Result {
        var current: StateRecord?
        if let known { current = known } else { current = try read(accountKey, now: now) }
        for _ in 0..<Self.attempts {
            let decoded = try account(from: current)
            let (changed, result) = try decide(decoded?.account)
            let record = Self.record(of: changed, over: current, now: now)
            switch try write(accountKey, record, expectedVersion: decoded?.version, now: now) {
            case .written: return result
            case .conflict(let found): current = found
            }
        }
        throw .busy
    }
}
