import ChallengeCrypto
import ChallengeFlows
import Testing

/// The plans the pure core makes of a Create and a Verify once the limits decided: what the function then carries out.
@Suite("Create plans and Verify conclusions")
struct PlanTests {
    static let limits = SignInLimits()

    func engineWithStepUp() throws -> ChallengeFlowEngine {
        try ChallengeFlowEngine(
            flow: SignInFlow(parsing: "email-code", registry: .builtIn(captchas: Fixture.captchas)),
            policy: ChallengePolicy(), keys: ChallengeKeys(current: Fixture.secret), random: SeededRandom(seed: 7),
            stepUp: CaptchaStep(source: .catalog(Fixture.captchas)))
    }

    @Test("each send decision becomes its plan: send, reuse, withhold (imitating the delivery), or a CAPTCHA first")
    func createPlans() throws {
        let engine = try engineWithStepUp()
        let request = try Requests.create([])
        let issued = try engine.create(request, user: Fixture.jane, now: Fixture.now)
        let message = try #require(issued.delivery)

        let sent = try engine.plan(issued, after: .proceed, request: request, user: Fixture.jane, now: Fixture.now, limits: Self.limits)
        #expect(sent.outcome == .sent && sent.message == message && sent.imitatedDelivery == nil)
        #expect(!sent.summary.contains(message.code), "the log line never holds the code")

        let earlier = try engine.create(request, user: Fixture.jane, now: Fixture.now - 30)
        let reused = try engine.plan(
            issued, after: .reuse(earlier.seal, secondsAgo: 30), request: request, user: Fixture.jane, now: Fixture.now,
            limits: Self.limits)
        #expect(reused.outcome == .reused && reused.message == nil && reused.challenge.seal == earlier.seal)
        #expect(reused.summary.hasSuffix("(nothing sent again: the message sent 30 s ago is still valid)"))

        let throttled = try engine.plan(issued, after: .throttled, request: request, user: Fixture.jane, now: Fixture.now, limits: Self.limits)
        #expect(throttled.outcome == .throttled && throttled.message == nil && throttled.imitatedDelivery == .email)
        #expect(throttled.challenge.publicParameters == issued.publicParameters, "a withheld challenge looks the same")

        let steppedUp = try engine.plan(issued, after: .stepUp, request: request, user: Fixture.jane, now: Fixture.now, limits: Self.limits)
        #expect(steppedUp.outcome == .steppedUp && steppedUp.message == nil && steppedUp.challenge.kind == .captcha)
        #expect(steppedUp.challenge.seal.stepIndex == 0, "in the place of the step due")
    }

    @Test("an unknown user's plan sends nothing and imitates the delivery, in the same words as a user without an address")
    func decoyPlans() throws {
        let engine = try engineWithStepUp()
        let request = try Requests.create([], userNotFound: true)
        let plan = try engine.plan(
            try engine.create(request, user: Fixture.jane, now: Fixture.now), after: .proceed, request: request,
            user: Fixture.jane, now: Fixture.now, limits: Self.limits)
        #expect(plan.outcome == .decoy && plan.message == nil && plan.imitatedDelivery == .email)
        #expect(plan.summary.hasSuffix("unknown user or no usable address: nothing sent"))
    }

    @Test("a Verify's conclusion: the verdict when judged, else refused unjudged in the words of the limit")
    func verifyConclusions() {
        let right = Verdict(.correct)
        #expect(VerifyConclusion(right, after: .accepted, limits: Self.limits) == VerifyConclusion(right))
        #expect(VerifyConclusion(right, after: .accepted, limits: Self.limits).correct)
        let refusals: [(AnswerDecision, VerifyConclusion.Outcome)] = [
            (.failureBudgetSpent, .budgetExhausted), (.notTheLiveCode, .notLiveCode), (.replayed, .replayed),
            (.tooEarly(secondsLeft: 4), .tooEarly),
        ]
        for (decision, outcome) in refusals {
            let conclusion = VerifyConclusion(right, after: decision, limits: Self.limits)
            #expect(!conclusion.correct && conclusion.outcome == outcome, "\(decision)")
        }
        #expect(VerifyConclusion(Verdict(.unusableAddress(.noEmail))).warning != nil)
        #expect(!VerifyConclusion.poolFailuresSpent(Self.limits).correct)
    }
}
