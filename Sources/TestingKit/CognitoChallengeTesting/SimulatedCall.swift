import ChallengeFlows

/// One trigger call of a simulated sign-in and what it decided: the transcript Cognito would see.
public enum SimulatedCall: Sendable, Equatable, CustomStringConvertible {
    /// Define Auth Challenge decided.
    case define(DefineDecision)
    /// Cognito checked the password itself (PASSWORD_VERIFIER after SRP_A); no trigger is called for it.
    case passwordVerifier(correct: Bool)
    /// Create Auth Challenge built a challenge of this kind, and delivered a message for it or not.
    case create(ChallengeKind, sent: Bool)
    /// Verify Auth Challenge Response judged the answer.
    case verify(VerifyOutcome)

    /// One line, e.g. `create: EMAIL_CODE (sent)`; never a code or an answer.
    public var description: String {
        switch self {
        case .define(let decision): "define: \(decision)"
        case .passwordVerifier(let correct): "cognito: password \(correct ? "right" : "wrong")"
        case .create(let kind, let sent): "create: \(kind.rawValue)\(sent ? " (sent)" : "")"
        case .verify(let outcome): "verify: \(outcome)"
        }
    }
}

/// How a simulated sign-in ended.
public enum SignInOutcome: Sendable, Equatable, CustomStringConvertible {
    /// Define issued tokens.
    case signedIn
    /// Define failed the authentication, for this reason.
    case failed(FlowFailure)

    /// `signed in`, or `failed: ` and the reason.
    public var description: String {
        switch self {
        case .signedIn: "signed in"
        case .failed(let failure): "failed: \(failure)"
        }
    }
}

/// Why a simulation could not go on.
public enum SimulationError: Error, Sendable, Equatable, CustomStringConvertible {
    /// Define asked for another custom challenge after the last scripted answer.
    case noAnswerLeft(answered: Int)
    /// The sign-in went on for more Define calls than any flow needs.
    case tooManyCalls(Int)

    /// A sentence saying what happened.
    public var description: String {
        switch self {
        case .noAnswerLeft(let answered):
            "Define asked for another custom challenge after all \(answered) scripted answers were given."
        case .tooManyCalls(let count): "The sign-in did not end within \(count) Define calls."
        }
    }
}
