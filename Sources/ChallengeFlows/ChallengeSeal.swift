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

    public init(kind: ChallengeKind, stepIndex: Int, expiresAt: Int64, answerHash: [UInt8]) {
        self.kind = kind
        self.stepIndex = stepIndex
        self.expiresAt = expiresAt
        self.answerHash = answerHash
    }

    // MARK: challengeMetadata

    /// `KIND:step:expiresAt:hash`, e.g. `EMAIL_CODE:0:1700000180:9f86…`.
    public var metadata: String {
        "\(kind.rawValue):\(stepIndex):\(expiresAt):\(Hex.encode(answerHash))"
    }

    /// Reads metadata this package wrote; nil for anything else.
    public init?(metadata: String) {
        let fields = metadata.split(separator: ":", omittingEmptySubsequences: false)
        guard fields.count == 4 else { return nil }
        self.init(kind: String(fields[0]), stepIndex: String(fields[1]), expiresAt: String(fields[2]), hash: String(fields[3]))
    }

    // MARK: privateChallengeParameters

    public var privateParameters: [String: String] {
        [
            "challenge": kind.rawValue, "step": String(stepIndex), "expiresAt": String(expiresAt),
            "answerHash": Hex.encode(answerHash),
        ]
    }

    /// Reads private parameters this package wrote; nil for anything else.
    public init?(privateParameters parameters: [String: String]) {
        guard let kind = parameters["challenge"], let step = parameters["step"], let expiresAt = parameters["expiresAt"],
              let hash = parameters["answerHash"]
        else { return nil }
        self.init(kind: kind, stepIndex: step, expiresAt: expiresAt, hash: hash)
    }

    private init?(kind: String, stepIndex: String, expiresAt: String, hash: String) {
        guard let kind = ChallengeKind(rawValue: kind), let stepIndex = Int(stepIndex), stepIndex >= 0,
              let expiresAt = Int64(expiresAt), let answerHash = Hex.decode(hash), answerHash.count == SHA256.byteCount
        else { return nil }
        self.init(kind: kind, stepIndex: stepIndex, expiresAt: expiresAt, answerHash: answerHash)
    }
}

/// Computes answer hashes with the deployment's secret key.
public struct AnswerHasher: Sendable {
    private let key: [UInt8]

    public init(key: [UInt8]) {
        self.key = key
    }

    /// The keyed hash of an answer, bound to the user, the step and the expiry so that no hash can be replayed
    /// for another user, step or time.
    public func hash(
        normalizedAnswer: String, kind: ChallengeKind, stepIndex: Int, expiresAt: Int64, user: UserIdentity
    ) -> [UInt8] {
        let fields = [
            "cognito-challenge-runtime/v1", kind.rawValue, String(stepIndex), String(expiresAt), user.userPoolId,
            user.userName, normalizedAnswer,
        ]
        // Fields are joined with NUL, which none of them can contain in a way that shifts a boundary.
        return HMACSHA256.authenticationCode(key: key, message: fields.joined(separator: "\u{0}"))
    }

    /// A keyed digest for deriving stable, user-specific values that must not reveal the user (e.g. decoy masks).
    func digest(_ purpose: String, _ value: String) -> [UInt8] {
        HMACSHA256.authenticationCode(key: key, message: "\(purpose)\u{0}\(value)")
    }
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
