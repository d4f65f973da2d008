/// A challenge Create built, and the code to send for it, if any. Its description never shows the code.
public struct IssuedChallenge: Sendable, Equatable, CustomStringConvertible {
    public let kind: ChallengeKind
    public let seal: ChallengeSeal
    public let publicParameters: [String: String]
    /// The message to deliver before answering Cognito; nil for CAPTCHAs, unknown users and reused codes.
    public let delivery: CodeMessage?
    /// True when the code sent for an earlier attempt at this step is still in force.
    public let reusedEarlierCode: Bool
    /// Why a real user's code was not sent (treated as an unknown user), if it was not.
    public let unusableAddress: UnusableAddress?
    /// The channel the code went by, or would have gone by when nothing was sent; nil for a step that sends nothing.
    public let channel: MessageChannel?
    /// True when the sign-in passed a step-up CAPTCHA before this challenge: Verify then judges its answer even when
    /// the user's failure budget is spent. Travels in the private parameters (``passedStepUpParameter``).
    public let passedStepUp: Bool

    /// The private challenge parameter that says the sign-in passed a step-up CAPTCHA (`"true"`). Only Create
    /// writes private parameters, and only Verify reads them: the client cannot set it.
    public static let passedStepUpParameter = "passedStepUp"

    public init(
        kind: ChallengeKind, seal: ChallengeSeal, publicParameters: [String: String], delivery: CodeMessage?,
        reusedEarlierCode: Bool, unusableAddress: UnusableAddress?, channel: MessageChannel?, passedStepUp: Bool = false
    ) {
        self.kind = kind
        self.seal = seal
        self.publicParameters = publicParameters
        self.delivery = delivery
        self.reusedEarlierCode = reusedEarlierCode
        self.unusableAddress = unusableAddress
        self.channel = channel
        self.passedStepUp = passedStepUp
    }

    /// The challenge in Cognito's terms.
    public var response: CreateAuthChallengeResponse {
        var privateParameters = seal.privateParameters
        if passedStepUp { privateParameters[Self.passedStepUpParameter] = "true" }
        return CreateAuthChallengeResponse(
            publicChallengeParameters: publicParameters, privateChallengeParameters: privateParameters,
            challengeMetadata: seal.metadata)
    }

    public var description: String {
        let sending = delivery.map { "send \($0)" }
            ?? (reusedEarlierCode ? "earlier code still in force" : unusableAddress.map { "nothing to send: \($0)" } ?? "nothing to send")
        return "\(kind.rawValue) challenge for step \(seal.stepIndex), expires at \(seal.expiresAt); \(sending)"
    }
}
