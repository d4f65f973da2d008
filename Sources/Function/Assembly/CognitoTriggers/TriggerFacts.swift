import ChallengeFlows
import ServiceClients

/// What one invocation did, as facts rather than text: which trigger, which step and channel, how it ended, and how
/// long the delivery and the state store took. The handler fills them in as it goes, so that an invocation that
/// fails still tells how far it got; ``SignInMetrics`` turns them into a metric line.
///
/// Nothing here names a user, an address, a phone number, a code or a token: every value comes from a small fixed
/// set (the step kinds come from the configured flow).
public struct TriggerFacts: Sendable, Equatable {
    /// Which of the three triggers the event was for; nil when the event could not be read.
    public var trigger: Trigger?
    /// The kind of step the challenge was (e.g. `EMAIL_CODE`), for Create and Verify.
    public var stepKind: ChallengeKind?
    /// The channel a message went, or would have gone, by.
    public var channel: MessageChannel?
    /// How the invocation ended; nil until it has.
    public var outcome: Outcome?
    /// How long the delivery of a message took, when one was attempted.
    public var deliveryTime: Duration?
    /// How long the limits across sign-ins spent with the state store, when they were consulted.
    public var stateStoreTime: Duration?
    /// Why a CAPTCHA provider rejected a widget token, as a class (`CaptchaRejection.reasonClass`).
    public var captchaRejection: String?

    public init(trigger: Trigger? = nil) {
        self.trigger = trigger
    }

    /// The three custom-auth triggers.
    public enum Trigger: String, Sendable, CaseIterable {
        case define = "Define"
        case create = "Create"
        case verify = "Verify"
    }

    /// How an invocation ended, in a word fit for a metric dimension.
    public enum Outcome: String, Sendable, CaseIterable {
        // Define
        /// Define presented a challenge.
        case challengePresented = "challenge"
        /// Define issued tokens: the sign-in succeeded.
        case tokensIssued = "tokens"
        /// Define failed the sign-in.
        case signInFailed = "failed"
        // Create
        /// A message was delivered.
        case sent
        /// An earlier message was still valid and was not sent again.
        case reused
        /// The user reached the send throttle: nothing was sent and the challenge will not verify.
        case throttled
        /// An unknown user, or one without a usable address: nothing was sent, the challenge looks like any other.
        case decoy
        /// A challenge that delivers nothing (e.g. a CAPTCHA) was issued.
        case issued
        /// A CAPTCHA was issued in front of a step that proves identity, because the user's wrong answers reached
        /// `CAPTCHA_STEP_UP_AFTER_FAILURES`; nothing was sent.
        case steppedUp = "step-up"
        /// The delivery failed; the invocation ended with an error.
        case deliveryFailed = "delivery-failed"
        // Verify
        case correct
        case wrong
        case expired
        /// Not judged: the user spent the failure budget of the window.
        case budgetExhausted = "budget-exhausted"
        /// Not judged: the code is not the user's live one (never sent, replaced, or already used).
        case notLiveCode = "not-live-code"
        /// A right answer that was already used.
        case replayed
        /// Not judged: the answer came before the delay set by the user's last wrong answer was over.
        case tooEarly = "too-early"
        /// The CAPTCHA provider rejected the widget's token.
        case captchaRejected = "captcha-rejected"
        /// Rejected whatever the answer: parameters not issued by this flow, a retired key, a refused step.
        case refused
        // Any trigger
        /// The state store could not be used; the invocation ended with an error.
        case stateStoreError = "state-store-error"
        /// The event could not be read, or another error ended the invocation.
        case error
    }
}

extension CaptchaRejection {
    /// The reason as one of a few fixed words, for a metric dimension: never the provider's own codes, which it may
    /// choose freely.
    public var reasonClass: String {
        switch self {
        case .unusableToken: "unusable-token"
        case .providerError: "provider-refused"
        case .hostnameNotAllowed: "hostname"
        case .actionMismatch: "action"
        case .scoreTooLow: "score"
        case .missingTimestamp, .stale, .timestampAhead: "timestamp"
        case .unreachable, .timedOut, .httpStatus, .malformedResponse: "provider-unavailable"
        }
    }
}
