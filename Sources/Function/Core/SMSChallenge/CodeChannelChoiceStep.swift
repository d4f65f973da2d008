import ChallengeFlows

/// A one-time code by email or text message, as the user chooses for each sign-in (`email-or-sms-code`, kind
/// `CODE`): the app passes `ClientMetadata` `{"channel": "sms"}` (or `"email"`, the default) with the call that
/// leads to Create.
///
/// Built on the public step API alone, from an ``EmailCodeStep`` and an ``SMSCodeStep``. The public parameters
/// carry the `channel` the code went by. A channel the user cannot receive on is answered as for an unknown user
/// (a decoy destination, nothing sent, the code sealed as a nonce nobody holds), so the choice reveals nothing
/// about which channels an account has.
public struct CodeChannelChoiceStep: ChallengeStep {
    /// The key of `ClientMetadata` that chooses the channel.
    public static let metadataKey = "channel"

    /// Sends the email codes.
    public let email: EmailCodeStep
    /// Sends the text-message codes.
    public let sms: SMSCodeStep

    /// `email-or-sms-code`.
    public var name: String { "email-or-sms-code" }
    /// `CODE`.
    public var kind: ChallengeKind { ChallengeKind(rawValue: "CODE")! }
    /// Only the holder of the address or phone can read the code.
    public var provesIdentity: Bool { true }
    /// The code is delivered, so the limits across sign-ins apply.
    public var deliversAnswer: Bool { true }
    /// Both.
    public var deliveryChannels: Set<MessageChannel> { [.email, .sms] }

    public init(email: EmailCodeStep = EmailCodeStep(), sms: SMSCodeStep = SMSCodeStep()) {
        self.email = email
        self.sms = sms
    }

    /// The channel the app asked for: `sms` when `ClientMetadata.channel` says so (in any case), email otherwise.
    public static func channel(in context: StepContext) -> MessageChannel {
        context.clientMetadata[metadataKey]?.lowercased() == MessageChannel.sms.rawValue ? .sms : .email
    }

    /// The chosen channel's challenge; when its address is unusable, sealed as a nonce so that no answer passes.
    public func create(_ context: StepContext) throws -> StepChallenge {
        let channel = Self.channel(in: context)
        var challenge = try channel == .sms ? sms.create(context) : email.create(context)
        challenge.publicParameters["channel"] = channel.rawValue
        challenge.channel = channel
        if challenge.unusableAddress != nil, case .answer = challenge.sealing {
            challenge.sealing = .nonce
        }
        return challenge
    }

    /// The seal decides: a code that was never sent was sealed as a nonce.
    public func judge(_ answer: String, context: StepContext) -> AnswerJudgement { .matchSeal }
}
