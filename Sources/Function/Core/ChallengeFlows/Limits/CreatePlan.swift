/// What a Create comes to, decided by the pure core from the challenge the engine built and what the limits across
/// sign-ins decided from the user's record (``SendDecision``): the challenge to answer with, the message to deliver
/// or the delivery to imitate, how the invocation ends and the line for the log. The function carries it out:
/// delivers the message (or waits as long as a delivery takes), then answers with ``challenge``.
public struct CreatePlan: Sendable, Equatable {
    /// How a Create ends when its plan is carried out.
    public enum Outcome: Sendable, Equatable {
        /// The message is delivered.
        case sent
        /// An earlier message is still valid and is not sent again.
        case reused
        /// A limit withholds the message: nothing is sent and the challenge never verifies.
        case throttled
        /// An unknown user, or one without a usable address: nothing is sent, the challenge looks like any other.
        case decoy
        /// A challenge that delivers nothing (e.g. a CAPTCHA) is issued.
        case issued
        /// A CAPTCHA comes first (a step-up), in place of the step due; nothing is sent.
        case steppedUp
    }

    /// The challenge to answer Cognito with.
    public let challenge: IssuedChallenge
    /// The message to deliver before answering; nil when nothing is sent.
    public let message: CodeMessage?
    /// When nothing is sent where a real user would have waited for a delivery by this channel: the channel whose
    /// delivery time to take, so that timing tells neither unknown users nor users without the channel apart.
    public let imitatedDelivery: MessageChannel?
    public let outcome: Outcome
    /// One line for the log, safe to keep: never a code, an answer or a whole address.
    public let summary: String
    /// A line for a WARN log, when an operator should hear of it (a user without a usable address).
    public let warning: String?
}

/// What the limits across sign-ins are asked about a challenge Create built.
public enum LimitsQuestion: Sendable, Equatable {
    /// Whether its message may go out (``SignInLimits/sendDecision(_:seal:channel:delivers:admitsStepUp:now:)``),
    /// which also decides a step-up when `admitsStepUp`.
    case send(admitsStepUp: Bool)
    /// Whether a step-up CAPTCHA is due (``SignInLimits/asksForStepUp(_:now:)``), for a step that sends nothing.
    case stepUp
    /// Nothing: the step neither sends a fresh message nor admits a step-up.
    case none
}

extension ChallengeFlowEngine {
    /// What the limits are to decide about `issued`, the challenge built for `request`: the function and the
    /// simulator ask the same question.
    public func limitsQuestion(for issued: IssuedChallenge, request: CreateAuthChallengeRequest) -> LimitsQuestion {
        let admitsStepUp = admitsStepUp(request)
        if step(for: issued.kind)?.deliversAnswer == true, !issued.reusedEarlierCode { return .send(admitsStepUp: admitsStepUp) }
        return admitsStepUp ? .stepUp : .none
    }

    /// The step whose answer the limits decide on (``SignInLimits/answerDecision(_:seal:correct:usedSequence:requiresLiveCode:passedStepUp:now:)``):
    /// one that proves identity or delivers its answer and can be guessed (not a passkey: ``ChallengeStep/resistsGuessing``),
    /// for a seal this flow issued under a key it still has; nil when
    /// the verdict stands as it is.
    public func stepUnderLimits(_ seal: ChallengeSeal?, verdict: Verdict) -> (any ChallengeStep)? {
        guard let seal, let step = step(for: seal.kind), step.provesIdentity || step.deliversAnswer, !step.resistsGuessing,
              verdict.outcome != .notIssuedByThisFlow, verdict.outcome != .retiredKey
        else { return nil }
        return step
    }

    /// The plan for `issued`, the challenge ``create(_:user:now:userRecord:)`` built for `request`, once the limits
    /// decided `decision` (nil: no limits, or none that apply to the step): the earlier code reused, the message
    /// withheld, or the step-up CAPTCHA built in its place. Throws when the step-up CAPTCHA cannot be built.
    public func plan(
        _ issued: IssuedChallenge, after decision: SendDecision?, request: CreateAuthChallengeRequest, user: UserIdentity,
        now: Int64, limits: SignInLimits
    ) throws -> CreatePlan {
        switch decision {
        case nil, .proceed?:
            return plan(issued, userNotFound: request.userNotFound, note: nil)
        case .reuse(let live, let secondsAgo)?:
            return plan(
                reusing(live, for: issued, now: now), userNotFound: request.userNotFound,
                note: "nothing sent again: the message sent \(secondsAgo) s ago is still valid")
        case .throttled?:
            return withholding(
                issued, userNotFound: request.userNotFound,
                note: "nothing sent: the user reached MAX_SENDS_PER_WINDOW=\(limits.maxSendsPerWindow); the challenge will not verify")
        case .stepUp?:
            // The step's challenge is dropped unsent; the step comes again once the CAPTCHA is passed.
            let captcha = try createStepUp(request, user: user, now: now)
            return CreatePlan(
                challenge: captcha, message: nil, imitatedDelivery: nil, outcome: .steppedUp,
                summary: summary(of: captcha, userNotFound: request.userNotFound)
                    + " (step-up: the user reached CAPTCHA_STEP_UP_AFTER_FAILURES=\(limits.captchaStepUpAfterFailures) wrong answers; nothing sent)",
                warning: nil)
        }
    }

    /// The same plan with its message withheld (by a budget `note` names): nothing is sent, the challenge looks the
    /// same and never verifies.
    public func withholding(_ issued: IssuedChallenge, userNotFound: Bool, note: String) -> CreatePlan {
        let withheld = withholding(issued)
        return CreatePlan(
            challenge: withheld, message: nil, imitatedDelivery: withheld.channel ?? .email, outcome: .throttled,
            summary: summary(of: withheld, userNotFound: userNotFound) + " (\(note))", warning: warning(for: withheld))
    }

    private func plan(_ issued: IssuedChallenge, userNotFound: Bool, note: String?) -> CreatePlan {
        let deliversAnswer = step(for: issued.kind)?.deliversAnswer ?? false
        let decoy = deliversAnswer && !issued.reusedEarlierCode && (userNotFound || issued.unusableAddress != nil)
        let outcome: CreatePlan.Outcome =
            if issued.delivery != nil { .sent }
            else if issued.reusedEarlierCode { .reused }
            else if decoy { .decoy }
            else { .issued }
        let summary = summary(of: issued, userNotFound: userNotFound)
        return CreatePlan(
            challenge: issued, message: issued.delivery, imitatedDelivery: decoy ? issued.channel ?? .email : nil,
            outcome: outcome, summary: note.map { "\(summary) (\($0))" } ?? summary, warning: warning(for: issued))
    }

    private func warning(for issued: IssuedChallenge) -> String? {
        issued.unusableAddress.map { "No code was sent because \($0); the user was answered as an unknown user." }
    }

    /// Built as UTF-8 bytes, without interpolation: the line is made on every Create, on the path Cognito waits on, and
    /// a `String` copies itself through a generic path at each `+=`.
    private func summary(of issued: IssuedChallenge, userNotFound: Bool) -> String {
        var line: [UInt8] = []
        line.reserveCapacity(128)
        func add(_ text: String) { line.append(contentsOf: text.utf8) }
        add(issued.kind.rawValue)
        add(" step ")
        add(String(issued.seal.stepIndex + 1))
        add(", ")
        add(issued.publicParameters["attemptsLeft"] ?? "?")
        add(" attempts left, ")
        if step(for: issued.kind)?.deliversAnswer != true {
            add(issued.kind == .captcha ? "CAPTCHA issued" : "challenge issued")
        } else if issued.reusedEarlierCode {
            add("earlier message still valid (not sent again)")
        } else if userNotFound || issued.unusableAddress != nil {
            add("unknown user or no usable address: nothing sent")
        } else if let message = issued.delivery {
            add(message.link == nil ? "code sent by " : "sign-in link sent by ")
            add(message.channel.rawValue)
            add(" to ")
            add(message.maskedRecipient)
        } else {
            add("nothing sent")
        }
        return String(decoding: line, as: UTF8.self)
    }
}
