import ChallengeCrypto

/// A sign-in link sent by email (`magic-link`, kind `MAGIC_LINK`): the link (`MagicLinkURL`, `MAGIC_LINK_URL`)
/// carries a token signed with a key derived from the deployment's secret, bound to the user pool, the user and
/// the step, and expiring with the challenge; the app submits the token as the answer.
///
/// It uses the public step API alone, as a step of your own would. The token's keyed hash is sealed like a code, so a
/// token passes only for the challenge it was issued with: a link cannot be replayed into another sign-in. With a
/// state store (`STATE_STORE`), the limits across sign-ins also make it single use and let a sign-in started on
/// another device finish with the link already sent (one live link per user); without one, a link works only in the
/// sign-in that sent it, until it expires (`CODE_TTL_SECONDS`). Users without a usable address, and unknown users,
/// get a decoy destination, nothing is sent, and every answer is refused.
public struct MagicLinkStep: ChallengeStep {
    /// Where links point; nil until `MAGIC_LINK_URL` is set (a flow with the step is then refused at start-up).
    public let linkURL: MagicLinkURL?
    /// When true, links go only to addresses whose `email_verified` attribute is `"true"`.
    public let requireVerifiedEmail: Bool

    /// `magic-link`.
    public var name: String { "magic-link" }
    /// `MAGIC_LINK`.
    public var kind: ChallengeKind { ChallengeKind(rawValue: "MAGIC_LINK")! }
    /// Only the owner of the address can open the link.
    public var provesIdentity: Bool { true }
    /// The token is delivered, so the limits across sign-ins apply.
    public var deliversAnswer: Bool { true }
    /// By email.
    public var deliveryChannels: Set<MessageChannel> { [.email] }

    public init(linkURL: MagicLinkURL?, requireVerifiedEmail: Bool = true) {
        self.linkURL = linkURL
        self.requireVerifiedEmail = requireVerifiedEmail
    }

    /// Refuses a flow with this step while no link template is configured.
    public func checkConfiguration(in flow: SignInFlow) throws(ConfigurationError) {
        guard linkURL != nil else {
            throw .missing(
                variable: MagicLinkURL.variable,
                hint: "name the app page that submits the link's token, such as https://app.example.com/sign-in#token={token}")
        }
    }

    /// A fresh token and its link (or the link in force), and the masked destination.
    public func create(_ context: StepContext) throws -> StepChallenge {
        let address = context.userNotFound
            ? nil : EmailAddressCheck(attributes: context.userAttributes, requireVerified: requireVerifiedEmail)
        let recipient = address?.usableAddress
        let secret = try context.deliveredSecret {
            try MagicLinkToken.issue(
                key: context.keys.current.key, keyID: context.keys.current.id, userPoolId: context.user.userPoolId,
                userName: context.user.userName, stepIndex: context.stepIndex, expiresAt: context.expiresAt,
                random: context.random
            ).token
        }
        var message: CodeMessage?
        if let token = secret.newSecret, let recipient, let linkURL {
            message = CodeMessage(
                channel: .email, recipient: recipient, userName: context.user.userName, code: token,
                link: linkURL.render(token: token), validForSeconds: context.policy.validitySeconds)
        }
        return StepChallenge(
            publicParameters: [
                "destination": context.emailDestination,
                "expiresInSeconds": String(secret.expiresInSeconds),
            ],
            sealing: secret.sealing, delivery: message, unusableAddress: address?.problem)
    }

    /// Refuses every answer of a user whose address could not have received the link, and every token that is not
    /// authentic for this user and step; the seal then decides whether it is this challenge's token.
    public func judge(_ answer: String, context: StepContext) -> AnswerJudgement {
        if let problem = EmailAddressCheck(attributes: context.userAttributes, requireVerified: requireVerifiedEmail).problem {
            return .unusableAddress(problem)
        }
        let verdict = MagicLinkToken.verify(
            token: normalize(answer), keys: context.keys.verifying, userPoolId: context.user.userPoolId,
            userName: context.user.userName, stepIndex: context.stepIndex, now: context.now)
        switch verdict {
        case .valid, .expired: return .matchSeal
        case .tampered, .otherUser, .otherStep, .unknownKey, .malformed: return .wrong
        }
    }
}
