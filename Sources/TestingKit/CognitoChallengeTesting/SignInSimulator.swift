import ChallengeCrypto
import ChallengeFlows
import CognitoTriggers
import Platform

/// Drives a flow the way Cognito drives the three triggers, so that steps (built-in or your own) can be tested as
/// they will run: Define; for each custom challenge Create (retried as often as ``createCallsPerChallenge`` says)
/// and Verify; each answered challenge appended to the session with its `challengeMetadata`; SRP_A and
/// PASSWORD_VERIFIER entries for flows that start with SRP; until Define issues tokens or fails.
///
/// Time is simulated: it starts at ``now`` and moves on by ``secondsPerCall`` after every call, and by an answer's
/// own delay, so that expiry can be tested without waiting. With ``limits`` set, the limits across sign-ins are
/// simulated too, by the same decisions the function makes, from a record of the user kept across the simulator's
/// sign-ins (``limitsRecord``): a retried Create gets the same code, the send throttle withholds messages, the
/// failure budget and the delays refuse answers unjudged, and step-ups put a CAPTCHA first. Usable from XCTest and
/// Swift Testing alike.
public struct SignInSimulator {
    /// The decisions being driven.
    public let engine: ChallengeFlowEngine
    /// Whom the sign-in is for.
    public var user: UserIdentity
    /// The user's attributes, as Cognito would send them (an unknown user gets none, whatever is set here).
    public var userAttributes: [String: String]
    /// True to sign in as a user Cognito does not know (the pool's "prevent user existence errors" setting makes it
    /// call the triggers anyway).
    public var userNotFound = false
    /// What the app passes as `ClientMetadata` with each answer, and so to Create and Verify (e.g. `["method": "sms-code"]`).
    public var clientMetadata: [String: String] = [:]
    /// Whether the password is right, for flows that start with SRP.
    public var passwordIsRight = true
    /// Seconds that pass between one trigger call and the next.
    public var secondsPerCall: Int64 = 5
    /// How many times Cognito calls Create for each challenge (more than 1 simulates retries after a timeout); the
    /// last response is the one used.
    public var createCallsPerChallenge = 1
    /// The simulated time, in Unix seconds.
    public var now: Int64
    /// The limits across sign-ins to simulate; nil (the default for a flow) simulates none, as a function without
    /// `STATE_STORE`. The pool's budgets are not simulated: a simulator signs one user in.
    public var limits: SignInLimits?
    /// The user's record of the limits, as the function's state store would hold it after the sign-ins so far.
    public private(set) var limitsRecord: StateRecord?

    /// The session as Cognito keeps it.
    public private(set) var session: [SessionEntry] = []
    /// Every call so far, in order.
    public private(set) var transcript: [SimulatedCall] = []
    /// Every challenge Create built (retries included), with its public parameters.
    public private(set) var challenges: [IssuedChallenge] = []
    /// Every message Create handed over for delivery.
    public private(set) var delivered: [CodeMessage] = []
    /// How the last sign-in ended; nil before one has.
    public private(set) var outcome: SignInOutcome?

    /// The most Define calls one sign-in may take.
    public static let maximumDefineCalls = 64

    /// A simulator for `engine`.
    public init(
        engine: ChallengeFlowEngine, user: UserIdentity = SignInSimulator.defaultUser,
        userAttributes: [String: String] = SignInSimulator.defaultAttributes, now: Int64 = 1_700_000_000
    ) {
        self.engine = engine
        self.user = user
        self.userAttributes = userAttributes
        self.now = now
    }

    /// A simulator for a flow of built-in steps and `steps` of your own, sealed with a fixed test secret.
    ///
    /// - Parameters:
    ///   - flow: as `CHALLENGE_FLOW` would be written, e.g. `"srp+totp"`.
    ///   - steps: steps of your own that `flow` may name.
    ///   - registry: the built-in steps, configured as the flow needs them (e.g. a CAPTCHA catalog).
    ///   - policy: code length, attempts and validity; the defaults when nil.
    ///   - random: where codes and picks come from; inject a seeded source for repeatable runs.
    ///   - user: whom the sign-in is for.
    ///   - userAttributes: the user's attributes, as Cognito would send them.
    ///   - now: the simulated time at the start, in Unix seconds.
    public init(
        flow: String, steps: [any ChallengeStep] = [], registry: StepRegistry = .builtIn(), policy: ChallengePolicy? = nil,
        random: any RandomSource = SystemRandom(), user: UserIdentity = SignInSimulator.defaultUser,
        userAttributes: [String: String] = SignInSimulator.defaultAttributes, now: Int64 = 1_700_000_000
    ) throws(ConfigurationError) {
        let parsed = try SignInFlow(parsing: flow, registry: registry.adding(steps))
        let limits: ChallengePolicy
        if let policy { limits = policy } else { limits = try ChallengePolicy() }
        let engine = try ChallengeFlowEngine(flow: parsed, policy: limits, secret: Self.testSecret, random: random)
        self.init(engine: engine, user: user, userAttributes: userAttributes, now: now)
    }

    /// A simulator for the engine a trigger configuration describes (`CHALLENGE_FLOW`, its steps and policy), with
    /// its limits across sign-ins when it names a `STATE_STORE`.
    public init(
        configuration: TriggerConfiguration, user: UserIdentity = SignInSimulator.defaultUser,
        userAttributes: [String: String] = SignInSimulator.defaultAttributes, now: Int64 = 1_700_000_000
    ) throws(ConfigurationError) {
        self.init(engine: try configuration.makeEngine(), user: user, userAttributes: userAttributes, now: now)
        if configuration.stateStore.backend != .none { limits = configuration.limits }
    }

    /// `jane` in the pool `us-east-1_EXAMPLE`.
    public static let defaultUser = UserIdentity(userPoolId: "us-east-1_EXAMPLE", userName: "jane")
    /// A verified address for `jane`.
    public static let defaultAttributes = ["sub": "5f1c7e2a", "email": "jane.doe@example.com", "email_verified": "true"]
    /// The secret test simulators seal with: for tests only.
    public static let testSecret = Array("cognito-challenge-testing/simulator-secret/0123456789".utf8)

    /// The public parameters of every challenge Create built, in order.
    public var publicParameters: [[String: String]] { challenges.map(\.publicParameters) }

    /// Signs in from a fresh session, giving `answers` in turn to the custom challenges; returns how it ended.
    ///
    /// Throws ``SimulationError`` when the answers run out before the sign-in ends, and whatever Create throws.
    @discardableResult
    public mutating func signIn(answers: [SimulatedAnswer]) throws -> SignInOutcome {
        // A client that uses SRP starts with SRP_A; Cognito records it before the first Define.
        session = engine.flow.startsWithPassword ? [SessionEntry(challengeName: .srpA, challengeResult: true)] : []
        outcome = nil
        var remaining = answers[...]
        for _ in 0..<Self.maximumDefineCalls {
            let decision = engine.define(
                try SimulatedRequests.define(session: session, attributes: attributes, userNotFound: userNotFound))
            record(.define(decision))
            switch decision {
            case .issueTokens:
                outcome = .signedIn
                return .signedIn
            case .fail(let failure):
                outcome = .failed(failure)
                return .failed(failure)
            case .present(.passwordVerifier):
                // Cognito checks the password itself; no trigger is called for it.
                session.append(SessionEntry(challengeName: .passwordVerifier, challengeResult: passwordIsRight))
                record(.passwordVerifier(correct: passwordIsRight))
            case .present:
                guard let answer = remaining.popFirst() else {
                    throw SimulationError.noAnswerLeft(answered: answers.count)
                }
                try answerCustomChallenge(answer)
            }
        }
        throw SimulationError.tooManyCalls(Self.maximumDefineCalls)
    }

    /// The attributes Cognito sends: none for an unknown user.
    private var attributes: [String: String] { userNotFound ? [:] : userAttributes }

    private mutating func answerCustomChallenge(_ answer: SimulatedAnswer) throws {
        var issued: IssuedChallenge?
        for _ in 0..<max(1, createCallsPerChallenge) {
            let request = try SimulatedRequests.create(
                session: session, attributes: attributes, userNotFound: userNotFound, clientMetadata: clientMetadata)
            let made = try withinLimits(try engine.create(request, user: user, now: now), request: request)
            if let message = made.delivery { delivered.append(message) }
            challenges.append(made)
            record(.create(made.kind, sent: made.delivery != nil))
            issued = made
        }
        guard let issued else { return }
        now += answer.delaySeconds
        let typed = typedAnswer(answer.choice, to: issued)
        let request = try SimulatedRequests.verify(
            privateParameters: issued.response.privateChallengeParameters ?? [:], answer: typed, attributes: attributes,
            userNotFound: userNotFound, clientMetadata: clientMetadata)
        let outcome = withinLimits(engine.verdict(on: request, user: user, now: now), to: issued, request: request)
        record(.verify(outcome))
        session.append(
            SessionEntry(
                challengeName: .customChallenge, challengeResult: outcome.isCorrect, challengeMetadata: issued.seal.metadata))
    }

    /// The user's record of the limits as the store would give it now: nil once it expired.
    private var liveLimitsRecord: StateRecord? {
        limitsRecord.flatMap { $0.isExpired(at: now) ? nil : $0 }
    }

    /// The challenge Create returns once the limits decided on `made`, by the plan the function's Create carries out:
    /// the code sent, an earlier one reused, the message withheld, or a step-up CAPTCHA in its place.
    private mutating func withinLimits(_ made: IssuedChallenge, request: CreateAuthChallengeRequest) throws -> IssuedChallenge {
        guard let limits else { return made }
        var decision: SendDecision?
        switch engine.limitsQuestion(for: made, request: request) {
        case .send(let admitsStepUp):
            let changed: StateRecord?
            (decision, changed) = limits.sendDecision(
                liveLimitsRecord, seal: made.seal, channel: made.channel, delivers: made.delivery != nil,
                admitsStepUp: admitsStepUp, now: now)
            if let changed { limitsRecord = changed }
        case .stepUp:
            if limits.asksForStepUp(liveLimitsRecord, now: now) { decision = .stepUp }
        case .none:
            break
        }
        return try engine.plan(made, after: decision, request: request, user: user, now: now, limits: limits).challenge
    }

    /// What an answer to `issued` counts as once the limits decided on `verdict`, as the function's Verify concludes:
    /// the verdict when the answer was judged, else refused with the limit's words.
    private mutating func withinLimits(
        _ verdict: Verdict, to issued: IssuedChallenge, request: VerifyAuthChallengeResponseRequest
    ) -> VerifyOutcome {
        guard let limits, let step = engine.stepUnderLimits(issued.seal, verdict: verdict) else { return verdict.outcome }
        let (decision, changed) = limits.answerDecision(
            liveLimitsRecord, seal: issued.seal, correct: verdict.outcome.isCorrect, usedSequence: verdict.usedSequence,
            requiresLiveCode: step.deliversAnswer,
            passedStepUp: request.privateChallengeParameters[IssuedChallenge.passedStepUpParameter] == "true", now: now)
        if let changed { limitsRecord = changed }
        if decision == .accepted || decision == .rejected { return verdict.outcome }
        return .refused(VerifyConclusion(verdict, after: decision, limits: limits).summary)
    }

    /// The right answer to `issued`: the step's own, or else the last code delivered in this simulation.
    public func rightAnswer(to issued: IssuedChallenge) -> String? {
        let step = engine.step(for: issued.kind) ?? engine.flow.steps[issued.seal.stepIndex]
        let context = StepContext(
            user: user, userAttributes: attributes, userNotFound: userNotFound, now: now, random: SystemRandom(),
            policy: engine.policy,
            stepIndex: issued.seal.stepIndex, attempt: nil, seal: issued.seal, clientMetadata: clientMetadata)
        return step.expectedAnswer(publicParameters: issued.publicParameters, context: context) ?? delivered.last?.code
    }

    private func typedAnswer(_ choice: SimulatedAnswer.Choice, to issued: IssuedChallenge) -> String {
        let right = rightAnswer(to: issued) ?? "000000"
        switch choice {
        case .right: return right
        case .typed(let text): return text
        case .wrong:
            guard !right.isEmpty, right.allSatisfy(\.isASCII), right.allSatisfy(\.isNumber) else { return "nope" }
            return String(right.map { $0 == "9" ? "0" : Character(String(($0.wholeNumberValue ?? 0) + 1)) })
        }
    }

    private mutating func record(_ call: SimulatedCall) {
        transcript.append(call)
        now += secondsPerCall
    }
}
