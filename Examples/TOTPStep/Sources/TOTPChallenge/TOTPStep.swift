import ChallengeCrypto
import ChallengeFlows

/// A time-based one-time password from the user's authenticator app (RFC 6238: HMAC-SHA1, 30-second steps,
/// 6 digits), against the base32 secret in the user attribute `custom:totp_secret`. Codes one step early or late
/// are accepted, for clocks that drift.
///
/// In `CHALLENGE_FLOW` as `totp`; it writes seals of kind `TOTP`. The seal holds only a nonce: the step judges
/// answers itself. Unknown users are refused by the engine (the step proves identity), and users without a usable
/// secret are refused whatever they answer.
public struct TOTPStep: ChallengeStep {
    /// The attribute that holds the user's base32 secret.
    public static let secretAttribute = "custom:totp_secret"
    /// Seconds per time step.
    public static let period: Int64 = 30
    /// Digits per code.
    public static let digits = 6
    /// Steps early or late that are still accepted.
    public static let drift: Int64 = 1

    /// `totp`.
    public var name: String { "totp" }
    /// `TOTP`.
    public var kind: ChallengeKind { ChallengeKind(rawValue: "TOTP")! }
    /// Only the holder of the secret can give the code.
    public var provesIdentity: Bool { true }

    /// A TOTP step.
    public init() {}

    /// Tells the client how long a code is; nothing is delivered.
    public func create(_ context: StepContext) throws -> StepChallenge {
        StepChallenge(publicParameters: ["digits": String(Self.digits), "period": String(Self.period)], sealing: .nonce)
    }

    /// Right when the answer is the code of the current time step, or of the one before or after; the time step it
    /// matched is its sequence, so that where the limits across sign-ins are kept (`STATE_STORE`) a code is accepted
    /// once, and never one older than the last accepted.
    public func judge(_ answer: String, context: StepContext) -> AnswerJudgement {
        guard let secret = Self.secret(in: context.userAttributes) else {
            return .refused(reason: "the user has no usable \"\(Self.secretAttribute)\" attribute (a base32 secret)")
        }
        let typed = Array(normalize(answer).utf8)
        var matchedStep: Int64?
        // Every candidate is compared, in constant time, so that timing does not tell which step matched.
        for offset in -Self.drift...Self.drift {
            let time = context.now + offset * Self.period
            let candidate = Array(Self.code(secret: secret, time: time).utf8)
            if constantTimeEquals(typed, candidate) { matchedStep = max(0, time) / Self.period }
        }
        return matchedStep.map { .correctOnce(sequence: $0) } ?? .wrong
    }

    /// The code of the current time step, for simulations.
    public func expectedAnswer(publicParameters: [String: String], context: StepContext) -> String? {
        Self.secret(in: context.userAttributes).map { Self.code(secret: $0, time: context.now) }
    }

    /// The RFC 6238 code for `secret` at Unix time `time`: HOTP (RFC 4226) over the time step.
    public static func code(secret: [UInt8], time: Int64, digits: Int = TOTPStep.digits) -> String {
        let counter = UInt64(max(0, time) / period)
        let message = (0..<8).map { UInt8(truncatingIfNeeded: counter >> (56 - 8 * UInt64($0))) }
        let mac = HMACSHA1.authenticationCode(key: secret, message: message)
        let offset = Int(mac[mac.count - 1] & 0x0F)
        let truncated = (UInt32(mac[offset] & 0x7F) << 24 | UInt32(mac[offset + 1]) << 16
            | UInt32(mac[offset + 2]) << 8 | UInt32(mac[offset + 3]))
        var modulus: UInt32 = 1
        for _ in 0..<digits { modulus *= 10 }
        let value = String(truncated % modulus)
        return String(repeating: "0", count: digits - value.count) + value
    }

    /// The decoded secret of a user, if the attribute holds one.
    static func secret(in attributes: [String: String]) -> [UInt8]? {
        attributes[secretAttribute].flatMap(Base32.decode)
    }
}
