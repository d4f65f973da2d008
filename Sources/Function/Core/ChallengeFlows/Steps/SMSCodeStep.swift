/// A one-time code sent as a text message (`sms-code`, kind `SMS_CODE`): ``ChallengePolicy/codeLength`` digits to
/// the user's `phone_number`.
///
/// It uses the public step API alone, as a step of your own would. Like `email-code`: a user without a usable
/// number, or an unknown one, gets a decoy destination and nothing is sent, and every answer is refused; after a wrong
/// answer the code already sent stays in force while it is valid.
public struct SMSCodeStep: ChallengeStep {
    /// When true, codes go only to numbers whose `phone_number_verified` attribute is `"true"`.
    public let requireVerifiedPhone: Bool

    /// `sms-code`.
    public var name: String { "sms-code" }
    /// `SMS_CODE`.
    public var kind: ChallengeKind { ChallengeKind(rawValue: "SMS_CODE")! }
    /// Only the holder of the phone can read the code.
    public var provesIdentity: Bool { true }
    /// The code is delivered, so the limits across sign-ins apply.
    public var deliversAnswer: Bool { true }
    /// By text message.
    public var deliveryChannels: Set<MessageChannel> { [.sms] }

    /// A step that texts codes to verified numbers only, unless `requireVerifiedPhone` is false, and only in
    /// `allowedCountries` when given.
    /// The countries codes may be texted to (`SMS_ALLOWED_COUNTRIES`); nil for any.
    public let allowedCountries: CallingCodes?

    public init(requireVerifiedPhone: Bool = true, allowedCountries: CallingCodes? = nil) {
        self.requireVerifiedPhone = requireVerifiedPhone
        self.allowedCountries = allowedCountries
    }

    /// A fresh code (or the one in force), the masked number, and the text message that carries the code.
    public func create(_ context: StepContext) throws -> StepChallenge {
        let number = context.userNotFound
            ? nil : PhoneNumberCheck(attributes: context.userAttributes, requireVerified: requireVerifiedPhone, allowedCountries: allowedCountries)
        let recipient = number?.usableNumber
        let destination = context.phoneDestination
        let secret = try context.deliveredSecret { try context.random.decimalDigits(count: context.policy.codeLength) }
        let message = recipient.flatMap { recipient in
            secret.newSecret.map {
                CodeMessage(
                    channel: .sms, recipient: recipient, userName: context.user.userName, code: $0,
                    validForSeconds: context.policy.validitySeconds)
            }
        }
        return StepChallenge(
            publicParameters: [
                "destination": destination,
                "channel": MessageChannel.sms.rawValue,
                "codeLength": String(context.policy.codeLength),
                "expiresInSeconds": String(secret.expiresInSeconds),
            ],
            sealing: secret.sealing, delivery: message, unusableAddress: number?.problem)
    }

    /// Refuses every answer of a user whose number could not have received the code; otherwise the seal decides.
    public func judge(_ answer: String, context: StepContext) -> AnswerJudgement {
        PhoneNumberCheck(attributes: context.userAttributes, requireVerified: requireVerifiedPhone, allowedCountries: allowedCountries).problem
            .map(AnswerJudgement.unusableAddress) ?? .matchSeal
    }
}
