import ChallengeFlows
import CognitoTriggers
import Foundation
import LosslessJSON

/// Runs the triggers in this process with ``CognitoTriggerHandler``, and API Gateway HTTP API events with the
/// passkey registration API, as the bootstrap does: no build of the bootstrap, no network.
/// Invocations run one at a time, as in one Lambda sandbox.
public actor InProcessTransport: TriggerTransport {
    private let handler: CognitoTriggerHandler
    private let passkeyAPI: PasskeyRegistrationAPI
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
            let triggers = configuration.triggers
            let store = try triggers.makeStateStore()
            handler = try CognitoTriggerHandler(configuration: triggers, delivery: delivery, stateStore: store, clock: clock)
            passkeyAPI = PasskeyRegistrationAPI(
                settings: triggers.passkeys, store: store, recordKey: triggers.recordKey,
                tokens: triggers.passkeys == nil ? nil : try triggers.passkeyAPI.makeTokenCheck(),
                maximumSignInAge: triggers.passkeyAPI.maximumSignInAge, clock: clock)
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
        let document = try? ParsedDocument(parsingEvent: event)
        if let document, HTTPAPIEvent.isHTTPAPIEvent(document.value) {
            let result = passkeyAPI.handle(document.value)
            outcome = .response(result.response.serialized())
            summary = result.summary + (result.logDetail.map { " (\($0))" } ?? "")
        } else {
            do {
                let result = if let document { try handler.handle(document, facts: &facts) } else { try handler.handle(event, facts: &facts) }
                outcome = .response(result.responseBytes)
                summary = result.summary
            } catch {
                outcome = .functionError(type: error.errorType, message: error.description)
            }
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
