/// What Verify found.
public enum VerifyOutcome: Sendable, Equatable, CustomStringConvertible {
    case correct
    case wrong
    case expired
    /// The user does not exist; every answer to a code is wrong.
    case unknownUser
    /// The user's address could not receive a code; every answer to one is wrong.
    case unusableAddress(UnusableAddress)
    /// The step refused every answer, for the reason given (e.g. a missing user attribute).
    case refused(String)
    /// The private parameters were not written by this flow.
    case notIssuedByThisFlow
    /// The challenge was sealed with a key that is no longer configured (neither `CODE_HASH_SECRET` nor
    /// `CODE_HASH_SECRET_PREVIOUS`).
    case retiredKey

    public var isCorrect: Bool { self == .correct }

    public var response: VerifyAuthChallengeResponseResponse {
        VerifyAuthChallengeResponseResponse(answerCorrect: isCorrect)
    }

    public var description: String {
        switch self {
        case .correct: "answer correct"
        case .wrong: "answer wrong"
        case .expired: "answer arrived after expiry"
        case .unknownUser: "answer rejected (unknown user)"
        case .unusableAddress(let problem): "answer rejected (no code was sent: \(problem))"
        case .refused(let reason): "answer rejected (\(reason))"
        case .notIssuedByThisFlow: "answer rejected (challenge parameters not issued by this flow)"
        case .retiredKey: "answer rejected (the challenge was sealed with a key that is no longer configured)"
        }
    }
}
