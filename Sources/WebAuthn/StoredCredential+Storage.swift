extension StoredCredential {
    /// A user's credentials as one JSON string, for a state record's field: an array of objects with base64url
    /// `id`, `publicKey` and `aaguid`, and `signCount`, `transports`, `backupEligible`, `backedUp`, `name`,
    /// `createdAt`, `lastUsedAt` (absent when nil).
    public static func encodeList(_ credentials: [StoredCredential]) -> String {
        fatalError("not implemented yet")
    }

    /// The credentials ``encodeList(_:)`` wrote.
    public static func decodeList(_ json: String) throws(WebAuthnError) -> [StoredCredential] {
        throw .malformed("not implemented yet")
    }
}
