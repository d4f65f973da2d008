import ChallengeFlows
import CognitoChallengeTesting
import Testing

/// A step of the kind a user writes: a fixed pass phrase, sealed and judged by the engine's defaults.
struct PassPhraseStep: ChallengeStep {
    var name: String { "pass-phrase" }
    var kind: ChallengeKind { ChallengeKind(rawValue: "PASS_PHRASE")! }
    var provesIdentity: Bool { true }

    func create(_ context: StepContext) throws -> StepChallenge {
        StepChallenge(publicParameters: ["hint": "the usual"], sealing: .answer("open sesame"))
    }

    func expectedAnswer(publicParameters: [String: String], context: StepContext) -> String? { "open sesame" }
}

/// A step whose name or kind is given, for registry checks.
struct NamedStep: ChallengeStep {
    let name: String
    let kind: ChallengeKind

    func create(_ context: StepContext) throws -> StepChallenge {
        StepChallenge(publicParameters: [:], sealing: .nonce)
    }

    var provesIdentity: Bool { false }
}

@Suite("Steps of your own, through the registry and the simulator")
struct CustomStepTests {
    @Test("a user step joins a flow by name and is sealed and judged by the engine's defaults")
    func passPhrase() throws {
        var simulator = try SignInSimulator(flow: "srp+pass-phrase", steps: [PassPhraseStep()])
        #expect(try simulator.signIn(answers: [.wrong, .right]) == .signedIn)
        #expect(simulator.transcript.map(\.description) == [
            "define: next challenge PASSWORD_VERIFIER", "cognito: password right",
            "define: next challenge CUSTOM_CHALLENGE", "create: PASS_PHRASE", "verify: answer wrong",
            "define: next challenge CUSTOM_CHALLENGE", "create: PASS_PHRASE", "verify: answer correct",
            "define: issue tokens",
        ])
        #expect(simulator.publicParameters.map { $0["attemptsLeft"] } == ["3", "2"])
        #expect(simulator.publicParameters.allSatisfy { $0["hint"] == "the usual" && $0["challenge"] == "PASS_PHRASE" })
        #expect(simulator.session.last?.challengeMetadata?.hasPrefix("PASS_PHRASE:0:") == true)
        // White space does not matter by default; letter case does.
        var spaced = try SignInSimulator(flow: "pass-phrase", steps: [PassPhraseStep()])
        #expect(try spaced.signIn(answers: ["open  sesame "]) == .signedIn)
        var shouted = try SignInSimulator(flow: "pass-phrase", steps: [PassPhraseStep()])
        #expect(try shouted.signIn(answers: ["OPEN SESAME", "OPEN SESAME", "OPEN SESAME"])
            == .failed(.tooManyWrongAnswers(PassPhraseStep().kind)))
    }

    @Test("the flow's description and errors name user steps")
    func parsing() throws {
        let registry = try StepRegistry.builtIn().adding([PassPhraseStep()])
        let flow = try SignInFlow(parsing: "captcha + Pass-Phrase", registry: registry)
        #expect(flow.description == "captcha+pass-phrase")
        #expect(flow.provesIdentity)
        let error = try #require(throws: ConfigurationError.self) { try SignInFlow(parsing: "pass-phrase") }
        #expect(error.description.contains("from: srp (first only), captcha, email-code"))
        let listed = try #require(throws: ConfigurationError.self) { try SignInFlow(parsing: "totp", registry: registry) }
        #expect(listed.description.contains("captcha, email-code, pass-phrase"))
    }

    @Test("the registry refuses names and kinds that cannot be told apart", arguments: [
        ("srp", "PIN", "the name must be lower-case letters"),
        ("Pin", "PIN", "the name must be lower-case letters"),
        ("pin+pin", "PIN", "the name must be lower-case letters"),
        ("srp-email-code", "PIN", "the name is taken by a named flow"),
        ("email-code", "PIN", "another step has the same name"),
        ("pin", "EMAIL_CODE", "another step has the same kind \"EMAIL_CODE\""),
    ])
    func registryRefusals(name: String, kind: String, problem: String) throws {
        let step = NamedStep(name: name, kind: try #require(ChallengeKind(rawValue: kind)))
        let error = try #require(throws: ConfigurationError.self) { try StepRegistry.builtIn().adding([step]) }
        #expect(error.description.hasPrefix("The challenge step \"\(name)\" cannot be used: \(problem)"))
    }

    @Test("kinds are upper-case letters, digits and _, so that they never break the metadata", arguments: [
        ("TOTP", true), ("SMS_CODE_2", true), ("", false), ("totp", false), ("A:B", false), ("2FA", false),
        (String(repeating: "A", count: 41), false),
    ])
    func kinds(text: String, valid: Bool) {
        #expect((ChallengeKind(rawValue: text) != nil) == valid)
    }

    @Test("Cognito retrying Create: every call is recorded, and the last challenge is the one answered")
    func retriedCreate() throws {
        var simulator = try SignInSimulator(flow: "email-code", random: SeededRandom(seed: 3))
        simulator.createCallsPerChallenge = 2
        #expect(try simulator.signIn(answers: [.right]) == .signedIn)
        #expect(simulator.challenges.count == 2)
        // The engine alone keeps no state, so each call sends a code; the limits of CognitoTriggers stop that.
        #expect(simulator.delivered.count == 2)
        #expect(simulator.transcript.filter { $0 == .create(.emailCode, sent: true) }.count == 2)
    }

    @Test("running out of scripted answers is an error that says so")
    func answersRunOut() throws {
        var simulator = try SignInSimulator(flow: "captcha-email-code", registry: .builtIn(captchas: Fixture.captchas))
        #expect(throws: SimulationError.noAnswerLeft(answered: 0)) { try simulator.signIn(answers: []) }
    }
}
