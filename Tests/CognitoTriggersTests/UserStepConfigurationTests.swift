import ChallengeFlows
import CognitoChallengeTesting
import CognitoTriggers
import Testing

/// A step of your own: the answer is the user's `custom:pet` attribute, judged by the step itself.
private struct PetNameStep: ChallengeStep {
    var name: String { "pet-name" }
    var kind: ChallengeKind { ChallengeKind(rawValue: "PET_NAME")! }
    var provesIdentity: Bool { false }

    func create(_ context: StepContext) throws -> StepChallenge {
        StepChallenge(publicParameters: ["question": "your first pet"], sealing: .nonce)
    }

    func judge(_ answer: String, context: StepContext) -> AnswerJudgement {
        guard let pet = context.userAttributes["custom:pet"] else { return .refused(reason: "the user has no pet") }
        return normalize(answer) == pet ? .correct : .wrong
    }

    func expectedAnswer(publicParameters: [String: String], context: StepContext) -> String? {
        context.userAttributes["custom:pet"]
    }
}

@Suite("TriggerConfiguration with steps of your own")
struct UserStepConfigurationTests {
    static let environment = TriggerConfigurationTests.minimal.merging(["CHALLENGE_FLOW": "pet-name+email-code"]) { $1 }
    static let attributes = ["sub": "1", "email": "jane.doe@example.com", "email_verified": "true", "custom:pet": "Rex"]

    @Test("CHALLENGE_FLOW names a user step next to the built-in ones, and the configured flow signs in")
    func configured() throws {
        let configuration = try TriggerConfiguration(environment: Self.environment, steps: [PetNameStep()])
        #expect(configuration.flow.description == "pet-name+email-code")
        var simulator = try SignInSimulator(configuration: configuration, userAttributes: Self.attributes)
        #expect(try simulator.signIn(answers: [.wrong, .right, .right]) == .signedIn)
        #expect(simulator.delivered.count == 1)
        #expect(simulator.publicParameters.first?["question"] == "your first pet")
    }

    @Test("a user without the attribute is refused by the step")
    func refusedByTheStep() throws {
        let configuration = try TriggerConfiguration(environment: Self.environment, steps: [PetNameStep()])
        var simulator = try SignInSimulator(configuration: configuration)
        #expect(try simulator.signIn(answers: ["Rex", "Rex", "Rex"]) == .failed(.tooManyWrongAnswers(PetNameStep().kind)))
        #expect(simulator.transcript.contains(.verify(.refused("the user has no pet"))))
    }

    @Test("without the step, the flow is refused with CHALLENGE_FLOW named")
    func unknownStep() {
        let error = #expect(throws: ConfigurationError.self) { try TriggerConfiguration(environment: Self.environment) }
        #expect(error?.description.hasPrefix(#"CHALLENGE_FLOW="pet-name+email-code" is not valid"#) == true)
    }

    @Test("a handler built from the configuration serves the user step")
    func handler() throws {
        let configuration = try TriggerConfiguration(environment: Self.environment, steps: [PetNameStep()])
        let handler = try CognitoTriggerHandler(configuration: configuration)
        #expect(handler.engine.step(for: PetNameStep().kind)?.name == "pet-name")
        #expect(handler.engine.flow.kinds == [PetNameStep().kind, .emailCode])
    }
}
