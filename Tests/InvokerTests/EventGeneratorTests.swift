import CognitoEvents
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
