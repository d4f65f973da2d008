import ChallengeFlows
import CognitoChallengeTesting
import CognitoTriggers
import DevelopmentSupport
import Invoker
import LosslessJSON
import TestSupport
import Testing

/// The testing kit's simulator applies the limits across sign-ins as the function does: the same sign-ins, walked
/// through `SignInSimulator` and through the trigger handler (memory store, the same clock), give the same calls —
/// which challenge each Create built and whether it sent a message, and whether each answer was right, wrong or
/// refused unjudged.
extension SignInLimitsTests {
    /// A sign-in of the scenario: its answers, and how many times Cognito calls Create per challenge.
    struct ScriptedSignIn: Sendable, CustomStringConvertible {
        var answers: [SimulatedAnswer]
        var createCalls = 1
        /// Seconds before this sign-in starts.
        var pause: Int64 = 61

        var description: String { "\(answers.map(\.choice)) ×\(createCalls)" }
    }

    static let limitScenarios: [(name: String, settings: [String: String], signIns: [ScriptedSignIn])] = [
        ("a retried Create reuses the code", [:], [
            ScriptedSignIn(answers: [.right], createCalls: 3),
            ScriptedSignIn(answers: [.wrong, .right], createCalls: 2, pause: 5),
        ]),
        ("the send throttle", ["MAX_SENDS_PER_WINDOW": "2", "RESEND_AFTER_SECONDS": "0"], [
            ScriptedSignIn(answers: [.right]), ScriptedSignIn(answers: [.right]), ScriptedSignIn(answers: [.right, .right, .right]),
        ]),
        ("the failure budget", ["MAX_FAILURES_PER_WINDOW": "4", "FAILURE_DELAY_BASE_SECONDS": "0", "FRESH_CODE_ATTEMPTS": "0"], [
            ScriptedSignIn(answers: [.wrong, .wrong, .wrong]), ScriptedSignIn(answers: [.wrong, .right, .right]),
        ]),
        ("rising delays and a fresh budget for a new code", ["MAX_FAILURES_PER_WINDOW": "4"], [
            ScriptedSignIn(answers: [.wrong, .wrong, .wrong]),
            ScriptedSignIn(answers: [.wrong, .wrong, .right.after(seconds: 3)], pause: 5),
            ScriptedSignIn(answers: [.wrong, .right.after(seconds: 10)], pause: 120),
        ]),
        ("a step-up CAPTCHA", ["CAPTCHA_STEP_UP_AFTER_FAILURES": "2", "FAILURE_DELAY_BASE_SECONDS": "0"], [
            ScriptedSignIn(answers: [.wrong, .wrong, .wrong]), ScriptedSignIn(answers: [.wrong, .right, .right]),
        ]),
    ]

    @Test("SignInSimulator applies the limits across sign-ins as the trigger handler does", arguments: limitScenarios.indices)
    func simulatorAppliesTheLimits(scenario: Int) throws {
        let (name, settings, signIns) = Self.limitScenarios[scenario]
        let environment = [
            "CODE_HASH_SECRET": CorpusEvent.secret, "CODE_DELIVERY": "outbox", "STATE_STORE": "memory",
            "CAPTCHA_CATALOG": CorpusEvent.captchaCatalog, "ALLOW_CAPTCHA_CATALOG": "true",
        ].merging(settings) { $1 }
        let configuration = try TriggerConfiguration(environment: environment)
        var simulator = try SignInSimulator(configuration: configuration, now: clock.read())
        #expect(simulator.limits != nil, "a configuration with a STATE_STORE simulates its limits")
        let handler = try handler(settings.merging(["CAPTCHA_CATALOG": CorpusEvent.captchaCatalog, "ALLOW_CAPTCHA_CATALOG": "true"]) { $1 })
        var simulated: [String] = []
        var walked: [String] = []
        for signIn in signIns {
            simulator.now += signIn.pause
            clock.advance(signIn.pause)
            simulator.createCallsPerChallenge = signIn.createCalls
            let start = simulator.transcript.count
            do {
                try simulator.signIn(answers: signIn.answers)
            } catch SimulationError.noAnswerLeft {}
            simulated += simulator.transcript[start...].map(Self.token)
            walked += try walk(handler, signIn, secondsPerCall: simulator.secondsPerCall)
        }
        #expect(simulated == walked, "\(name): simulator \(simulated), handler \(walked)")
        #expect(simulated.contains { $0.hasPrefix("verify refused") || $0.hasSuffix("not sent") } || name.hasPrefix("a retried"),
                "\(name): the limits changed something")
    }

    /// A call of the simulator's transcript as a token the handler's walk also yields.
    static func token(_ call: SimulatedCall) -> String {
        switch call {
        case .define(.issueTokens): "define tokens"
        case .define(.fail): "define fail"
        case .define(.present): "define challenge"
        case .passwordVerifier: "password"
        case .create(let kind, let sent): "create \(kind.rawValue) \(sent ? "sent" : "not sent")"
        case .verify(let outcome):
            if outcome.isCorrect { "verify right" } else if case .refused = outcome { "verify refused" } else { "verify wrong" }
        }
    }

    /// One sign-in through the handler the way the simulator walks it: Define, Create (as many times as Cognito
    /// calls it), the answer after its delay, Verify; `secondsPerCall` after every call.
    func walk(_ handler: CognitoTriggerHandler, _ signIn: ScriptedSignIn, secondsPerCall: Int64) throws -> [String] {
        var tokens: [String] = []
        var session: [JSONValue] = []
        var answers = signIn.answers[...]
        func event(_ name: String, _ trigger: TriggerSource) throws -> [UInt8] {
            var event = try #require(try JSONValue(parsing: try Self.event(name)).objectValue)
            var request = try #require(event["request"]?.objectValue)
            request["session"] = .array(session)
            event["request"] = .object(request)
            event["triggerSource"] = .string(trigger.rawValue)
            return JSONValue.object(event).serialized()
        }
        while true {
            guard case .define(let define) = try handler.handle(try event("email-code/01-define-start.json", .defineAuthChallenge)).event
            else { throw CorpusError(message: "not a Define") }
            clock.advance(secondsPerCall)
            if define.response.issueTokens == true { return tokens + ["define tokens"] }
            if define.response.failAuthentication == true { return tokens + ["define fail"] }
            tokens.append("define challenge")
            guard let answer = answers.popFirst() else { return tokens }
            var challenge: CreateAuthChallengeEvent?
            for _ in 0..<signIn.createCalls {
                let sent = delivery.messages.count
                guard case .create(let created) = try handler.handle(try event("email-code/02-create-code.json", .createAuthChallenge)).event
                else { throw CorpusError(message: "not a Create") }
                let kind = created.response.publicChallengeParameters?["challenge"] ?? "?"
                tokens.append("create \(kind) \(delivery.messages.count > sent ? "sent" : "not sent")")
                clock.advance(secondsPerCall)
                challenge = created
            }
            let created = try #require(challenge)
            clock.advance(answer.delaySeconds)
            let right = created.response.publicChallengeParameters?["challenge"] == "CAPTCHA"
                ? try captchaAnswer(created) : delivery.messages.last?.code ?? "000000"
            let typed = switch answer.choice {
            case .right: right
            case .wrong: Self.wrong
            case .typed(let text): text
            }
            let result = try verifyResult(handler, created, answer: typed)
            guard case .verify(let verified) = result.event else { throw CorpusError(message: "not a Verify") }
            let correct = verified.response.answerCorrect == true
            let refused = result.summary.hasPrefix("answer not judged") || result.summary.hasPrefix("answer rejected: it was accepted before")
            tokens.append(correct ? "verify right" : refused ? "verify refused" : "verify wrong")
            clock.advance(secondsPerCall)
            session.append(SessionEntry(
                challengeName: .customChallenge, challengeResult: correct, challengeMetadata: created.response.challengeMetadata).json)
        }
    }
}
