/// What Define decided.
public enum DefineDecision: Sendable, Equatable, CustomStringConvertible {
    case present(ChallengeName)
    case issueTokens
    case fail(FlowFailure)

    /// The decision in Cognito's terms.
    public var response: DefineAuthChallengeResponse {
        switch self {
        case .present(let name): DefineAuthChallengeResponse(challengeName: name, issueTokens: false, failAuthentication: false)
        case .issueTokens: DefineAuthChallengeResponse(issueTokens: true, failAuthentication: false)
        case .fail: DefineAuthChallengeResponse(issueTokens: false, failAuthentication: true)
        }
    }

    public var description: String {
        switch self {
        case .present(let name): "next challenge \(name)"
        case .issueTokens: "issue tokens"
        case .fail(let failure): "fail authentication (\(failure))"
        }
    }
}
