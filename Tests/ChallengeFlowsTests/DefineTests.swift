import ChallengeFlows
import Testing

@Suite("Define: the next step from the session alone")
struct DefineTests {
    private func define(_ flow: String, _ session: [SessionEntry], maxAttempts: Int = 3) throws -> DefineDecision {
        try Fixture.engine(flow, maxAttempts: maxAttempts).define(Requests.define(session))
    }

    @Test("an empty session starts every flow without SRP with a custom challenge", arguments: [
        "email-code", "captcha", "captcha-email-code", "email-code+captcha",
    ])
    func emptySessionWithoutSRP(flow: String) throws {
        #expect(try define(flow, []) == .present(.customChallenge))
    }

    @Test("an empty session fails a flow that starts with SRP", arguments: ["srp-email-code", "srp+captcha+email-code"])
    func emptySessionWithSRP(flow: String) throws {
        #expect(try define(flow, []) == .fail(.passwordStepMissing))
    }

    @Test("SRP_A is followed by PASSWORD_VERIFIER, then the first custom step")
    func srpSteps() throws {
        #expect(try define("srp-email-code", [.srpA]) == .present(.passwordVerifier))
        #expect(try define("srp-email-code", [.srpA, .passwordVerifier(true)]) == .present(.customChallenge))
        #expect(try define("srp+captcha+email-code", [.srpA, .passwordVerifier(true)]) == .present(.customChallenge))
    }

    @Test("a PASSWORD_VERIFIER that came back false fails")
    func wrongPassword() throws {
        #expect(try define("srp-email-code", [.srpA, .passwordVerifier(false)]) == .fail(.wrongPassword))
    }

    @Test("an SRP flow whose session does not start with a successful SRP_A fails", arguments: [
        [SessionEntry.custom(.emailCode, correct: true)],
        [SessionEntry(challengeName: .srpA, challengeResult: false)],
        [SessionEntry.passwordVerifier(true)],
    ])
    func srpFlowWithoutSRP(session: [SessionEntry]) throws {
        #expect(try define("srp-email-code", session) == .fail(.unexpectedChallenge(session[0].challengeName, position: 0)))
    }

    @Test("something other than PASSWORD_VERIFIER after SRP_A fails")
    func srpThenSomethingElse() throws {
        #expect(
            try define("srp-email-code", [.srpA, .custom(.emailCode, correct: true)])
                == .fail(.unexpectedChallenge(.customChallenge, position: 1)))
    }

    @Test("SRP entries in a flow without SRP fail", arguments: [
        [SessionEntry.srpA],
        [.srpA, .passwordVerifier(true)],
        [.srpA, .passwordVerifier(true), .custom(.emailCode, correct: true)],
    ])
    func srpInFlowWithoutSRP(session: [SessionEntry]) throws {
        #expect(try define("email-code", session) == .fail(.unexpectedChallenge(.srpA, position: 0)))
    }

    @Test("wrong answers below the limit ask for the custom challenge again", arguments: [
        ("email-code", ChallengeKind.emailCode), ("captcha", .captcha),
    ])
    func wrongBelowLimit(flow: String, kind: ChallengeKind) throws {
        for wrongAnswers in 1..<5 {
            let session = Array(repeating: SessionEntry.custom(kind, correct: false), count: wrongAnswers)
            #expect(try define(flow, session, maxAttempts: 5) == .present(.customChallenge))
        }
    }

    @Test("the wrong answer that reaches the limit fails", arguments: [1, 3, 5])
    func wrongAtLimit(maxAttempts: Int) throws {
        let session = Array(repeating: SessionEntry.custom(.emailCode, correct: false), count: maxAttempts)
        #expect(try define("email-code", session, maxAttempts: maxAttempts) == .fail(.tooManyWrongAnswers(.emailCode)))
        if maxAttempts > 1 {
            #expect(try define("email-code", Array(session.dropLast()), maxAttempts: maxAttempts) == .present(.customChallenge))
        }
    }

    @Test("the limit counts per step: wrong answers to the first step do not count against the second")
    func limitPerStep() throws {
        let session: [SessionEntry] = [
            .custom(.captcha, correct: false), .custom(.captcha, correct: false), .custom(.captcha, correct: true),
            .custom(.emailCode, step: 1, correct: false), .custom(.emailCode, step: 1, correct: false),
        ]
        #expect(try define("captcha-email-code", session) == .present(.customChallenge))
        #expect(
            try define("captcha-email-code", session + [.custom(.emailCode, step: 1, correct: false)])
                == .fail(.tooManyWrongAnswers(.emailCode)))
    }

    @Test("success issues tokens", arguments: [
        ("email-code", [SessionEntry.custom(.emailCode, correct: true)]),
        ("captcha", [.custom(.captcha, correct: true)]),
        ("srp-email-code", [.srpA, .passwordVerifier(true), .custom(.emailCode, correct: true)]),
        ("captcha-email-code", [.custom(.captcha, correct: true), .custom(.emailCode, step: 1, correct: true)]),
        ("email-code", [.custom(.emailCode, correct: false), .custom(.emailCode, correct: false), .custom(.emailCode, correct: true)]),
    ])
    func success(flow: String, session: [SessionEntry]) throws {
        #expect(try define(flow, session) == .issueTokens)
    }

    @Test("a composition runs its steps in order: CAPTCHA, then the email code")
    func compositionOrder() throws {
        let engine = try Fixture.engine("captcha-email-code")
        let afterCaptcha: [SessionEntry] = [.custom(.captcha, correct: true)]
        #expect(engine.define(try Requests.define(afterCaptcha)) == .present(.customChallenge))
        let progress = FlowProgress(session: afterCaptcha, flow: engine.flow, policy: engine.policy)
        #expect(progress == .customStep(index: 1, kind: .emailCode, attempt: 1, previousSeal: nil, passedStepUp: true))
        #expect(FlowProgress(session: [], flow: engine.flow, policy: engine.policy)
            == .customStep(index: 0, kind: .captcha, attempt: 1, previousSeal: nil))
    }

    @Test("a CAPTCHA where the flow has none is a step-up only when step-ups are admitted: passed, the same step is due again")
    func stepUpEntries() throws {
        let engine = try Fixture.engine("email-code")
        let passed = SessionEntry.custom(.captcha, step: 0, correct: true)
        let failed = SessionEntry.custom(.captcha, step: 0, correct: false)
        #expect(FlowProgress(session: [passed], flow: engine.flow, policy: engine.policy) == .failed(.unrecognizedMetadata(position: 0)))
        #expect(FlowProgress(session: [passed], flow: engine.flow, policy: engine.policy, admitsStepUp: true)
            == .customStep(index: 0, kind: .emailCode, attempt: 1, previousSeal: nil, passedStepUp: true))
        #expect(FlowProgress(session: [failed, failed], flow: engine.flow, policy: engine.policy, admitsStepUp: true)
            == .customStep(index: 0, kind: .emailCode, attempt: 3, previousSeal: nil))
        #expect(FlowProgress(session: [failed, failed, failed], flow: engine.flow, policy: engine.policy, admitsStepUp: true)
            == .failed(.tooManyWrongAnswers(.captcha)))
        // In a flow with a CAPTCHA step, a CAPTCHA at its position is that step, never a step-up; passed, it counts
        // as one.
        let composed = try Fixture.engine("captcha-email-code")
        #expect(FlowProgress(session: [passed], flow: composed.flow, policy: composed.policy, admitsStepUp: true)
            == .customStep(index: 1, kind: .emailCode, attempt: 1, previousSeal: nil, passedStepUp: true))
    }

    @Test("progress counts attempts and carries the seal of the last wrong answer")
    func progressAfterWrongAnswer() throws {
        let engine = try Fixture.engine("email-code")
        let wrong = SessionEntry.custom(.emailCode, correct: false)
        let progress = FlowProgress(session: [wrong, wrong], flow: engine.flow, policy: engine.policy)
        let metadata = try #require(wrong.challengeMetadata)
        let seal = try #require(ChallengeSeal(metadata: metadata))
        #expect(progress == .customStep(index: 0, kind: .emailCode, attempt: 3, previousSeal: seal))
    }

    @Test("a step out of order fails", arguments: [
        // The email code's seal where the CAPTCHA is due.
        [SessionEntry.custom(.emailCode, step: 0, correct: true)],
        [.custom(.emailCode, step: 1, correct: true)],
        // The right kind at the wrong position.
        [.custom(.captcha, step: 1, correct: true)],
        [.custom(.captcha, correct: true), .custom(.captcha, step: 1, correct: true)],
        [.custom(.captcha, correct: true), .custom(.emailCode, step: 0, correct: true)],
    ])
    func outOfOrder(session: [SessionEntry]) throws {
        #expect(
            try define("captcha-email-code", session) == .fail(.unrecognizedMetadata(position: session.count - 1)))
    }

    @Test("metadata this flow did not write fails", arguments: [
        nil, "CAPTCHA_CHALLENGE", "", "EMAIL_CODE:0:1700000180", "EMAIL_CODE:0:1700000180:nothex",
        "EMAIL_CODE:0:1700000180:abcd", "SMS_CODE:0:1700000180:" + String(repeating: "ab", count: 32),
        "EMAIL_CODE:-1:1700000180:" + String(repeating: "ab", count: 32),
        "EMAIL_CODE:0:soon:" + String(repeating: "ab", count: 32),
    ] as [String?])
    func foreignMetadata(metadata: String?) throws {
        let entry = SessionEntry(challengeName: .customChallenge, challengeResult: true, challengeMetadata: metadata)
        #expect(try define("email-code", [entry]) == .fail(.unrecognizedMetadata(position: 0)))
    }

    @Test("a challenge name foreign to the flow fails", arguments: [
        "SMS_MFA", "SOFTWARE_TOKEN_MFA", "DEVICE_SRP_AUTH", "DEVICE_PASSWORD_VERIFIER", "ADMIN_NO_SRP_AUTH", "PASSWORD_VERIFIER",
    ])
    func foreignChallengeName(name: String) throws {
        let foreign = SessionEntry(challengeName: ChallengeName(rawValue: name), challengeResult: true)
        #expect(try define("email-code", [foreign]) == .fail(.unexpectedChallenge(foreign.challengeName, position: 0)))
        #expect(
            try define("srp-email-code", [.srpA, .passwordVerifier(true), foreign])
                == .fail(.unexpectedChallenge(foreign.challengeName, position: 2)))
    }

    @Test("an entry after the flow completed fails")
    func entryAfterCompletion() throws {
        let done: [SessionEntry] = [.custom(.emailCode, correct: true)]
        #expect(
            try define("email-code", done + [.custom(.emailCode, step: 1, correct: true)])
                == .fail(.unexpectedChallenge(.customChallenge, position: 1)))
        #expect(
            try define("email-code", done + [.custom(.emailCode, correct: false)])
                == .fail(.unexpectedChallenge(.customChallenge, position: 1)))
    }

    @Test("a user that does not exist walks the same path")
    func userNotFound() throws {
        let engine = try Fixture.engine("email-code")
        #expect(engine.define(try Requests.define([], userNotFound: true)) == .present(.customChallenge))
        #expect(
            engine.define(try Requests.define([.custom(.emailCode, correct: false)], userNotFound: true))
                == .present(.customChallenge))
    }

    @Test("decisions in Cognito's terms")
    func responses() {
        #expect(
            DefineDecision.present(.customChallenge).response
                == DefineAuthChallengeResponse(challengeName: .customChallenge, issueTokens: false, failAuthentication: false))
        #expect(
            DefineDecision.present(.passwordVerifier).response
                == DefineAuthChallengeResponse(challengeName: .passwordVerifier, issueTokens: false, failAuthentication: false))
        #expect(DefineDecision.issueTokens.response == DefineAuthChallengeResponse(issueTokens: true, failAuthentication: false))
        #expect(
            DefineDecision.fail(.wrongPassword).response
                == DefineAuthChallengeResponse(issueTokens: false, failAuthentication: true))
    }

    @Test("decisions and failures describe themselves for logs")
    func descriptions() {
        #expect(DefineDecision.present(.customChallenge).description == "next challenge CUSTOM_CHALLENGE")
        #expect(DefineDecision.issueTokens.description == "issue tokens")
        #expect(DefineDecision.fail(.tooManyWrongAnswers(.captcha)).description == #"fail authentication (too many wrong answers to "CAPTCHA")"#)
        #expect(FlowFailure.unexpectedChallenge(.srpA, position: 2).description == #""SRP_A" was not expected at session position 2"#)
        #expect(FlowProgress.failed(.unexpectedChallenge(.passwordVerifier, position: 0)).description
            == #"the sign-in has failed: "PASSWORD_VERIFIER" was not expected at session position 0"#)
    }
}
