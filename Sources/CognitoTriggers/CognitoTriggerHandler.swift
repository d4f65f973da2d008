import ChallengeFlows
import CognitoEvents
import EmailDelivery
import LosslessJSON

/// Answers any of the three custom-auth triggers: reads the event, asks the flow engine, delivers a code when one
/// is due, and returns the whole event with its response filled in.
///
/// One instance serves every invocation of a process, one at a time.
public final class CognitoTriggerHandler {
    public let engine: ChallengeFlowEngine
    private let delivery: any CodeDelivery
    private let clock: @Sendable () -> Int64
    private var deliveryTime: DeliveryTimeModel

    /// - Parameters:
    ///   - delivery: where codes go; by default the one the configuration names.
    ///   - clock: Unix time in seconds; injected by tests.
    public init(
        configuration: TriggerConfiguration, delivery: (any CodeDelivery)? = nil,
        clock: @escaping @Sendable () -> Int64 = SystemClock.unixSeconds
    ) throws(ConfigurationError) {
        engine = try configuration.makeEngine()
        if let delivery {
            self.delivery = delivery
        } else {
            self.delivery = try configuration.makeDelivery(clock: clock)
        }
        self.clock = clock
        deliveryTime = DeliveryTimeModel(typical: configuration.typicalDeliveryTime)
    }

    /// Handles raw event bytes and returns the response event's bytes.
    public func handle(_ bytes: [UInt8]) throws(TriggerError) -> TriggerResult {
        let event: AuthChallengeEvent
        do {
            event = try AuthChallengeEvent(parsing: bytes)
        } catch {
            throw .invalidEvent(error)
        }
        return try handle(event)
    }

    /// Handles a decoded event.
    public func handle(_ event: AuthChallengeEvent) throws(TriggerError) -> TriggerResult {
        let user = UserIdentity(userPoolId: event.header.userPoolId ?? "", userName: event.header.userName)
        switch event {
        case .define(var define):
            let decision = engine.define(define.request)
            define.response = decision.response
            return TriggerResult(event: .define(define), summary: decision.description)

        case .create(var create):
            let issued = try createChallenge(create.request, user: user)
            create.response = issued.response
            return TriggerResult(
                event: .create(create), summary: summary(of: issued, userNotFound: create.request.userNotFound),
                warning: issued.unusableAddress.map { "No code was sent because \($0); the user was answered as an unknown user." })

        case .verify(var verify):
            let outcome = engine.verify(verify.request, user: user, now: clock())
            verify.response = outcome.response
            var warning: String?
            if case .unusableAddress(let problem) = outcome {
                warning = "The answer was rejected because \(problem) and no code was sent."
            }
            return TriggerResult(event: .verify(verify), summary: outcome.description, warning: warning)
        }
    }

    private func createChallenge(_ request: CreateAuthChallengeRequest, user: UserIdentity) throws(TriggerError) -> IssuedChallenge {
        let issued: IssuedChallenge
        do {
            issued = try engine.create(request, user: user, now: clock())
        } catch let error as CreateChallengeError {
            throw .challengeNotCreated(error)
        } catch {
            throw .randomnessUnavailable
        }
        if let message = issued.delivery {
            let start = ContinuousClock.now
            do {
                try delivery.deliver(message)
            } catch {
                throw .deliveryFailed(String(describing: error))
            }
            deliveryTime.record(start.duration(to: .now))
        } else if issued.kind == .emailCode, !issued.reusedEarlierCode, request.userNotFound || issued.unusableAddress != nil {
            // A real user would have waited for a delivery here: take as long, so timing does not tell them apart.
            Pause.sleep(deliveryTime.drawDelay())
        }
        return issued
    }

    private func summary(of issued: IssuedChallenge, userNotFound: Bool) -> String {
        let step = "\(issued.kind.rawValue) step \(issued.seal.stepIndex + 1), \(issued.publicParameters["attemptsLeft"] ?? "?") attempts left"
        switch issued.kind {
        case .captcha:
            return "\(step), CAPTCHA issued"
        case .emailCode where issued.reusedEarlierCode:
            return "\(step), earlier code still valid (not sent again)"
        case .emailCode where userNotFound || issued.unusableAddress != nil:
            return "\(step), unknown user or no usable address: nothing sent"
        case .emailCode:
            return "\(step), code sent to \(issued.publicParameters["destination"] ?? "?")"
        }
    }
}

/// The outcome of one invocation.
public struct TriggerResult: Sendable {
    /// The whole event with its response filled in.
    public let event: AuthChallengeEvent
    /// One line saying what was decided, safe to log: it never holds a code, answer or secret.
    public let summary: String
    /// A line for a WARN log, when the invocation met something an operator should hear of (e.g. a user without a
    /// usable address).
    public let warning: String?

    public init(event: AuthChallengeEvent, summary: String, warning: String? = nil) {
        self.event = event
        self.summary = summary
        self.warning = warning
    }

    /// The response event as compact JSON, ready for the Runtime API.
    public var responseBytes: [UInt8] { event.json.serialized() }
}

/// Why a trigger could not answer. Cognito turns any of these into `UserLambdaValidationException` and ends the
/// sign-in, so each one names what to fix.
public enum TriggerError: Error, Sendable, CustomStringConvertible {
    case invalidEvent(EventDecodingError)
    case challengeNotCreated(CreateChallengeError)
    case deliveryFailed(String)
    case randomnessUnavailable

    /// The error type reported to Lambda.
    public var errorType: String {
        switch self {
        case .invalidEvent(.unknownTriggerSource): "Function.UnknownTriggerSource"
        case .invalidEvent: "Runtime.UnmarshalError"
        case .challengeNotCreated: "Function.ChallengeNotCreated"
        case .deliveryFailed: "Function.DeliveryFailed"
        case .randomnessUnavailable: "Function.RandomnessUnavailable"
        }
    }

    /// The whole story, for the function's log only: it may name the user, the address or what a provider said.
    public var description: String {
        switch self {
        case .invalidEvent(let error): "\(error)"
        case .challengeNotCreated(let error): "\(error)"
        case .deliveryFailed(let reason): "The code could not be delivered: \(reason)"
        case .randomnessUnavailable: "The system random number generator failed; no code was issued."
        }
    }

    /// The message for Lambda's error report. Cognito passes it to the client that is signing in ("… failed with
    /// error <message>"), who may not be the user, so it says nothing about the user or why: only a reference
    /// that finds the detail in the log.
    public static func publicMessage(reference: String) -> String {
        "Sign-in could not continue (reference \(reference))."
    }
}
