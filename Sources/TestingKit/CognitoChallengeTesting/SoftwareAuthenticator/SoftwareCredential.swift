/// A passkey the software authenticator holds: its private key and what the authenticator keeps beside it.
public struct SoftwareCredential: Sendable, Equatable {
    /// The credential ID (random, 16–32 bytes).
    public var id: [UInt8]
    public var algorithm: COSEAlgorithm
    /// The private key, DER PKCS #8 `PrivateKeyInfo`.
    public var privateKey: [UInt8]
    /// The RP ID it is scoped to.
    public var rpID: String
    /// The user handle (`user.id`) the relying party gave at registration.
    public var userHandle: [UInt8]
    /// The user name (`user.name`) given at registration.
    public var userName: String
    /// The signature counter as last reported.
    public var signCount: UInt32
    /// BE: the credential may be backed up (synced); fixed for its life.
    public var backupEligible: Bool
    /// BS: the credential is backed up.
    public var backedUp: Bool

    public init(
        id: [UInt8], algorithm: COSEAlgorithm, privateKey: [UInt8], rpID: String, userHandle: [UInt8], userName: String,
        signCount: UInt32, backupEligible: Bool, backedUp: Bool
    ) {
        self.id = id
        self.algorithm = algorithm
        self.privateKey = privateKey
        self.rpID = rpID
        self.userHandle = userHandle
        self.userName = userName
        self.signCount = signCount
        self.backupEligible = backupEligible
        self.backedUp = backedUp
    }

    /// The public key as a COSE_Key, encoded (what the attested credential data carries).
    public func cosePublicKey() throws(SoftwareAuthenticatorError) -> [UInt8] {
        try KeyHandle.load(pkcs8DER: privateKey, algorithm: algorithm).coseKey().encoded()
    }

    /// The public key as DER `SubjectPublicKeyInfo`.
    public func subjectPublicKeyInfo() throws(SoftwareAuthenticatorError) -> [UInt8] {
        try KeyHandle.load(pkcs8DER: privateKey, algorithm: algorithm).subjectPublicKeyInfoDER()
    }

    /// This credential's signature of `message` (see ``COSEAlgorithm`` for the forms).
    public func sign(_ message: [UInt8]) throws(SoftwareAuthenticatorError) -> [UInt8] {
        try KeyHandle.load(pkcs8DER: privateKey, algorithm: algorithm).sign(message)
    }
}
