import ChallengeFlows
import CognitoTriggers
import Foundation

/// Runs the triggers in this process with ``CognitoTriggerHandler``: no build of the bootstrap, no network.
/// Invocations run one at a time, as in one Lambda sandbox.
public actor InProcessTransport: TriggerTransport {
    private let handler: CognitoTriggerHandler
    public nonisolated let label = "in-process"
    /// Makes each invocation's metric line, when asked for (and `METRICS` is not `off`).
    private let metrics: SignInMetrics?
    /// How long the handler took to build, reported with the first invocation as a cold start's init time.
    private var pendingInitDuration: Duration?

    /// - Parameters:
    ///   - delivery: where codes go instead of the configured delivery (e.g. to keep them out of the outbox).
    ///   - metrics: give each invocation the metric line the function would write.
    ///   - now: a wall clock standing still at these Unix seconds (`--now`), instead of the system's.
    public init(
        configuration: LocalConfiguration, delivery: (any CodeDelivery)? = nil, metrics: Bool = false, now: Int64? = nil
    ) throws(InvokerError) {
        let start = ContinuousClock.now
        do {
            let clock: @Sendable () -> Int64 = if let now { { now } } else { SystemClock.unixSeconds }
            handler = try CognitoTriggerHandler(configuration: configuration.triggers, delivery: delivery, clock: clock)
        } catch {
            throw .invalidConfiguration(error.description)
        }
        let settings = configuration.triggers.metrics
        self.metrics = metrics && settings.enabled ? SignInMetrics(settings: settings) : nil
        pendingInitDuration = start.duration(to: .now)
    }

    public func invoke(_ event: [UInt8]) async -> Invocation {
        let requestId = UUID().uuidString.lowercased()
        let start = ContinuousClock.now
        let outcome: FunctionOutcome
        var summary: String?
        var facts = TriggerFacts()
        do {
            let result = try handler.handle(event, facts: &facts)
            outcome = .response(result.responseBytes)
            summary = result.summary
        } catch {
            outcome = .functionError(type: error.errorType, message: error.description)
        }
        let line = metrics.map {
            String(decoding: $0.line(for: facts, initDuration: pendingInitDuration, timestamp: SystemClock.unixMilliseconds()).dropLast(), as: UTF8.self)
        }
        pendingInitDuration = nil
        return Invocation(
            requestId: requestId, outcome: outcome, summary: summary, duration: start.duration(to: .now), metrics: line)
    }

    public func shutdown() async {}
}
