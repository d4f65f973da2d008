/// Where a sign-in stands, derived from Cognito's session list alone.
public enum FlowProgress: Sendable, Equatable {
    /// SRP_A is done; Cognito's PASSWORD_VERIFIER comes next.
    case awaitingPasswordVerifier
    /// A custom step is due: its index, its kind, which attempt this is (1-based), the seal of the previous attempt
    /// at the same step, if the last answer to it was wrong, and whether the sign-in has passed a CAPTCHA (a step-up,
    /// see ``ChallengeFlowEngine/stepUp``, or a CAPTCHA step of the flow). At a position with choices the kind is the chosen step's once one was
    /// issued there, and the first choice's before.
    case customStep(index: Int, kind: ChallengeKind, attempt: Int, previousSeal: ChallengeSeal?, passedStepUp: Bool = false)
    /// Every step has been passed.
    case complete
    /// The sign-in must fail.
    case failed(FlowFailure)

    /// Reads the session the way Define and Create both must, so that they always agree.
    ///
    /// With `admitsStepUp`, a CAPTCHA at a position whose steps have none is a step-up CAPTCHA that Create put in
    /// front of the step due there: passed, the same step is due again (now after a passed step-up); failed, it
    /// counts as a wrong answer at that position.
    public init(session: [SessionEntry], flow: SignInFlow, policy: ChallengePolicy, admitsStepUp: Bool = false) {
        var remaining = session[...]
        if flow.startsWithPassword {
            guard let first = remaining.popFirst() else {
                self = .failed(.passwordStepMissing)
                return
            }
            guard first.challengeName == .srpA, first.challengeResult else {
                self = .failed(.unexpectedChallenge(first.challengeName, position: 0))
                return
            }
            guard let second = remaining.popFirst() else {
                self = .awaitingPasswordVerifier
                return
            }
            guard second.challengeName == .passwordVerifier else {
                self = .failed(.unexpectedChallenge(second.challengeName, position: 1))
                return
            }
            guard second.challengeResult else {
                self = .failed(.wrongPassword)
                return
            }
        }

        var stepIndex = 0
        var wrongAnswers = 0
        var lastFailedSeal: ChallengeSeal?
        // At a position with choices, the kind issued there first: every later attempt there is of the same kind.
        var chosenKind: ChallengeKind?
        var passedStepUp = false
        // Indices, not `zip(indices, self)`: a zip's iterator type is built at run time the first time, which costs a
        // scan of every protocol conformance in the binary (about 0.4 M instructions at start-up).
        for position in remaining.indices {
            let entry = remaining[position]
            guard stepIndex < flow.steps.count, entry.challengeName == .customChallenge else {
                self = .failed(.unexpectedChallenge(entry.challengeName, position: position))
                return
            }
            guard let seal = entry.challengeMetadata.flatMap(ChallengeSeal.init(metadata:)), seal.stepIndex == stepIndex
            else {
                self = .failed(.unrecognizedMetadata(position: position))
                return
            }
            let stepsHere = flow.steps(at: stepIndex)
            if admitsStepUp, seal.kind == .captcha, !stepsHere.contains(where: { $0.kind == .captcha }) {
                if entry.challengeResult {
                    passedStepUp = true
                } else {
                    wrongAnswers += 1
                    if wrongAnswers >= policy.maxAttempts {
                        self = .failed(.tooManyWrongAnswers(.captcha))
                        return
                    }
                }
                continue
            }
            guard stepsHere.contains(where: { $0.kind == seal.kind }), chosenKind.map({ $0 == seal.kind }) ?? true else {
                self = .failed(.unrecognizedMetadata(position: position))
                return
            }
            if entry.challengeResult {
                // A CAPTCHA step of the flow, passed, is as good as a step-up: one CAPTCHA per sign-in is enough.
                if seal.kind == .captcha { passedStepUp = true }
                stepIndex += 1
                wrongAnswers = 0
                lastFailedSeal = nil
                chosenKind = nil
            } else {
                wrongAnswers += 1
                lastFailedSeal = seal
                chosenKind = seal.kind
                if wrongAnswers >= policy.maxAttempts {
                    self = .failed(.tooManyWrongAnswers(seal.kind))
                    return
                }
            }
        }
        if stepIndex == flow.steps.count {
            self = .complete
        } else {
            self = .customStep(
                index: stepIndex, kind: chosenKind ?? flow.steps[stepIndex].kind, attempt: wrongAnswers + 1,
                previousSeal: lastFailedSeal, passedStepUp: passedStepUp)
        }
    }
}

extension FlowProgress: CustomStringConvertible {
    public var description: String {
        switch self {
        case .awaitingPasswordVerifier: "Cognito's \"PASSWORD_VERIFIER\" is due"
        case .customStep(let index, let kind, let attempt, _, let passedStepUp):
            "step \(index + 1) (\"\(kind.rawValue)\"), attempt \(attempt)\(passedStepUp ? " after a CAPTCHA" : ""), is due"
        case .complete: "every step has been passed"
        case .failed(let failure): "the sign-in has failed: \(failure)"
        }
    }
}

/// Why a sign-in fails. For logs and transcripts: Cognito tells the client only "Incorrect username or password."
public enum FlowFailure: Sendable, Equatable, CustomStringConvertible {
    /// The flow starts with SRP but the client started without it.
    case passwordStepMissing
    /// Cognito's PASSWORD_VERIFIER challenge came back false.
    case wrongPassword
    /// A challenge this flow does not expect at this position (out of order, or foreign to the flow).
    case unexpectedChallenge(ChallengeName, position: Int)
    /// A custom challenge whose metadata this flow did not write, or for another step.
    case unrecognizedMetadata(position: Int)
    /// Too many wrong answers to one step.
    case tooManyWrongAnswers(ChallengeKind)

    public var description: String {
        switch self {
        case .passwordStepMissing: "the flow starts with SRP but the session does not"
        case .wrongPassword: "the password was wrong"
        case .unexpectedChallenge(let name, let position): "\"\(name)\" was not expected at session position \(position)"
        case .unrecognizedMetadata(let position): "session entry \(position) was not issued by this flow"
        case .tooManyWrongAnswers(let kind): "too many wrong answers to \"\(kind.rawValue)\""
        }
    }
}
