import ChallengeFlows
import Invoker
import LosslessJSON
import Testing

@Suite("generate-event")
struct EventGeneratorTests {
    static func generator(flow: String, user: String = LocalDefaults.userName) throws -> (EventGenerator, LocalConfiguration) {
        let configuration = try LocalConfiguration(processEnvironment: ["CHALLENGE_FLOW": flow, "OUTBOX_PATH": "/dev/null", "ALLOW_CAPTCHA_ONLY_SIGN_IN": "true"])
        let identity = LocalUserTable.embedded.user(named: user)?.identity ?? .unknownUser(user)
        return (try EventGenerator(configuration: configuration, identity: identity), configuration)
    }

    @Test("events have the sample events' shape and decode as their trigger", arguments: EventGenerator.Trigger.allCases)
    func shape(trigger: EventGenerator.Trigger) async throws {
        let (generator, _) = try Self.generator(flow: "email-code")
        let generated = try await generator.generate(trigger, session: generator.tokens(for: .custom(1), wrongAnswers: 0))
        let event = try AuthChallengeEvent(json: generated.event)
        let sample = try JSONValue(parsing: LocalFileBytes.read(Repository.path("Events/email-code/01-define-start.json")))
        #expect(generated.event.objectValue?.keys == sample.objectValue?.keys)
        #expect(event.header.userName == "jane")
        #expect(event.header.userPoolId == LocalDefaults.userPoolId)
    }

    @Test("Define at each step of srp+captcha+email-code decides as the flow does", arguments: [
        (EventGenerator.Step.password, 0, "next challenge PASSWORD_VERIFIER"),
        (.custom(1), 0, "next challenge CUSTOM_CHALLENGE"),
        (.custom(2), 2, "next challenge CUSTOM_CHALLENGE"),
        (.custom(2), 3, #"fail authentication (too many wrong answers to "EMAIL_CODE")"#),
        (.done, 0, "issue tokens"),
    ])
    func defineSteps(step: EventGenerator.Step, wrong: Int, decision: String) async throws {
        let (generator, configuration) = try Self.generator(flow: "srp+captcha+email-code")
        let generated = try await generator.generate(.define, session: generator.tokens(for: step, wrongAnswers: wrong))
        let invocation = try await InProcessTransport(configuration: configuration).invoke(generated.event.serialized())
        #expect(invocation.summary == decision)
    }

    @Test("a generated Verify is judged correct with the right answer and wrong with another", arguments: ["email-code", "captcha"])
    func verify(flow: String) async throws {
        let (generator, configuration) = try Self.generator(flow: flow)
        let tokens = try generator.tokens(for: .custom(1), wrongAnswers: 1)
        let right = try await generator.generate(.verify, session: tokens)
        let wrong = try await generator.generate(.verify, session: tokens, answer: "not-it")
        #expect(right.rightAnswer != nil)
        // Each answer to a function of its own: in one, the first answer's record would decide the second (a right
        // answer uses the code up; a generated code was never recorded as sent).
        let rightInvocation = try await InProcessTransport(configuration: configuration).invoke(right.event.serialized())
        let wrongInvocation = try await InProcessTransport(configuration: configuration).invoke(wrong.event.serialized())
        #expect(rightInvocation.summary == "answer correct")
        #expect(wrongInvocation.summary == "answer wrong")
    }

    @Test("an explicit session keeps foreign challenges as written")
    func explicitSession() async throws {
        let (generator, _) = try Self.generator(flow: "srp-email-code")
        let tokens = try ["srp", "password", "wrong", "SMS_MFA:false"].map { text in
            try #require(EventGenerator.SessionToken(parsing: text))
        }
        let generated = try await generator.generate(.define, session: tokens)
        guard case .define(let event) = try AuthChallengeEvent(json: generated.event) else {
            Issue.record("not a Define event")
            return
        }
        #expect(event.request.session.map(\.challengeName.rawValue) == ["SRP_A", "PASSWORD_VERIFIER", "CUSTOM_CHALLENGE", "SMS_MFA"])
        #expect(event.request.session[2].challengeMetadata?.hasPrefix("EMAIL_CODE:0:") == true)
        #expect(event.request.session[3].challengeMetadata == nil)
    }

    @Test("in a flow with a choice, the choice's Verify answers the method and step 2 is the chosen step's challenge",
          arguments: [(nil, "EMAIL_CODE"), ("sms-code", "SMS_CODE"), ("SMS-Code", "SMS_CODE")] as [(String?, String)])
    func choiceOfMethod(method: String?, kind: String) async throws {
        let scratch = try ScratchDirectory()
        defer { scratch.remove() }
        let configuration = try LocalConfiguration(
            processEnvironment: ["CHALLENGE_FLOW": "email-or-sms-code", "OUTBOX_PATH": scratch.path("outbox.jsonl")])
        let jane = try #require(LocalUserTable.embedded.user(named: LocalDefaults.userName)).identity
        let generator = try EventGenerator(configuration: configuration, identity: jane, method: method)
        let choice = try await generator.generate(.verify, session: generator.tokens(for: .custom(1), wrongAnswers: 0))
        #expect(choice.rightAnswer == method?.lowercased() ?? "email-code")
        let chose = try await InProcessTransport(configuration: configuration).invoke(choice.event.serialized())
        #expect(chose.summary == "answer correct")

        let create = try await generator.generate(.create, session: generator.tokens(for: .custom(2), wrongAnswers: 0))
        let invoked = try await InProcessTransport(configuration: configuration).invoke(create.event.serialized())
        guard case .response(let bytes) = invoked.outcome, case .create(let created) = try AuthChallengeEvent(parsing: bytes) else {
            Issue.record("the Create after the choice failed: \(invoked.outcome)")
            return
        }
        #expect(created.response.publicChallengeParameters?["challenge"] == kind)
        let code = try await generator.generate(.verify, session: generator.tokens(for: .custom(2), wrongAnswers: 0))
        #expect(try await InProcessTransport(configuration: configuration).invoke(code.event.serialized()).summary == "answer correct")
        let done = try await generator.generate(.define, session: generator.tokens(for: .done, wrongAnswers: 0))
        #expect(try await InProcessTransport(configuration: configuration).invoke(done.event.serialized()).summary == "issue tokens")
    }

    @Test("a method the flow does not offer, or a method for a flow without a choice, is refused", arguments: [
        ("email-or-sms-code", "passkey"), ("email-or-sms-code", "sms"), ("email-code", "email-code"),
    ])
    func invalidMethod(flow: String, method: String) throws {
        let configuration = try LocalConfiguration(processEnvironment: ["CHALLENGE_FLOW": flow, "OUTBOX_PATH": "/dev/null"])
        let jane = try #require(LocalUserTable.embedded.user(named: LocalDefaults.userName)).identity
        #expect(throws: InvokerError.self) { try EventGenerator(configuration: configuration, identity: jane, method: method) }
    }

    @Test("steps the flow does not have are refused")
    func invalidSteps() throws {
        let (generator, _) = try Self.generator(flow: "email-code")
        #expect(throws: InvokerError.self) { try generator.tokens(for: .password, wrongAnswers: 0) }
        #expect(throws: InvokerError.self) { try generator.tokens(for: .custom(2), wrongAnswers: 0) }
    }
}

enum LocalFileBytes {
    static func read(_ path: String) throws -> [UInt8] {
        Array(try Data(contentsOf: URL(fileURLWithPath: path)))
    }
}

import Foundation
