import ChallengeFlows
import CognitoTriggers
import DevelopmentSupport
import Foundation
import Invoker
import LosslessJSON
import ServiceClients
import TestSupport
import Testing

/// The CAPTCHA step-up (`CAPTCHA_STEP_UP_AFTER_FAILURES`): past a number of wrong answers, a CAPTCHA comes before
/// every challenge that proves identity, and a sign-in that passed one has its answers judged even when the failure
/// budget is spent, so that a guesser pays a CAPTCHA for every few guesses and the user is not locked out.
extension SignInLimitsTests {
    /// Step-ups after `after` wrong answers of a budget of 5, the corpus's CAPTCHA catalog, no delays, no fresh budget.
    func stepUpHandler(
        after: Int = 3, _ extra: [String: String] = [:], steps: [any ChallengeStep] = [], store: (any StateStore)? = nil
    ) throws -> CognitoTriggerHandler {
        try handler(
            [
                "CAPTCHA_STEP_UP_AFTER_FAILURES": String(after), "CAPTCHA_CATALOG": CorpusEvent.captchaCatalog, "ALLOW_CAPTCHA_CATALOG": "true",
                "MAX_FAILURES_PER_WINDOW": "5", "FAILURE_DELAY_BASE_SECONDS": "0", "FRESH_CODE_ATTEMPTS": "0",
            ].merging(extra) { $1 }, steps: steps, store: store)
    }

    /// The event Cognito sends next in the sign-in of `create` once its challenge was answered (`passed` or not):
    /// Define's, or the next Create's, with the answered challenge added to the session.
    func next(_ trigger: TriggerSource, after create: CreateAuthChallengeEvent, passed: Bool) throws -> [UInt8] {
        var event = try #require(create.json.objectValue)
        var request = try #require(event["request"]?.objectValue)
        let answered = JSONValue.object(JSONObject([
            ("challengeName", "CUSTOM_CHALLENGE"), ("challengeResult", .bool(passed)),
            ("challengeMetadata", .string(try #require(create.response.challengeMetadata))),
        ]))
        request["session"] = .array((request["session"]?.arrayValue ?? []) + [answered])
        if trigger == .defineAuthChallenge {
            request["challengeName"] = nil
            request["clientMetadata"] = nil
        }
        event["triggerSource"] = .string(trigger.rawValue)
        event["request"] = .object(request)
        event["response"] = [:]
        return JSONValue.object(event).serialized()
    }

    /// The catalog's answer to the CAPTCHA `create` shows.
    func captchaAnswer(_ create: CreateAuthChallengeEvent) throws -> String {
        let image = try #require(create.response.publicChallengeParameters?["captchaUrl"])
        let catalog = try JSONValue(parsing: Array(try Data(contentsOf: URL(fileURLWithPath: CorpusEvent.captchaCatalog))))
        let entry = try #require(catalog.arrayValue?.first { $0.objectValue?["imageURL"]?.stringValue == image })
        return try #require(entry.objectValue?["answer"]?.stringValue)
    }

    /// Three wrong answers to a new sign-in's code: the step-up threshold of ``stepUpHandler(after:_:steps:)``.
    func spendThreeAnswers(_ handler: CognitoTriggerHandler, _ bytes: [UInt8] = create) throws {
        let guessed = try created(handler, bytes)
        let judged = try summaries(handler, guessed, answers: 3)
        #expect(judged.count == 3 && !judged.contains { $0.hasPrefix("answer not judged") }, "\(judged)")
        clock.advance(61)
    }

    @Test("past CAPTCHA_STEP_UP_AFTER_FAILURES wrong answers, a new sign-in gets a CAPTCHA first; passed, the code follows and signs in")
    func stepUpThenTheCode() throws {
        let handler = try stepUpHandler()
        try spendThreeAnswers(handler)
        let sent = delivery.messages.count

        let stepUp = try handler.handle(Self.create)
        guard case .create(let captcha) = stepUp.event else { throw CorpusError(message: "not a Create") }
        #expect(captcha.response.publicChallengeParameters?["challenge"] == "CAPTCHA")
        #expect(stepUp.facts.outcome == .steppedUp)
        #expect(stepUp.summary.contains("CAPTCHA_STEP_UP_AFTER_FAILURES=3"), "\(stepUp.summary)")
        #expect(delivery.messages.count == sent, "no code is sent before the CAPTCHA is passed")

        #expect(try verify(handler, captcha, answer: try captchaAnswer(captcha)))
        guard case .define(let define) = try handler.handle(next(.defineAuthChallenge, after: captcha, passed: true)).event else {
            throw CorpusError(message: "not a Define")
        }
        #expect(define.response.challengeName == .customChallenge && define.response.issueTokens != true,
                "a passed step-up is not a step of the flow: the code is still due")

        let codeResult = try handler.handle(next(.createAuthChallenge, after: captcha, passed: true))
        guard case .create(let code) = codeResult.event else { throw CorpusError(message: "not a Create") }
        #expect(code.response.publicChallengeParameters?["challenge"] == "EMAIL_CODE")
        #expect(code.response.privateChallengeParameters?[IssuedChallenge.passedStepUpParameter] == "true")
        #expect(code.response.publicChallengeParameters?[IssuedChallenge.passedStepUpParameter] == nil)
        #expect(delivery.messages.count == sent + 1)
        #expect(try verify(handler, code, answer: try #require(delivery.messages.last?.code)))
        guard case .define(let done) = try handler.handle(next(.defineAuthChallenge, after: code, passed: true)).event else {
            throw CorpusError(message: "not a Define")
        }
        #expect(done.response.issueTokens == true)
    }

    @Test("after a passed step-up the answers are judged even with MAX_FAILURES_PER_WINDOW spent; without step-ups the right code is refused")
    func stepUpInsteadOfAHardBlock() throws {
        for stepUps in [true, false] {
            let store = MemoryStateStore()
            let handler = try stepUpHandler(after: stepUps ? 3 : 0, store: store)
            try spendThreeAnswers(handler)
            var signIn = try created(handler)
            if stepUps {
                #expect(try verify(handler, signIn, answer: try captchaAnswer(signIn)))
                guard case .create(let code) = try handler.handle(next(.createAuthChallenge, after: signIn, passed: true)).event
                else { throw CorpusError(message: "not a Create") }
                signIn = code
            }
            // Two more wrong answers spend the budget of five; the third answer is the right code.
            #expect(try summaries(handler, signIn, answers: 2) == ["answer wrong", "answer wrong"])
            let right = try verifyResult(handler, signIn, answer: try #require(delivery.messages.last?.code))
            guard case .verify(let verified) = right.event else { throw CorpusError(message: "not a Verify") }
            if stepUps {
                #expect(verified.response.answerCorrect == true, "\(right.summary)")
            } else {
                #expect(verified.response.answerCorrect == false)
                #expect(right.summary.hasPrefix("answer not judged: MAX_FAILURES_PER_WINDOW=5"), "\(right.summary)")
            }
        }
    }

    @Test("an unknown user is stepped up after as many wrong answers, with the same challenge and words")
    func unknownUsersStepUpAlike() throws {
        var seen: [(kind: String?, keys: [String], outcome: TriggerFacts.Outcome?)] = []
        for bytes in [Self.create, Self.createUnknown] {
            let handler = try stepUpHandler(store: MemoryStateStore())
            try spendThreeAnswers(handler, bytes)
            let result = try handler.handle(bytes)
            guard case .create(let event) = result.event else { throw CorpusError(message: "not a Create") }
            let parameters = event.response.publicChallengeParameters ?? [:]
            seen.append((parameters["challenge"], parameters.keys.sorted(), result.facts.outcome))
        }
        #expect(seen[0].kind == "CAPTCHA" && seen[0].outcome == .steppedUp)
        #expect(seen[0].kind == seen[1].kind && seen[0].keys == seen[1].keys && seen[0].outcome == seen[1].outcome)
    }

    @Test("a step-up CAPTCHA answered wrongly counts against MAX_ATTEMPTS: the third wrong one ends the sign-in")
    func wrongStepUpAnswersEndTheSignIn() throws {
        let handler = try stepUpHandler()
        try spendThreeAnswers(handler)
        var signIn = try created(handler)
        for attempt in 1...3 {
            #expect(signIn.response.publicChallengeParameters?["challenge"] == "CAPTCHA")
            #expect(signIn.response.publicChallengeParameters?["attemptsLeft"] == String(4 - attempt))
            #expect(try verify(handler, signIn, answer: "not-the-text") == false)
            guard case .define(let define) = try handler.handle(next(.defineAuthChallenge, after: signIn, passed: false)).event
            else { throw CorpusError(message: "not a Define") }
            #expect(define.response.failAuthentication == (attempt == 3))
            if attempt < 3 {
                guard case .create(let again) = try handler.handle(next(.createAuthChallenge, after: signIn, passed: false)).event
                else { throw CorpusError(message: "not a Create") }
                signIn = again
            }
        }
    }

    @Test("a step that delivers nothing (a TOTP) is stepped up too, from the user's record")
    func identityStepsWithoutDeliveryStepUp() throws {
        let handler = try stepUpHandler(["CHALLENGE_FLOW": "time-code"], steps: [TimeCodeStep()])
        try spendThreeAnswers(handler)
        let signIn = try created(handler)
        #expect(signIn.response.publicChallengeParameters?["challenge"] == "CAPTCHA")
        #expect(try verify(handler, signIn, answer: try captchaAnswer(signIn)))
        guard case .create(let code) = try handler.handle(next(.createAuthChallenge, after: signIn, passed: true)).event else {
            throw CorpusError(message: "not a Create")
        }
        #expect(code.response.publicChallengeParameters?["challenge"] == "TIME_CODE")
        #expect(try verify(handler, code, answer: TimeCodeStep.code(clock.read() / 30)))
    }

    @Test("in captcha-email-code the flow's own CAPTCHA counts as the step-up: no second CAPTCHA, the code is judged past the budget")
    func theFlowsCaptchaIsTheStepUp() throws {
        let handler = try stepUpHandler(after: 1, ["CHALLENGE_FLOW": "captcha-email-code", "MAX_FAILURES_PER_WINDOW": "1"])
        let captchaCreate = try Self.event("captcha-email-code/02-create-captcha.json")
        let first = try created(handler, captchaCreate)
        #expect(try verify(handler, first, answer: try captchaAnswer(first)))
        guard case .create(let code) = try handler.handle(next(.createAuthChallenge, after: first, passed: true)).event else {
            throw CorpusError(message: "not a Create")
        }
        #expect(code.response.publicChallengeParameters?["challenge"] == "EMAIL_CODE")
        #expect(code.response.privateChallengeParameters?[IssuedChallenge.passedStepUpParameter] == "true")
        #expect(try summaries(handler, code, answers: 1) == ["answer wrong"], "the budget of one is spent")
        #expect(try verify(handler, code, answer: try #require(delivery.messages.last?.code)), "judged after the CAPTCHA")
    }

    @Test("below the threshold, or with step-ups off, nothing changes: the code comes first")
    func noStepUpBelowTheThreshold() throws {
        let handler = try stepUpHandler(after: 4)
        try spendThreeAnswers(handler)
        #expect(try created(handler).response.publicChallengeParameters?["challenge"] == "EMAIL_CODE")
    }

    @Test("step-ups need a CAPTCHA to show, a state store, and a threshold within MAX_FAILURES_PER_WINDOW")
    func stepUpSettings() throws {
        func problem(_ environment: [String: String]) -> String? {
            do {
                _ = try handler(environment)
                return nil
            } catch {
                return String(describing: error)
            }
        }
        #expect(problem(["CAPTCHA_STEP_UP_AFTER_FAILURES": "3"])?.hasPrefix("CAPTCHA_PROVIDER") == true)
        #expect(problem(["CAPTCHA_STEP_UP_AFTER_FAILURES": "11", "CAPTCHA_CATALOG": CorpusEvent.captchaCatalog, "ALLOW_CAPTCHA_CATALOG": "true"])?
            .hasPrefix("CAPTCHA_STEP_UP_AFTER_FAILURES") == true)
        #expect(problem(["CAPTCHA_STEP_UP_AFTER_FAILURES": "3", "CAPTCHA_CATALOG": CorpusEvent.captchaCatalog, "ALLOW_CAPTCHA_CATALOG": "true"]) == nil)
        let withoutStore = [
            "CODE_HASH_SECRET": CorpusEvent.secret, "CODE_DELIVERY": "outbox", "CAPTCHA_STEP_UP_AFTER_FAILURES": "3",
            "CAPTCHA_CATALOG": CorpusEvent.captchaCatalog, "ALLOW_CAPTCHA_CATALOG": "true",
        ]
        #expect(throws: ConfigurationError.self) {
            _ = try CognitoTriggerHandler(configuration: TriggerConfiguration(environment: withoutStore))
        }
    }
}
