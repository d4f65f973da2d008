import ChallengeCrypto

/// What a later step needs to know about an issued challenge, without its answer: which step it was, when it
/// expires, and a keyed hash of the expected answer.
///
/// Travels as `challengeMetadata` (seen by Define and later Creates) and as `privateChallengeParameters` (seen by
/// Verify). Both are server-side, but either may end up in someone's log, so neither holds the answer itself.
public struct ChallengeSeal: Sendable, Equatable {
    public let kind: ChallengeKind
    /// The step's position among the flow's custom steps.
    public let stepIndex: Int
    /// Unix time (seconds) after which the answer is no longer accepted.
    public let expiresAt: Int64
    /// HMAC-SHA256 over the normalised answer and everything it is bound to.
    public let answerHash: [UInt8]
    /// Which key made `answerHash` (see ``ChallengeKeys``); nil in seals written before key ids existed.
    public let keyID: String?

    public init(kind: ChallengeKind, stepIndex: Int, expiresAt: Int64, answerHash: [UInt8], keyID: String?) {
        self.kind = kind
        self.stepIndex = stepIndex
        self.expiresAt = expiresAt
        self.answerHash = answerHash
        self.keyID = keyID
    }

    // MARK: challengeMetadata

    /// `KIND:step:expiresAt:hash:keyID`, e.g. `EMAIL_CODE:0:1700000180:9f86…:1a2b3c4d`.
    public var metadata: String {
        "\(kind.rawValue):\(stepIndex):\(expiresAt):\(Hex.encode(answerHash))" + (keyID.map { ":\($0)" } ?? "")
    }

    /// Reads metadata this package wrote (with or without a key id); nil for anything else.
    public init?(metadata: String) {
        // Split by byte: ":" is ASCII, and a `Character` split would break the whole text into grapheme clusters.
        let fields = metadata.utf8.split(separator: UInt8(ascii: ":"), omittingEmptySubsequences: false)
            .map { String(Substring($0)) }
        guard fields.count == 4 || fields.count == 5 else { return nil }
        self.init(
            kind: fields[0], stepIndex: fields[1], expiresAt: fields[2], hash: fields[3],
            keyID: fields.count == 5 ? fields[4] : nil)
    }

    // MARK: privateChallengeParameters

    public var privateParameters: [String: String] {
        var parameters = [
            "challenge": kind.rawValue, "step": String(stepIndex), "expiresAt": String(expiresAt),
            "answerHash": Hex.encode(answerHash),
        ]
        parameters["keyId"] = keyID
        return parameters
    }

    /// Reads private parameters this package wrote; nil for anything else.
    public init?(privateParameters parameters: [String: String]) {
        guard let kind = parameters["challenge"], let step = parameters["step"], let expiresAt = parameters["expiresAt"],
              let hash = parameters["answerHash"]
        else { return nil }
        self.init(kind: kind, stepIndex: step, expiresAt: expiresAt, hash: hash, keyID: parameters["keyId"])
    }

    private init?(kind: String, stepIndex: String, expiresAt: String, hash: String, keyID: String?) {
        guard let kind = ChallengeKind(rawValue: kind), let stepIndex = Int(stepIndex), stepIndex >= 0,
              let expiresAt = Int64(expiresAt), let answerHash = Hex.decode(hash), answerHash.count == SHA256.byteCount,
              keyID.map(AnswerHasher.isKeyID) ?? true
        else { return nil }
        self.init(kind: kind, stepIndex: stepIndex, expiresAt: expiresAt, answerHash: answerHash, keyID: keyID)
    }
}

/// Computes answer hashes with one of the deployment's secret keys.
struct AnswerHasher: Sendable {
    private let key: [UInt8]
    /// Names the key in seals without revealing it: 8 hex digits of a keyed digest.
    let keyID: String

    init(key: [UInt8]) {
        self.key = key
        keyID = Hex.encode(Array(HMACSHA256.authenticationCode(key: key, message: "cognito-challenge-runtime/key-id").prefix(4)))
    }

    /// A key for one kind of step's own data, under this key's id: a keyed digest of the kind, so that no step's
    /// key opens another's data or the seals.
    func stepKey(for kind: ChallengeKind) -> (id: String, key: [UInt8]) {
        (keyID, HMACSHA256.authenticationCode(key: key, message: "cognito-challenge-runtime/step-key/v1\u{0}" + kind.rawValue))
    }

    static func isKeyID(_ text: String) -> Bool {
        text.utf8.count == 8 && Hex.decode(text) != nil
    }

    /// The keyed hash of an answer, bound to the user, the step and the expiry so that no hash can be replayed
    /// for another user, step or time.
    func hash(
        normalizedAnswer: String, kind: ChallengeKind, stepIndex: Int, expiresAt: Int64, user: UserIdentity
    ) -> [UInt8] {
        let fields = [
            "cognito-challenge-runtime/v1", kind.rawValue, String(stepIndex), String(expiresAt), user.userPoolId,
            user.userName, normalizedAnswer,
        ]
        // Fields are joined with NUL, which none of them can contain in a way that shifts a boundary.
        var message: [UInt8] = []
        message.reserveCapacity(fields.reduce(fields.count) { $0 + $1.utf8.count })
        for (index, field) in fields.enumerated() {
            if index > 0 { message.append(0) }
            message.append(contentsOf: field.utf8)
        }
        return HMACSHA256.authenticationCode(key: key, message: message)
    }
}

extension AnswerHasher: CustomReflectable {
    var customMirror: Mirror { Mirror(self, children: ["keyID": keyID], displayStyle: .struct) }
}

/// Whom a challenge belongs to.
public struct UserIdentity: Sendable, Equatable {
    public let userPoolId: String
    public let userName: String

    public init(userPoolId: String, userName: String) {
        self.userPoolId = userPoolId
        self.userName = userName
    }
}
