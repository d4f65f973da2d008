import ChallengeFlows
import CognitoChallengeTesting
import Testing
import TOTPChallenge

@Suite("TOTP step: RFC 6238 codes, and sign-ins driven the way Cognito drives them")
struct TOTPStepTests {
    /// The RFC 6238 appendix B secret for SHA-1, and the same in base32 as a user attribute holds it.
    static let secret = Array("12345678901234567890".utf8)
    static let base32Secret = "GEZDGNBVGY3TQOJQGEZDGNBVGY3TQOJQ"
    static let start: Int64 = 1_700_000_000

    /// RFC 6238 appendix B: the SHA-1 rows (8 digits).
    @Test(arguments: [
        (Int64(59), "94287082"), (1_111_111_109, "07081804"), (1_111_111_111, "14050471"),
        (1_234_567_890, "89005924"), (2_000_000_000, "69279037"), (20_000_000_000, "65353130"),
    ])
    func rfc6238Vectors(time: Int64, code: String) {
        #expect(TOTPStep.code(secret: Self.secret, time: time, digits: 8) == code)
    }

    /// A simulator for `flow` whose clock stands still between calls, so that typed codes are for a known time.
    private func simulator(_ flow: String = "totp", attributes: [String: String]? = nil) throws -> SignInSimulator {
        var simulator = try SignInSimulator(
            flow: flow, steps: [TOTPStep()],
            userAttributes: attributes ?? ["sub": "5f1c7e2a", TOTPStep.secretAttribute: Self.base32Secret], now: Self.start)
        simulator.secondsPerCall = 0
        return simulator
    }

    private func code(stepsAway: Int64) -> String {
        TOTPStep.code(secret: Self.secret, time: Self.start + stepsAway * TOTPStep.period)
    }

    @Test("the right code signs in")
    func rightCode() throws {
        var simulator = try simulator()
        #expect(try simulator.signIn(answers: [.right]) == .signedIn)
        #expect(simulator.transcript.map(\.description) == [
            "define: next challenge CUSTOM_CHALLENGE", "create: TOTP", "verify: answer correct", "define: issue tokens",
        ])
        #expect(simulator.publicParameters == [["challenge": "TOTP", "digits": "6", "period": "30", "attemptsLeft": "3"]])
        #expect(simulator.delivered.isEmpty)
        #expect(simulator.session.first?.challengeMetadata?.hasPrefix("TOTP:0:") == true)
    }

    @Test("after SRP, with white space in the answer")
    func afterSRP() throws {
        var simulator = try simulator("srp+totp")
        let spaced = code(stepsAway: 0).enumerated().map { $0.offset == 3 ? " \($0.element)" : "\($0.element)" }.joined()
        #expect(try simulator.signIn(answers: [.typed(spaced)]) == .signedIn)
        #expect(simulator.session.map(\.challengeName.rawValue) == ["SRP_A", "PASSWORD_VERIFIER", "CUSTOM_CHALLENGE"])
    }

    @Test("a code one step early or late is accepted", arguments: [-1, 1] as [Int64])
    func driftOfOne(steps: Int64) throws {
        var simulator = try simulator()
        #expect(try simulator.signIn(answers: [.typed(code(stepsAway: steps))]) == .signedIn)
    }

    @Test("a code two steps early or late is refused", arguments: [-2, 2] as [Int64])
    func driftOfTwo(steps: Int64) throws {
        var simulator = try simulator()
        let stale = SimulatedAnswer.typed(code(stepsAway: steps))
        #expect(try simulator.signIn(answers: [stale, stale, stale]) == .failed(.tooManyWrongAnswers(TOTPStep().kind)))
        #expect(simulator.transcript.filter { $0 == .verify(.wrong) }.count == 3)
    }

    @Test("wrong, then right")
    func wrongThenRight() throws {
        var simulator = try simulator()
        #expect(try simulator.signIn(answers: [.wrong, .right]) == .signedIn)
        #expect(simulator.publicParameters.map { $0["attemptsLeft"] } == ["3", "2"])
    }

    @Test("an unknown user is refused, even with a right code")
    func unknownUser() throws {
        var simulator = try simulator()
        simulator.userNotFound = true
        let right = SimulatedAnswer.typed(code(stepsAway: 0))
        #expect(try simulator.signIn(answers: [right, right, right]) == .failed(.tooManyWrongAnswers(TOTPStep().kind)))
        #expect(simulator.transcript.filter { $0 == .verify(.unknownUser) }.count == 3)
    }

    @Test("a user without a usable secret is refused, whatever the answer", arguments: [
        ["sub": "5f1c7e2a"], ["sub": "5f1c7e2a", TOTPStep.secretAttribute: "not base32!"],
    ])
    func missingSecret(attributes: [String: String]) throws {
        var simulator = try simulator(attributes: attributes)
        let right = SimulatedAnswer.typed(code(stepsAway: 0))
        #expect(try simulator.signIn(answers: [right, right, right]) == .failed(.tooManyWrongAnswers(TOTPStep().kind)))
        let refusals = simulator.transcript.filter {
            if case .verify(.refused(let reason)) = $0 { reason.contains(TOTPStep.secretAttribute) } else { false }
        }
        #expect(refusals.count == 3)
    }

    @Test("a right code that arrives after the challenge expired is refused")
    func expired() throws {
        var simulator = try simulator()
        let late = SimulatedAnswer.right.after(seconds: 181)
        #expect(try simulator.signIn(answers: [late, late, late]) == .failed(.tooManyWrongAnswers(TOTPStep().kind)))
        #expect(simulator.transcript.filter { $0 == .verify(.expired) }.count == 3)
    }

    @Test("the registry refuses a second step named totp")
    func nameTaken() {
        #expect(throws: ConfigurationError.step(name: "totp", problem: "another step has the same name")) {
            try StepRegistry.builtIn().adding([TOTPStep(), TOTPStep()])
        }
    }
}
