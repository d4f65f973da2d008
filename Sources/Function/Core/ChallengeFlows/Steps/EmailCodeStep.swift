/// A one-time code sent by email (`email-code`, kind `EMAIL_CODE`): ``ChallengePolicy/codeLength`` digits to the
/// user's `email` attribute.
///
/// A user without a usable address, or an unknown one, gets exactly what a real user gets (a masked destination, a
/// decoy for unknown users) and nothing is sent; every answer is refused. After a wrong answer the code already
/// sent stays in force while it is valid, so the user never holds two codes.
public struct EmailCodeStep: ChallengeStep {
    /// When true, codes go only to addresses whose `email_verified` attribute is `"true"`.
    public let requireVerifiedEmail: Bool

    /// `email-code`.
    public var name: String { "email-code" }
    /// `EMAIL_CODE`.
    public var kind: ChallengeKind { .emailCode }
    /// Only the owner of the address can read the code.
    public var provesIdentity: Bool { true }
    /// The code is delivered, so the limits across sign-ins apply.
    public var deliversAnswer: Bool { true }
    /// By email.
    public var deliveryChannels: Set<MessageChannel> { [.email] }

    /// A step that sends codes to verified addresses only, unless `requireVerifiedEmail` is false.
    public init(requireVerifiedEmail: Bool = true) {
        self.requireVerifiedEmail = requireVerifiedEmail
    }

    /// A fresh code (or the one in force), the masked destination, and the message that carries the code.
    public func create(_ context: StepContext) throws -> StepChallenge {
        let address = context.userNotFound
            ? nil : EmailAddressCheck(attributes: context.userAttributes, requireVerified: requireVerifiedEmail)
        let recipient = address?.usableAddress
        let destination = context.emailDestination

        let secret = try context.deliveredSecret { try context.random.decimalDigits(count: context.policy.codeLength) }
        let message = recipient.flatMap { recipient in
            secret.newSecret.map {
                CodeMessage(
                    recipient: recipient, userName: context.user.userName, code: $0,
                    validForSeconds: context.policy.validitySeconds)
            }
        }
        return StepChallenge(
            publicParameters: [
                "destination": destination,
                "codeLength": String(context.policy.codeLength),
                "expiresInSeconds": String(secret.expiresInSeconds),
            ],
            sealing: secret.sealing, delivery: message, unusableAddress: address?.problem)
    }

    /// Refuses every answer of a user whose address could not have received the code; otherwise the seal decides.
    public func judge(_ answer: String, context: StepContext) -> AnswerJudgement {
        EmailAddressCheck(attributes: context.userAttributes, requireVerified: requireVerifiedEmail).problem
            .map(AnswerJudgement.unusableAddress) ?? .matchSeal
    }
}
