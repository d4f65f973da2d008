/// How a deployment runs passkeys: read from the environment by the function's configuration
/// (`PASSKEY_RP_ID`, `PASSKEY_RP_NAME`, `PASSKEY_ALLOWED_ORIGINS`, `PASSKEY_ATTESTATION`, `PASSKEY_AAGUIDS`,
/// `PASSKEY_MAX_CREDENTIALS`, `PASSKEY_TIMEOUT_MS`), used by the sign-in step and the registration API alike.
public struct PasskeySettings: Sendable, Equatable {
    /// The RP ID, name and allowed origins.
    public var relyingParty: RelyingParty
    /// What registrations must attest.
    public var attestation: AttestationPolicy
    /// How many passkeys one user may register.
    public var maxCredentialsPerUser: Int
    /// How long a ceremony may take, in milliseconds (the options' `timeout`); the challenge expires with it.
    public var timeoutMilliseconds: Int

    public init(
        relyingParty: RelyingParty, attestation: AttestationPolicy = AttestationPolicy(), maxCredentialsPerUser: Int = 10,
        timeoutMilliseconds: Int = 300_000
    ) {
        self.relyingParty = relyingParty
        self.attestation = attestation
        self.maxCredentialsPerUser = maxCredentialsPerUser
        self.timeoutMilliseconds = timeoutMilliseconds
    }
}
