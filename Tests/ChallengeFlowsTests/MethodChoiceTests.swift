import ChallengeFlows
import Testing

@Suite("Flows with a choice ('|'): a METHOD_CHOICE challenge, then the chosen step")
struct MethodChoiceTests {
    @Test("a choice is written with '|', read back the same way, and asked for by a METHOD_CHOICE step")
    func parsing() throws {
        let flow = try SignInFlow(parsing: "srp + email-code | captcha")
        #expect(flow.description == "srp+email-code|captcha")
        #expect(flow.steps.map(\.kind) == [MethodChoiceStep.kind, .emailCode])
        #expect(flow.steps(at: 1).map(\.name) == ["email-code", "captcha"])
        #expect(flow.allSteps.map(\.kind) == [MethodChoiceStep.kind, .emailCode, .captcha])
        #expect((flow.steps[0] as? MethodChoiceStep)?.methods == ["email-code", "captcha"])
        #expect(flow == (try SignInFlow(parsing: "srp+email-code|captcha")))
        #expect(flow != (try SignInFlow(parsing: "srp+captcha|email-code")))
        #expect(try SignInFlow(parsing: "email-code|captcha+captcha").description == "email-code|captcha+captcha")
        // A choice proves identity only if every choice does.
        #expect((try SignInFlow(parsing: "captcha|email-code")).provesIdentity == false)
        for bad in ["email-code|email-code", "email-code|", "email-code|captcha+email-code|captcha", "email-code|pigeon"] {
            #expect(throws: ConfigurationError.self) { try SignInFlow(parsing: bad) }
        }
    }

    @Test("the choice takes a name that ClientMetadata repeats; the chosen step follows, and stays after a wrong answer")
    func walk() throws {
        let engine = try Fixture.engine("email-code|captcha")
        let choice = try engine.create(try Requests.create([]), user: Fixture.jane, now: Fixture.now)
        #expect(choice.publicParameters["methods"] == "email-code,captcha")
        #expect(choice.delivery == nil)
        let step = try #require(engine.flow.steps[0] as? MethodChoiceStep)
        func expected(_ metadata: [String: String]) throws -> String? {
            step.expectedAnswer(
                publicParameters: choice.publicParameters,
                context: StepContext(
                    user: Fixture.jane, userAttributes: [:], now: Fixture.now, random: SeededRandom(seed: 1),
                    policy: try ChallengePolicy(),
                    clientMetadata: metadata))
        }
        #expect(try expected([:]) == "email-code")
        #expect(try expected(["method": "Captcha"]) == "captcha")
        #expect(try expected(["method": "pigeon"]) == "email-code")
        let chooseCaptcha = try Requests.verify(choice.seal.privateParameters, answer: "CAPTCHA", clientMetadata: ["method": "captcha"])
        #expect(engine.verify(chooseCaptcha, user: Fixture.jane, now: Fixture.now) == .correct)
        let unrepeated = try Requests.verify(choice.seal.privateParameters, answer: "captcha")
        #expect(engine.verify(unrepeated, user: Fixture.jane, now: Fixture.now) == .wrong)

        let chosen = SessionEntry(challengeName: .customChallenge, challengeResult: true, challengeMetadata: choice.seal.metadata)
        #expect(engine.define(try Requests.define([chosen])) == .present(.customChallenge))
        let request = try Requests.create([chosen], clientMetadata: ["method": "captcha"])
        #expect(engine.stepDue(for: request)?.kind == .captcha)
        let captcha = try engine.create(request, user: Fixture.jane, now: Fixture.now)
        #expect(captcha.kind == .captcha)
        #expect(throws: CreateChallengeError.noMethodChosen(offered: ["email-code", "captcha"])) {
            try engine.create(try Requests.create([chosen]), user: Fixture.jane, now: Fixture.now)
        }
        let wrong = SessionEntry(challengeName: .customChallenge, challengeResult: false, challengeMetadata: captcha.seal.metadata)
        let again = try engine.create(
            try Requests.create([chosen, wrong], clientMetadata: ["method": "email-code"]), user: Fixture.jane, now: Fixture.now)
        #expect(again.kind == .captcha)
        let right = SessionEntry(challengeName: .customChallenge, challengeResult: true, challengeMetadata: again.seal.metadata)
        #expect(engine.define(try Requests.define([chosen, wrong, right])) == .issueTokens)
    }
}
