import ChallengeCrypto

/// Keys for a ``StateStore`` that do not reveal whom they belong to.
public enum StateKey {
    /// Names this key's use, so that the same secret could key other things without their values colliding.
    static let purpose = "cognito-challenge-state-v1"

    /// The lower-case hexadecimal HMAC-SHA256, under `secret`, of a purpose label, the user pool id and the user
    /// name joined with NUL bytes: 64 characters, the same for the same user every time, and no user name in the
    /// table. Pass Cognito's `userName` as the event carries it (its canonical form).
    public static func derive(secret: [UInt8], userPoolId: String, userName: String) -> String {
        // Concatenated, not `[…].joined(separator:)`, whose unspecialized code looks its types up at run time.
        Hex.encode(HMACSHA256.authenticationCode(key: secret, message: purpose + "\u{0}" + userPoolId + "\u{0}" + userName))
    }

    /// The key of the record a step keeps for a user across sign-ins (a passkey's credentials, kind `PASSKEY`):
    /// ``derive(secret:userPoolId:userName:)`` of `record`, the kind and the user's `sub`, joined with NUL bytes.
    /// The same for the trigger (which reads `sub` from `userAttributes`) and for an API that knows the user from
    /// a token's `sub` claim.
    public static func userRecord(secret: [UInt8], userPoolId: String, kind: String, sub: String) -> String {
        derive(secret: secret, userPoolId: userPoolId, userName: "record\u{0}" + kind + "\u{0}" + sub)
    }
}
