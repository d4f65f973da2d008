import ChallengeFlows

/// What `cognito-local` uses when nothing else is configured: enough to run every flow on a laptop with no AWS
/// account and no setup.
public enum LocalDefaults {
    /// A development-only key for the answer hashes. It is public (it is in this source file), so a deployment
    /// that used it would let anyone forge answers: the deploy tooling must never accept it.
    public static let codeHashSecret = "local-development-secret-do-not-deploy-0001"
    public static let flow = "email-code"

    public static let userName = "jane"
    public static let email = "jane.doe@example.com"
    /// jane's verified phone number (a fictional 555 number), for `sms-code`.
    public static let phoneNumber = "+15555550100"
    /// Where local sign-in links point (`magic-link`); locally the link's token is read from the outbox.
    public static let magicLinkURL = "http://localhost:3000/sign-in#token={token}"
    public static let password = "Correct-Horse-9"
    public static let userPoolId = "us-east-1_EXAMPLE"
    public static let region = "us-east-1"
    public static let clientId = "3example0client0id0abc123"
    public static let functionName = "cognito-challenge-triggers"

    /// The CAPTCHA images of Deploy/captcha-catalog.json, so that CAPTCHA flows work without a catalog file. Image
    /// names are opaque: a name that spelled its answer would give it away.
    public static let captchas: [CaptchaEntry] = [
        ("5d0e7c3a91b24f68", "w7xq4"), ("a83f26c1e0d94b57", "k3m9p"), ("1c9b4e72f85a0d36", "r8t2v"), ("e64a0b19d3c78f25", "h5d6n"),
    ].map { CaptchaEntry(imageURL: "https://captcha.example.com/images/\($0.0).png", answer: $0.1) }

    /// The configuration variables the triggers read, with their local values. `CAPTCHA_CATALOG` is added by
    /// ``LocalConfiguration`` (it needs a file).
    static let environment: [String: String] = [
        "CHALLENGE_FLOW": flow,
        "CODE_HASH_SECRET": codeHashSecret,
        "CODE_DELIVERY": "outbox",
        "MAGIC_LINK_URL": magicLinkURL,
        // The limits across sign-ins, kept in the process (`serve`, `pool` and one `sign-in` share them).
        "STATE_STORE": "memory",
        // Passkeys for pages on this machine: `localhost` is a secure context over plain http (an IP address is
        // never an RP ID). `pool` adds its own page's origin.
        "PASSKEY_RP_ID": passkeyRelyingParty,
        "PASSKEY_ALLOWED_ORIGINS": passkeyOrigin,
    ]

    /// The local RP ID.
    public static let passkeyRelyingParty = "localhost"
    /// The origin the local tools' software authenticator signs for, and the one the local passkey settings allow.
    public static let passkeyOrigin = "http://localhost:3000"
}
