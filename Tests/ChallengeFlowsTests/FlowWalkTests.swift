import ChallengeFlows
import CognitoChallengeTesting
import Testing

@Suite("Whole sign-ins through the engine, driven the way Cognito drives the triggers")
struct FlowWalkTests {
    private func walk(
        _ flow: String, answers: [SimulatedAnswer], maxAttempts: Int = 3,
        configure: (inout SignInSimulator) -> Void = { _ in }
    ) throws -> (SignInOutcome, SignInSimulator) {
        var driver = try Fixture.simulator(flow, maxAttempts: maxAttempts)
        configure(&driver)
        let outcome = try driver.signIn(answers: answers)
        return (outcome, driver)
    }

    private func transcript(_ driver: SignInSimulator) -> [String] { driver.transcript.map(\.description) }

    @Test("email code, right first time")
    func emailCodeRight() throws {
        let (decision, driver) = try walk("email-code", answers: [.right])
        #expect(decision == .signedIn)
        #expect(transcript(driver) == [
            "define: next challenge CUSTOM_CHALLENGE", "create: EMAIL_CODE (sent)", "verify: answer correct",
            "define: issue tokens",
        ])
        #expect(driver.delivered.count == 1)
        #expect(driver.delivered.first?.recipient == Fixture.janeEmail)
    }

    @Test("email code, wrong then right: one code sent, the same code accepted later")
    func emailCodeWrongThenRight() throws {
        let (decision, driver) = try walk("email-code", answers: [.wrong, .wrong, .right])
        #expect(decision == .signedIn)
        #expect(transcript(driver) == [
            "define: next challenge CUSTOM_CHALLENGE", "create: EMAIL_CODE (sent)", "verify: answer wrong",
            "define: next challenge CUSTOM_CHALLENGE", "create: EMAIL_CODE", "verify: answer wrong",
            "define: next challenge CUSTOM_CHALLENGE", "create: EMAIL_CODE", "verify: answer correct",
            "define: issue tokens",
        ])
        #expect(driver.delivered.count == 1)
        #expect(driver.session.count == 3)
    }

    @Test("email code, too many wrong answers", arguments: [1, 3, 5])
    func emailCodeTooManyWrong(maxAttempts: Int) throws {
        let (decision, driver) = try walk(
            "email-code", answers: Array(repeating: .wrong, count: maxAttempts), maxAttempts: maxAttempts)
        #expect(decision == .failed(.tooManyWrongAnswers(.emailCode)))
        #expect(driver.transcript.filter { if case .verify(.wrong) = $0 { true } else { false } }.count == maxAttempts)
        #expect(driver.delivered.count == 1)
    }

    @Test("a code that expires between attempts is replaced and sent again")
    func emailCodeExpiresBetweenAttempts() throws {
        let (decision, driver) = try walk("email-code", answers: [.wrong, .right]) { $0.secondsPerCall = 100 }
        #expect(decision == .signedIn)
        #expect(driver.delivered.count == 2)
        #expect(driver.delivered[0].code != driver.delivered[1].code)
    }

    @Test("right codes that arrive after expiry count as wrong answers; each retry gets a fresh code")
    func emailCodeTooLate() throws {
        let (decision, driver) = try walk("email-code", answers: [.right, .right, .right]) { $0.secondsPerCall = 200 }
        #expect(decision == .failed(.tooManyWrongAnswers(.emailCode)))
        #expect(driver.transcript.filter { $0 == .verify(.expired) }.count == 3)
        #expect(driver.delivered.count == 3)
    }

    @Test("SRP then email code, right answers")
    func srpEmailCodeRight() throws {
        let (decision, driver) = try walk("srp-email-code", answers: [.right])
        #expect(decision == .signedIn)
        #expect(transcript(driver) == [
            "define: next challenge PASSWORD_VERIFIER", "cognito: password right",
            "define: next challenge CUSTOM_CHALLENGE", "create: EMAIL_CODE (sent)", "verify: answer correct",
            "define: issue tokens",
        ])
        #expect(driver.session.map(\.challengeName) == [.srpA, .passwordVerifier, .customChallenge])
    }

    @Test("SRP then email code, wrong password: no code is sent")
    func srpWrongPassword() throws {
        let (decision, driver) = try walk("srp-email-code", answers: []) { $0.passwordIsRight = false }
        #expect(decision == .failed(.wrongPassword))
        #expect(driver.delivered.isEmpty)
    }

    @Test("SRP then email code, wrong answers then right, and too many wrong")
    func srpEmailCodeWrong() throws {
        let (recovered, recoveredDriver) = try walk("srp-email-code", answers: [.wrong, .right])
        #expect(recovered == .signedIn)
        #expect(recoveredDriver.delivered.count == 1)
        let (failed, _) = try walk("srp-email-code", answers: [.wrong, .wrong, .wrong])
        #expect(failed == .failed(.tooManyWrongAnswers(.emailCode)))
    }

    @Test("CAPTCHA, right, wrong then right, and too many wrong")
    func captcha() throws {
        let (right, rightDriver) = try walk("captcha", answers: [.right])
        #expect(right == .signedIn)
        #expect(transcript(rightDriver) == [
            "define: next challenge CUSTOM_CHALLENGE", "create: CAPTCHA", "verify: answer correct", "define: issue tokens",
        ])
        #expect(rightDriver.delivered.isEmpty)

        let (recovered, _) = try walk("captcha", answers: [.wrong, .wrong, .right])
        #expect(recovered == .signedIn)
        let (failed, _) = try walk("captcha", answers: [.wrong, .wrong, .wrong])
        #expect(failed == .failed(.tooManyWrongAnswers(.captcha)))
    }

    @Test("CAPTCHA then email code: the code is sent only after the CAPTCHA is solved")
    func captchaThenEmailCode() throws {
        let (decision, driver) = try walk("captcha-email-code", answers: [.wrong, .right, .wrong, .right])
        #expect(decision == .signedIn)
        #expect(transcript(driver) == [
            "define: next challenge CUSTOM_CHALLENGE", "create: CAPTCHA", "verify: answer wrong",
            "define: next challenge CUSTOM_CHALLENGE", "create: CAPTCHA", "verify: answer correct",
            "define: next challenge CUSTOM_CHALLENGE", "create: EMAIL_CODE (sent)", "verify: answer wrong",
            "define: next challenge CUSTOM_CHALLENGE", "create: EMAIL_CODE", "verify: answer correct",
            "define: issue tokens",
        ])
        #expect(driver.delivered.count == 1)
    }

    @Test("CAPTCHA then email code, too many wrong CAPTCHAs: no code is ever sent")
    func captchaThenEmailCodeFailsEarly() throws {
        let (decision, driver) = try walk("captcha-email-code", answers: [.wrong, .wrong, .wrong])
        #expect(decision == .failed(.tooManyWrongAnswers(.captcha)))
        #expect(driver.delivered.isEmpty)
    }

    @Test("CAPTCHA then email code, too many wrong codes")
    func captchaThenEmailCodeTooManyWrongCodes() throws {
        let (decision, _) = try walk("captcha-email-code", answers: [.right, .wrong, .wrong, .wrong])
        #expect(decision == .failed(.tooManyWrongAnswers(.emailCode)))
    }

    @Test("SRP, CAPTCHA and email code in one composition")
    func srpCaptchaEmailCode() throws {
        let (decision, driver) = try walk("srp+captcha+email-code", answers: [.right, .right])
        #expect(decision == .signedIn)
        #expect(driver.session.map(\.challengeName) == [.srpA, .passwordVerifier, .customChallenge, .customChallenge])
    }

    @Test("an unknown user walks every step like a real one, is sent nothing, and never signs in", arguments: [
        ("email-code", ChallengeKind.emailCode), ("srp-email-code", .emailCode), ("captcha-email-code", .emailCode),
    ])
    func userNotFound(flow: String, failingStep: ChallengeKind) throws {
        let (decision, driver) = try walk(flow, answers: [.right, .right, .right, .right]) {
            $0.userNotFound = true
            $0.user = UserIdentity(userPoolId: Fixture.jane.userPoolId, userName: "ghost")
        }
        #expect(decision == .failed(.tooManyWrongAnswers(failingStep)))
        #expect(driver.delivered.isEmpty)
        #expect(driver.transcript.filter { $0 == .verify(.unknownUser) }.count == 3)
    }

    @Test("a real and an unknown user through captcha+email-code get the same decisions, parameters and outcomes")
    func realAndUnknownAlike() throws {
        let script: [SimulatedAnswer] = [.wrong, .right, .wrong, .wrong, .wrong]
        let (realDecision, real) = try walk("captcha-email-code", answers: script)
        let (unknownDecision, unknown) = try walk("captcha-email-code", answers: script) {
            $0.userNotFound = true
            $0.user = UserIdentity(userPoolId: Fixture.jane.userPoolId, userName: "ghost")
        }
        #expect(realDecision == .failed(.tooManyWrongAnswers(.emailCode)))
        #expect(unknownDecision == realDecision)

        // What Cognito (and so the client) can see of each step: Define's answer, the challenge's kind and public
        // parameters, and whether the answer was right. Only the destination may differ, in value, not in form.
        func visible(_ driver: SignInSimulator) -> [String] {
            zip(driver.transcript, driver.transcript.indices).map { step, _ in
                switch step {
                case .define(let decision): "define \(decision.response)"
                case .passwordVerifier(let correct): "password \(correct)"
                case .create(let kind, _): "create \(kind)"
                case .verify(let outcome): "verify \(outcome.isCorrect)"
                }
            }
        }
        #expect(visible(real) == visible(unknown))
        let realChallenges = real.challenges
        let unknownChallenges = unknown.challenges
        #expect(realChallenges.count == 5)
        #expect(realChallenges.count == unknownChallenges.count)
        let shape = /[a-z]\*\*\*@[a-z]\*\*\*\.[a-z]+/
        for (mine, theirs) in zip(realChallenges, unknownChallenges) {
            #expect(Set(mine.publicParameters.keys) == Set(theirs.publicParameters.keys))
            for (key, value) in mine.publicParameters where key != "destination" {
                #expect(theirs.publicParameters[key] == value, "\(key)")
            }
            if let destination = theirs.publicParameters["destination"] {
                #expect(destination.wholeMatch(of: shape) != nil, "\(destination)")
            }
            #expect(Set(mine.response.privateChallengeParameters?.keys ?? [:].keys)
                == Set(theirs.response.privateChallengeParameters?.keys ?? [:].keys))
        }
        // The CAPTCHA was judged on its answer for the unknown user too: a right one moved on to the code.
        #expect(unknown.transcript.contains(.create(.emailCode, sent: false)))
        #expect(unknown.delivered.isEmpty)
    }
}
