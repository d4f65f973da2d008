/// A registered passkey as the relying party keeps it for a user.
public struct StoredCredential: Sendable, Equatable {
    /// The credential ID the authenticator chose (raw bytes; base64url on the wire).
    public var id: [UInt8]
    /// The credential's public key, as the COSE_Key bytes found in the attested credential data.
    public var publicKey: [UInt8]
    /// The signature counter last seen (0 for authenticators that keep none).
    public var signCount: UInt32
    /// The transports the client reported at registration (`internal`, `hybrid`, `usb`, `nfc`, `ble`).
    public var transports: [String]
    /// The authenticator model's AAGUID (16 bytes; all zero when not attested).
    public var aaguid: [UInt8]
    /// BE: the credential may be backed up (synced); fixed for the credential's life.
    public var backupEligible: Bool
    /// BS: the credential was backed up when last used.
    public var backedUp: Bool
    /// A name the user gave it.
    public var name: String
    /// Unix seconds when it was registered.
    public var createdAt: Int64
    /// Unix seconds when it last signed in; nil before its first use.
    public var lastUsedAt: Int64?

    public init(
        id: [UInt8], publicKey: [UInt8], signCount: UInt32, transports: [String], aaguid: [UInt8],
        backupEligible: Bool, backedUp: Bool, name: String, createdAt: Int64, lastUsedAt: Int64? = nil
    ) {
        self.id = id
        self.publicKey = publicKey
        self.signCount = signCount
        self.transports = transports
        self.aaguid = aaguid
        self.backupEligible = backupEligible
        self.backedUp = backedUp
        self.name = name
        self.createdAt = createdAt
        self.lastUsedAt = lastUsedAt
    }
}
