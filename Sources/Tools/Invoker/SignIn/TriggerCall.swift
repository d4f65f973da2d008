import ChallengeFlows
import LosslessJSON

/// Why Cognito would end a sign-in at one trigger invocation.
public enum TriggerCallError: Error, Sendable, Equatable, CustomStringConvertible {
    /// The function reported an error (Cognito: `UserLambdaValidationException`).
    case functionError(trigger: TriggerSource, type: String, message: String)
    /// The function answered something that is not a usable response of that trigger
    /// (Cognito: `InvalidLambdaResponseException`).
    case invalidResponse(trigger: TriggerSource, reason: String)
    /// The function did not answer in time.
    case timedOut(trigger: TriggerSource, seconds: Double)
    /// The function's process ended while it held the invocation.
    case runtimeExited(trigger: TriggerSource, status: String)
    /// The function could not be run at all.
    case cannotRun(InvokerError)

    public var description: String {
        switch self {
        case .functionError(let trigger, let type, let message):
            "\(trigger.shortName) failed with \(type): \"\(message)\"."
        case .invalidResponse(let trigger, let reason):
            "The \(trigger.shortName) response is unusable: \(reason)."
        case .timedOut(let trigger, let seconds):
            "\(trigger.shortName) timed out after \(LambdaFormat.seconds(seconds)) seconds."
        case .runtimeExited(let trigger, let status):
            "\(trigger.shortName)'s runtime exited with \"\(status)\"."
        case .cannotRun(let error):
            "The function cannot run: \(error)."
        }
    }

    /// The ``InvokerError`` a command reports for this failure.
    public var invokerError: InvokerError {
        switch self {
        case .functionError(_, let type, let message): .functionError(type: type, message: message)
        case .invalidResponse(let trigger, let reason):
            .functionError(type: "InvalidLambdaResponseException", message: "the \(trigger.shortName) response is unusable: \(reason)")
        case .timedOut(_, let seconds): .timedOut(seconds: seconds)
        case .runtimeExited(let trigger, let status): .bootstrapCrashed("it exited while handling \(trigger.shortName) (\(status))")
        case .cannotRun(let error): error
        }
    }
}

/// What Define decided, read the way Cognito reads its response.
public enum DefineDecision: Sendable, Equatable {
    case issueTokens
    case failAuthentication
    /// The next challenge Cognito must run (PASSWORD_VERIFIER itself, CUSTOM_CHALLENGE through Create and Verify).
    case challenge(ChallengeName)

    /// Nil for a response that names no challenge and neither issues tokens nor fails.
    public init?(_ response: DefineAuthChallengeResponse) {
        if response.issueTokens == true {
            self = .issueTokens
        } else if response.failAuthentication == true {
            self = .failAuthentication
        } else if let name = response.challengeName {
            self = .challenge(name)
        } else {
            return nil
        }
    }
}

/// One trigger invocation through a transport, its outcome read the way Cognito reads it: a response of the right
/// trigger, or the error that ends the sign-in. Shared by the sign-in transcript and the local user pool.
public struct TriggerCall: Sendable {
    public let transport: any TriggerTransport

    public init(transport: any TriggerTransport) {
        self.transport = transport
    }

    /// Invokes `trigger` with `event`. The invocation (when the function ran) comes back with the result, for logs.
    public func call(_ trigger: TriggerSource, _ event: JSONValue) async -> (Invocation?, Result<AuthChallengeEvent, TriggerCallError>) {
        let invocation: Invocation
        do {
            invocation = try await transport.invoke(event.serialized())
        } catch {
            return (nil, .failure(.cannotRun(error)))
        }
        switch invocation.outcome {
        case .response(let bytes):
            guard let response = try? AuthChallengeEvent(parsing: bytes), response.header.triggerSource == trigger else {
                return (invocation, .failure(.invalidResponse(trigger: trigger, reason: "it is not a \(trigger.shortName) event")))
            }
            return (invocation, .success(response))
        case .functionError(let type, let message):
            return (invocation, .failure(.functionError(trigger: trigger, type: type, message: message)))
        case .timedOut(let seconds):
            return (invocation, .failure(.timedOut(trigger: trigger, seconds: seconds)))
        case .runtimeExited(let status):
            return (invocation, .failure(.runtimeExited(trigger: trigger, status: status)))
        }
    }

    /// Runs Define and returns its decision.
    public func define(
        _ identity: EventIdentity, session: [SessionEntry], clientMetadata: [String: String]? = nil
    ) async throws(TriggerCallError) -> DefineDecision {
        let (_, result) = await call(.defineAuthChallenge, EventFactory.define(identity, session: session, clientMetadata: clientMetadata))
        guard case .define(let event) = try result.get() else { preconditionFailure("call checks the trigger") }
        guard let decision = DefineDecision(event.response) else {
            throw .invalidResponse(trigger: .defineAuthChallenge, reason: "it names no challenge and neither issues tokens nor fails")
        }
        return decision
    }

    /// Runs Create for a CUSTOM_CHALLENGE and returns its response.
    public func create(
        _ identity: EventIdentity, session: [SessionEntry], clientMetadata: [String: String]? = nil
    ) async throws(TriggerCallError) -> CreateAuthChallengeResponse {
        let (_, result) = await call(.createAuthChallenge, EventFactory.create(identity, session: session, clientMetadata: clientMetadata))
        guard case .create(let event) = try result.get() else { preconditionFailure("call checks the trigger") }
        return event.response
    }

    /// Runs Verify and returns `answerCorrect`.
    public func verify(
        _ identity: EventIdentity, privateChallengeParameters: [String: String], answer: String,
        clientMetadata: [String: String]?
    ) async throws(TriggerCallError) -> Bool {
        let (_, result) = await call(.verifyAuthChallengeResponse, EventFactory.verify(
            identity, privateChallengeParameters: privateChallengeParameters, answer: answer, clientMetadata: clientMetadata))
        guard case .verify(let event) = try result.get() else { preconditionFailure("call checks the trigger") }
        guard let correct = event.response.answerCorrect else {
            throw .invalidResponse(trigger: .verifyAuthChallengeResponse, reason: "answerCorrect is not set")
        }
        return correct
    }
}
