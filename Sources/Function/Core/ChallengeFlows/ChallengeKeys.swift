import ChallengeCrypto

/// The secrets a deployment seals answers with: the current key, the previous one during a rotation, and the key
/// that derives decoy destinations for unknown users.
///
/// Every seal names the key it was made with (a key id derived from the key, never the key), so that a sign-in in
/// flight when `CODE_HASH_SECRET` changes still verifies while `CODE_HASH_SECRET_PREVIOUS` holds the old value.
public struct ChallengeKeys: Sendable {
    /// Seals new challenges and verifies them.
    let current: AnswerHasher
    /// Only verifies challenges sealed before a rotation.
    let previous: AnswerHasher?
    /// Derives decoy destinations; separate from the sealing key so that decoys stay the same across rotations.
    let decoy: [UInt8]

    /// The shortest secret accepted, in bytes.
    public static let minimumLength = 32
    /// The fewest different byte values a secret must hold: `"a"` × 32 is long enough but guessable.
    public static let minimumDistinctBytes = 12

    /// - Parameters:
    ///   - current: `CODE_HASH_SECRET`.
    ///   - previous: `CODE_HASH_SECRET_PREVIOUS`, the secret before a rotation, accepted by Verify only.
    ///   - decoy: `DECOY_MASK_SECRET`, a long-lived key for decoy destinations; by default one derived from `current`.
    public init(current: [UInt8], previous: [UInt8]? = nil, decoy: [UInt8]? = nil) throws(ConfigurationError) {
        try Self.checkStrength(current, variable: "CODE_HASH_SECRET")
        if let previous {
            try Self.checkStrength(previous, variable: "CODE_HASH_SECRET_PREVIOUS")
            guard previous != current else {
                throw .refused(
                    variable: "CODE_HASH_SECRET_PREVIOUS", value: "(not shown)",
                    reason: "it is the same as CODE_HASH_SECRET; set it to the secret in force before the rotation, or leave it unset")
            }
        }
        if let decoy { try Self.checkStrength(decoy, variable: "DECOY_MASK_SECRET") }
        self.current = AnswerHasher(key: current)
        self.previous = previous.map(AnswerHasher.init(key:))
        self.decoy = decoy ?? HMACSHA256.authenticationCode(key: current, message: "cognito-challenge-runtime/decoy-mask-key/v1")
    }

    /// The key that names each user's record in a state store: derived from the decoy key, so that limits survive a
    /// rotation of `CODE_HASH_SECRET`.
    package var recordKey: [UInt8] {
        HMACSHA256.authenticationCode(key: decoy, message: "cognito-challenge-runtime/state-record-key/v1")
    }

    /// The hasher a seal was made with: the current key for seals without a key id (written before key ids
    /// existed), nil for a key that is no longer configured.
    func hasher(forKeyID keyID: String?) -> AnswerHasher? {
        guard let keyID, keyID != current.keyID else { return current }
        return previous.flatMap { $0.keyID == keyID ? $0 : nil }
    }

    private static func checkStrength(_ secret: [UInt8], variable: String) throws(ConfigurationError) {
        guard secret.count >= minimumLength else {
            throw .invalid(
                variable: variable, value: "(\(secret.count) bytes, not shown)",
                expected: "at least \(minimumLength) bytes of random text, e.g. from `openssl rand -hex 32`")
        }
        let distinct = Set(secret).count
        guard distinct >= minimumDistinctBytes else {
            throw .refused(
                variable: variable, value: "(not shown)",
                reason: "it holds only \(distinct) different characters, which is too easy to guess; use random text such as `openssl rand -hex 32` (at least \(minimumDistinctBytes) different characters)")
        }
    }
}

/// Keys never show in descriptions, dumps or debugger output: only their ids do.
extension ChallengeKeys: CustomStringConvertible, CustomReflectable {
    public var description: String {
        "ChallengeKeys(current: \(current.keyID), previous: \(previous?.keyID ?? "none"), decoy: not shown)"
    }

    public var customMirror: Mirror {
        Mirror(self, children: ["current": current.keyID, "previous": previous?.keyID as Any], displayStyle: .struct)
    }
}
