import ChallengeCrypto

/// A user's passkeys as the state store keeps them: one record per user, written by the registration API and by
/// the sign-in step (counter, backup state, last use), always with a conditional write.
///
/// The record's fields are strings: `handle` (the user handle, base64url) and `credentials`
/// (``StoredCredential/encodeList(_:)``). Its key is the user's record for the `PASSKEY` kind (see
/// `StateKey.userRecord` in ServiceClients).
public struct PasskeyAccount: Sendable, Equatable {
    /// The opaque user handle (WebAuthn `user.id`), random, 32 bytes, never the user name.
    public var handle: [UInt8]
    /// The registered credentials, oldest first.
    public var credentials: [StoredCredential]

    public init(handle: [UInt8], credentials: [StoredCredential] = []) {
        self.handle = handle
        self.credentials = credentials
    }

    /// Reads the record's fields.
    public init(fields: [String: String]) throws(WebAuthnError) {
        guard let text = fields["handle"], let handle = Base64URL.decode(text), !handle.isEmpty else {
            throw .malformed("the passkey record has no user handle")
        }
        self.handle = handle
        credentials = try fields["credentials"].map { text throws(WebAuthnError) in try StoredCredential.decodeList(text) } ?? []
    }

    /// The record's fields.
    public var fields: [String: String] {
        ["handle": Base64URL.encode(handle), "credentials": StoredCredential.encodeList(credentials)]
    }
}
