import DevelopmentSupport
import Invoker
import ChallengeFlows
import CognitoChallengeTesting
import CognitoTriggers
import Foundation
import LosslessJSON
import TestSupport
import Testing

/// The testing kit's simulator makes the decisions the real handler makes: every session it builds on the way
/// through a flow, sent to the handler as a Define event of the corpus's shape, gets the decision the simulator took,
/// with the corpus's configuration of each flow.
@Suite("SignInSimulator agrees with the trigger handler")
struct SimulatorAgreementTests {
    static let flows = ["email-code", "srp-email-code", "captcha-email-code", "sms-code", "email-or-sms-code", "magic-link"]
    static let scripts: [[SimulatedAnswer]] = [
        [.right, .right], [.wrong, .right, .right], [.wrong, .wrong, .wrong], [.right, .wrong, .wrong, .wrong],
        [SimulatedAnswer.right.after(seconds: 400), .right],
    ]
    static let attributes = [
        "sub": "5f1c7e2a-3b4d-4e6f-8a9b-0c1d2e3f4a5b", "email": "jane.doe@example.com", "email_verified": "true",
        "phone_number": "+15555550100", "phone_number_verified": "true",
    ]

    @Test(arguments: flows)
    func everyDefineDecisionMatches(flow: String) throws {
        let environment = CorpusEvent(name: flow, bytes: [], expectation: JSONObject([("flow", .string(flow))]))
            .environment(outbox: "/dev/null", cognito: CorpusEvent.cognito?.endpoint)
            .merging(["MAGIC_LINK_URL": "https://app.example.com/sign-in#token={token}"]) { $1 }
        let configuration = try TriggerConfiguration(environment: environment)
        var compared = 0
        for (userNotFound, script) in [false, true].flatMap({ unknown in Self.scripts.map { (unknown, $0) } }) {
            var simulator = try SignInSimulator(
                configuration: configuration, user: UserIdentity(userPoolId: "us-east-1_EXAMPLE", userName: "jane"),
                userAttributes: Self.attributes, now: CorpusEvent.now)
            simulator.userNotFound = userNotFound
            // A flow with a choice (email-or-sms-code): the app chooses its last method, with the answer and as
            // ClientMetadata method.
            if let offered = configuration.flow.choices.values.first?.last {
                simulator.clientMetadata = [MethodChoiceStep.metadataKey: offered.name]
            }
            do {
                try simulator.signIn(answers: script)
            } catch SimulationError.noAnswerLeft {
                continue
            }
            let handler = try CognitoTriggerHandler(configuration: configuration, delivery: RecordingDelivery())
            let decisions = simulator.transcript.compactMap { call -> ChallengeFlows.DefineDecision? in
                if case .define(let decision) = call { return decision } else { return nil }
            }
            let initial = flow.hasPrefix("srp") ? 1 : 0
            #expect(initial + decisions.count - 1 == simulator.session.count, "one session entry between Define calls")
            for (index, decision) in decisions.enumerated() {
                let session = Array(simulator.session.prefix(initial + index))
                let answered = try handler.handle(try Self.defineEvent(session: session, userNotFound: userNotFound)).event
                guard case .define(let define) = answered else {
                    Issue.record("not a Define answer")
                    continue
                }
                compared += 1
                #expect(
                    define.response == decision.response,
                    "\(flow), script \(script.map(\.choice)), unknown \(userNotFound), Define \(index + 1): handler \(define.response), simulator \(decision)")
            }
            #expect((decisions.last == ChallengeFlows.DefineDecision.issueTokens) == (simulator.outcome == SignInOutcome.signedIn))
        }
        #expect(compared >= 2 * Self.scripts.count * 2, "every script walked for real and unknown users")
    }

    /// The events of the corpus that a trigger answers (not the passkey API's, not those that must fail).
    static let triggerEvents = ((try? CorpusEvent.all()) ?? []).filter {
        !$0.isHTTPAPIEvent && $0.expectation["error"] == nil
    }

    /// Every event of Events/, answered by the trigger handler and decided by the simulator's engine (with the
    /// simulator's limits where the event's settings name a store): Define the same response, Create the same
    /// kind of challenge with the same public parameters (values that are drawn at random aside) and the same
    /// delivery or none, Verify the same verdict.
    @Test(arguments: triggerEvents)
    func simulatorAgreesOnTheCorpus(_ event: CorpusEvent) throws {
        let configuration = try TriggerConfiguration(
            environment: event.environment(outbox: "/dev/null", cognito: CorpusEvent.cognito?.endpoint))
        let delivery = RecordingDelivery()
        let handler = try CognitoTriggerHandler(configuration: configuration, delivery: delivery, clock: { CorpusEvent.now })
        let simulator = try SignInSimulator(configuration: configuration, now: CorpusEvent.now)
        #expect((simulator.limits != nil) == (configuration.stateStore.backend != .none))
        let answered = try handler.handle(event.bytes).event
        let user = UserIdentity(userPoolId: answered.header.userPoolId ?? "", userName: answered.header.userName)
        switch answered {
        case .define(let define):
            #expect(simulator.engine.define(define.request).response == define.response, "\(event.name)")
        case .create(let create):
            let issued = try simulator.engine.create(create.request, user: user, now: CorpusEvent.now)
            let parameters = create.response.publicChallengeParameters ?? [:]
            #expect(issued.publicParameters.keys.sorted() == parameters.keys.sorted(), "\(event.name)")
            for key in ["challenge", "attemptsLeft", "destination", "codeLength", "expiresInSeconds", "methods"] {
                #expect(issued.publicParameters[key] == parameters[key], "\(event.name): \(key)")
            }
            #expect((issued.delivery != nil) == !delivery.messages.isEmpty, "\(event.name)")
        case .verify(let verify):
            let step = simulator.engine.step(for: ChallengeSeal(privateParameters: verify.request.privateChallengeParameters)?.kind ?? .emailCode)
            // A provider's widget token is checked by siteverify, and a step that keeps a record per user (a
            // passkey) judges from that record: the engine alone cannot judge either.
            guard configuration.captchaProvider == nil, step?.keepsUserRecord != true else { return }
            let verdict = simulator.engine.verdict(on: verify.request, user: user, now: CorpusEvent.now)
            #expect(verdict.outcome.isCorrect == (verify.response.answerCorrect == true), "\(event.name): \(verdict.outcome)")
        }
    }

    /// The corpus's first Define for jane with `session`.
    static func defineEvent(session: [SessionEntry], userNotFound: Bool) throws -> [UInt8] {
        let bytes = Array(try Data(contentsOf: CorpusEvent.eventsDirectory.appendingPathComponent("email-code/01-define-start.json")))
        var event = try #require(try JSONValue(parsing: bytes).objectValue)
        var request = try #require(event["request"]?.objectValue)
        request["session"] = .array(session.map(\.json))
        request["userNotFound"] = .bool(userNotFound)
        if userNotFound { request["userAttributes"] = [:] }
        event["request"] = .object(request)
        return JSONValue.object(event).serialized()
    }
}
