import CognitoEvents

/// Why Create could not build a challenge.
public enum CreateChallengeError: Error, Sendable, Equatable, CustomStringConvertible {
    case notACustomChallenge(ChallengeName)
    case noCustomStepDue(FlowProgress)

    public var description: String {
        switch self {
        case .notACustomChallenge(let name):
            "Create Auth Challenge was asked for \"\(name)\", but this function creates only \"CUSTOM_CHALLENGE\"."
        case .noCustomStepDue(let progress):
            "No custom challenge is due for this session (\(progress)); is Define Auth Challenge served by the same flow?"
        }
    }
}
