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
    private var deliveryTime: DeliveryTimeEstimate

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
        deliveryTime = DeliveryTimeEstimate()
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
            return TriggerResult(event: .create(create), summary: summary(of: issued, userNotFound: create.request.userNotFound))

        case .verify(var verify):
            let outcome = engine.verify(verify.request, user: user, now: clock())
            verify.response = outcome.response
            return TriggerResult(event: .verify(verify), summary: outcome.description)
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
        } else if request.userNotFound, issued.kind == .emailCode, !issued.reusedEarlierCode {
            // A real user would have waited for a delivery here: take as long, so timing does not tell them apart.
            deliveryTime.waitTypicalDuration()
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
        case .emailCode where userNotFound:
            return "\(step), unknown user: nothing sent"
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

    public var description: String {
        switch self {
        case .invalidEvent(let error): "\(error)"
        case .challengeNotCreated(let error): "\(error)"
        case .deliveryFailed(let reason): "the code could not be delivered: \(reason)"
        case .randomnessUnavailable: "the system random number generator failed; no code was issued"
        }
    }
}
