/// Why Create could not build a challenge.
public enum CreateChallengeError: Error, Sendable, Equatable, CustomStringConvertible {
    case notACustomChallenge(ChallengeName)
    case noCustomStepDue(FlowProgress)
    /// The user chose how to sign in, but the call that leads to this Create did not say what (`ClientMetadata`
    /// `method`), or named a step that was not offered.
    case noMethodChosen(offered: [String])

    public var description: String {
        switch self {
        case .notACustomChallenge(let name):
            "Create Auth Challenge was asked for \"\(name)\", but this function creates only \"CUSTOM_CHALLENGE\"."
        case .noCustomStepDue(let progress):
            "No custom challenge is due for this session (\(progress)); is Define Auth Challenge served by the same flow?"
        case .noMethodChosen(let offered):
            "The chosen sign-in method is missing: answer the METHOD_CHOICE challenge with one of \(offered.joined(separator: ", ")) and pass the same name as ClientMetadata \"\(MethodChoiceStep.metadataKey)\" in that call."
        }
    }
}
