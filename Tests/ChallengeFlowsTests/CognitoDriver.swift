import ChallengeFlows
import CognitoEvents
import Testing

/// Drives an engine the way Cognito drives the three triggers: Define, then Create and Verify for each custom
/// challenge, appending each answered challenge to the session, until Define issues tokens or fails.
struct CognitoDriver {
    enum Answer { case right, wrong }

    /// One trigger call and what it produced, for asserting the whole conversation.
    enum Step: Equatable, CustomStringConvertible {
        case define(DefineDecision)
        case passwordVerifier(Bool)
        case create(ChallengeKind, sent: Bool)
        case verify(VerifyOutcome)

        var description: String {
            switch self {
            case .define(let decision): "define: \(decision)"
            case .passwordVerifier(let correct): "cognito: password \(correct ? "right" : "wrong")"
            case .create(let kind, let sent): "create: \(kind.rawValue)\(sent ? " (sent)" : "")"
            case .verify(let outcome): "verify: \(outcome)"
            }
        }
    }

    let engine: ChallengeFlowEngine
    var user = Fixture.jane
    var userNotFound = false
    var passwordIsRight = true
    /// Seconds that pass between one trigger call and the next.
    var secondsPerCall: Int64 = 5

    private(set) var now = Fixture.now
    private(set) var session: [SessionEntry] = []
    private(set) var steps: [Step] = []
    private(set) var sent: [CodeMessage] = []
    /// Everything the triggers produced, for checking what could end up in a log.
    private(set) var produced: [Any] = []

    init(engine: ChallengeFlowEngine) {
        self.engine = engine
    }

    /// Signs in, giving `answers` in turn to the custom challenges; returns Define's final decision.
    mutating func signIn(answers: [Answer]) throws -> DefineDecision {
        // A client that uses SRP starts with SRP_A; Cognito records it before the first Define.
        session = engine.flow.startsWithPassword ? [.srpA] : []
        var answers = answers[...]
        for _ in 0..<32 {
            let decision = engine.define(try Requests.define(session, userNotFound: userNotFound))
            record(.define(decision), decision)
            switch decision {
            case .issueTokens, .fail:
                return decision
            case .present(.passwordVerifier):
                // Cognito runs the password verifier itself; Create is not called for it.
                session.append(.passwordVerifier(passwordIsRight))
                record(.passwordVerifier(passwordIsRight))
            case .present(let name):
                guard let answer = answers.popFirst() else {
                    Issue.record("Define asked for \(name) after the last scripted answer")
                    return decision
                }
                try answerCustomChallenge(answer)
            }
        }
        Issue.record("the sign-in did not end within 32 Define calls")
        return .fail(.passwordStepMissing)
    }

    private mutating func answerCustomChallenge(_ answer: Answer) throws {
        let issued = try engine.create(
            Requests.create(session, email: userNotFound ? nil : Fixture.janeEmail, userNotFound: userNotFound),
            user: user, now: now)
        if let message = issued.delivery { sent.append(message) }
        record(.create(issued.kind, sent: issued.delivery != nil), issued)
        let response = issued.response

        let rightAnswer: String
        switch issued.kind {
        case .emailCode: rightAnswer = sent.last?.code ?? "000000"
        case .captcha: rightAnswer = Fixture.captchaAnswer(for: issued) ?? ""
        }
        let typed = answer == .right ? rightAnswer : issued.kind == .emailCode ? Fixture.wrongCode(for: rightAnswer) : "nope"
        let outcome = engine.verify(
            try Requests.verify(response.privateChallengeParameters ?? [:], answer: typed, userNotFound: userNotFound),
            user: user, now: now)
        record(.verify(outcome), outcome)
        session.append(
            SessionEntry(
                challengeName: .customChallenge, challengeResult: outcome.response.answerCorrect ?? false,
                challengeMetadata: response.challengeMetadata))
    }

    private mutating func record(_ step: Step, _ value: Any? = nil) {
        steps.append(step)
        if let value { produced.append(value) }
        now += secondsPerCall
    }
}
