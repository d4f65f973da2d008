import ChallengeFlows
import CognitoTriggers
import Foundation

/// Runs the triggers in this process with ``CognitoTriggerHandler``: no build of the bootstrap, no network.
/// Invocations run one at a time, as in one Lambda sandbox.
public actor InProcessTransport: TriggerTransport {
    private let handler: CognitoTriggerHandler
    public nonisolated let label = "in-process"

    /// - Parameter delivery: where codes go instead of the configured delivery (e.g. to keep them out of the outbox).
    public init(configuration: LocalConfiguration, delivery: (any CodeDelivery)? = nil) throws(InvokerError) {
        do {
            handler = try CognitoTriggerHandler(configuration: configuration.triggers, delivery: delivery)
        } catch {
            throw .invalidConfiguration(error.description)
        }
    }

    public func invoke(_ event: [UInt8]) async -> Invocation {
        let requestId = UUID().uuidString.lowercased()
        let start = ContinuousClock.now
        let outcome: FunctionOutcome
        var summary: String?
        do {
            let result = try handler.handle(event)
            outcome = .response(result.responseBytes)
            summary = result.summary
        } catch {
            outcome = .functionError(type: error.errorType, message: error.description)
        }
        return Invocation(requestId: requestId, outcome: outcome, summary: summary, duration: start.duration(to: .now))
    }

    public func shutdown() async {}
}
