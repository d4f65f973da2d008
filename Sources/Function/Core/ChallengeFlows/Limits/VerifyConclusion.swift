/// What a Verify comes to, decided by the pure core from the verdict on the answer and what the limits across
/// sign-ins decided from the user's record (``AnswerDecision``): whether the answer counts as right, how the
/// invocation ended, the line for the log and any warning.
public struct VerifyConclusion: Sendable, Equatable {
    /// How a Verify ended.
    public enum Outcome: Sendable, Equatable {
        case correct
        case wrong
        case expired
        /// An unknown user, or an answer to a code never sent (no usable address): never right.
        case decoy
        /// Rejected whatever the answer: parameters not issued by this flow, a retired key, a refused step.
        case refused
        /// Not judged: the user's, or the pool's, failure budget is spent.
        case budgetExhausted
        /// Not judged: the code is not the user's live one (never sent, replaced, or already used).
        case notLiveCode
        /// A right answer that was already used.
        case replayed
        /// Not judged: too soon after the user's last wrong answer.
        case tooEarly
        /// A CAPTCHA provider rejected the widget's token.
        case captchaRejected
    }

    /// True when the answer counts as right.
    public let correct: Bool
    public let outcome: Outcome
    /// One line for the log: never the answer or the code.
    public let summary: String
    /// A line for a WARN log, when an operator should hear of it.
    public let warning: String?

    public init(correct: Bool, outcome: Outcome, summary: String, warning: String? = nil) {
        self.correct = correct
        self.outcome = outcome
        self.summary = summary
        self.warning = warning
    }

    /// The verdict as it stands (no limits apply to the step, or they judged the answer); `note`, if any, is added to
    /// the summary.
    public init(_ verdict: Verdict, note: String? = nil) {
        let outcome = verdict.outcome
        let summary = note.map { "\(outcome.description) (\($0))" } ?? outcome.description
        switch outcome {
        case .correct: self.init(correct: true, outcome: .correct, summary: summary)
        case .wrong: self.init(correct: false, outcome: .wrong, summary: summary)
        case .expired: self.init(correct: false, outcome: .expired, summary: summary)
        case .unknownUser: self.init(correct: false, outcome: .decoy, summary: summary)
        case .unusableAddress(let problem):
            self.init(
                correct: false, outcome: .decoy, summary: summary,
                warning: "The answer was rejected because \(problem) and no code was sent.")
        case .refused(let reason):
            self.init(
                correct: false, outcome: .refused, summary: summary,
                warning: "The answer was rejected whatever it was: \(reason).")
        case .notIssuedByThisFlow, .retiredKey: self.init(correct: false, outcome: .refused, summary: summary)
        }
    }

    /// The verdict once the limits decided `decision` on it: judged (``AnswerDecision/accepted`` or
    /// ``AnswerDecision/rejected``), or refused unjudged with the limit that refused it.
    public init(_ verdict: Verdict, note: String? = nil, after decision: AnswerDecision, limits: SignInLimits) {
        switch decision {
        case .accepted, .rejected:
            let judged = VerifyConclusion(verdict, note: note)
            self.init(
                correct: decision == .accepted, outcome: judged.outcome, summary: judged.summary, warning: judged.warning)
        case .failureBudgetSpent:
            self.init(
                correct: false, outcome: .budgetExhausted,
                summary: "answer not judged: MAX_FAILURES_PER_WINDOW=\(limits.maxFailuresPerWindow) wrong answers reached")
        case .notTheLiveCode:
            self.init(
                correct: false, outcome: .notLiveCode,
                summary: "answer not judged: the code was never sent, was replaced by a newer one, or was already used")
        case .replayed:
            self.init(
                correct: false, outcome: .replayed,
                summary: "answer rejected: it was accepted before, and may be used only once")
        case .tooEarly(let secondsLeft):
            self.init(
                correct: false, outcome: .tooEarly,
                summary: "answer not judged: too soon after a wrong answer (FAILURE_DELAY_BASE_SECONDS); answers are judged again in \(secondsLeft) s")
        }
    }

    /// An answer refused unjudged because the pool's failure budget is spent.
    public static func poolFailuresSpent(_ limits: SignInLimits) -> VerifyConclusion {
        VerifyConclusion(
            correct: false, outcome: .budgetExhausted,
            summary: "answer not judged: the pool reached POOL_MAX_FAILURES_PER_WINDOW=\(limits.pool.maxFailuresPerWindow) wrong answers")
    }
}
