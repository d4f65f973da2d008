import ChallengeCrypto
import ChallengeFlows
import LambdaRuntime
import LosslessJSON

#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// The Lambda function behind all three custom-auth triggers: it dispatches on the event's `triggerSource`, so one
/// deployment can back Define, Create and Verify. The same function serves the passkey registration API: an API
/// Gateway HTTP API event (payload 2.0: `"version": "2.0"` with a `routeKey`) goes to ``passkeyAPI``.
///
/// A `bootstrap` is one line, with steps of your own or without:
///
/// ```swift
/// CognitoTriggerFunction.run(steps: [TOTPStep()])
/// ```
public struct CognitoTriggerFunction: LambdaHandler {
    /// The triggers every invocation goes to.
    public let triggers: CognitoTriggerHandler
    /// Writes the sign-in funnel of every invocation to standard output; nil when `METRICS=off`.
    public var metrics: SignInMetrics? { metricLines?.metrics }
    /// Answers the HTTP API events.
    public let passkeyAPI: PasskeyRegistrationAPI
    /// The metrics and where their lines go, shared by reference: an invocation hands it to the work after its answer
    /// without copying the metrics' tables.
    let metricLines: MetricLines?

    /// A function answered by `triggers` and `passkeyAPI` (by default one that answers that passkeys are not
    /// configured), writing `metrics` (none by default) to standard output.
    public init(triggers: CognitoTriggerHandler, metrics: SignInMetrics? = nil, passkeyAPI: PasskeyRegistrationAPI? = nil) {
        self.init(triggers: triggers, metrics: metrics, passkeyAPI: passkeyAPI) { FileDescriptorOutput.standardOutput.writeLine($0) }
    }

    /// The same, with metric lines handed to `writeMetricLine` (tests).
    init(
        triggers: CognitoTriggerHandler, metrics: SignInMetrics?, passkeyAPI: PasskeyRegistrationAPI? = nil,
        writeMetricLine: @escaping @Sendable ([UInt8]) -> Void
    ) {
        self.init(triggers: triggers, metrics: metrics, passkeyAPI: passkeyAPI) { build in
            var line: [UInt8] = []
            build(&line)
            writeMetricLine(line)
        }
    }

    private init(
        triggers: CognitoTriggerHandler, metrics: SignInMetrics?, passkeyAPI: PasskeyRegistrationAPI?,
        writeLine: @escaping MetricLines.WriteLine
    ) {
        self.triggers = triggers
        metricLines = metrics.map { MetricLines(metrics: $0, writeLine: writeLine) }
        self.passkeyAPI = passkeyAPI
            ?? PasskeyRegistrationAPI(settings: nil, store: nil, recordKey: [], tokens: nil, clock: SystemClock.unixSeconds)
    }

    /// Reads the configuration from the environment (`CHALLENGE_FLOW` may name any of `steps` next to the
    /// built-in ones), logs its start-up warnings, and serves invocations until Lambda ends the process.
    /// A configuration that cannot work is reported to Lambda as `Runtime.InvalidConfiguration`.
    ///
    /// For the local tools, `COGNITO_CHALLENGE_DESCRIBE=1` (or the argument `--describe`) instead prints the step
    /// registry as JSON and exits, and `COGNITO_CHALLENGE_EXPECTED_ANSWER` (or `--expected-answer`) prints a step's
    /// expected answer (see `StepDescription` in CognitoTriggers), without contacting the Runtime API. Lambda sets neither.
    public static func run(steps: [any ChallengeStep] = []) -> Never {
        // Read once: the local tools' replies and the configuration see the same environment.
        let environment = ProcessEnvironment.variables()
        if let reply = StepDescription.reply(
            environment: environment, arguments: CommandLine.arguments, steps: steps,
            now: Int64(time(nil)))
        {
            var bytes = Array((reply.output + "\n").utf8)[...]
            while !bytes.isEmpty {
                let written = bytes.withUnsafeBytes { write(STDOUT_FILENO, $0.baseAddress, $0.count) }
                guard written > 0 else { break }
                bytes = bytes.dropFirst(written)
            }
            exit(reply.status)
        }
        // Before libcurl starts OpenSSL.
        OpenSSLStartup.leaveLegacyCipherTableEmpty()
        LambdaRuntime.run { logger in
            do {
                // The composition root: the one place that reads the network and files to configure the function.
                let configuration = try TriggerConfiguration(
                    environment: environment, secrets: Secrets.read(from: environment),
                    captchaCatalog: CaptchaCatalog.read(from: environment), steps: steps)
                for warning in configuration.startupWarnings { logger.warn(warning) }
                // One store (one kept-alive connection) for the triggers' limits and the passkey API.
                let store = try configuration.makeStateStore()
                let function = CognitoTriggerFunction(
                    triggers: try CognitoTriggerHandler(configuration: configuration, stateStore: store),
                    metrics: configuration.metrics.enabled ? SignInMetrics(settings: configuration.metrics) : nil,
                    passkeyAPI: PasskeyRegistrationAPI(
                        settings: configuration.passkeys, store: store, recordKey: configuration.recordKey,
                        tokens: configuration.passkeys == nil ? nil : try configuration.passkeyAPI.makeTokenCheck(),
                        maximumSignInAge: configuration.passkeyAPI.maximumSignInAge, clock: SystemClock.unixSeconds))
                WarmUp.run(configuration: configuration, metrics: function.metrics)
                return function
            } catch {
                throw FunctionError(errorType: "Runtime.InvalidConfiguration", description: "\(error)")
            }
        }
    }

    /// Answers one event; a trigger error is logged in full at once and reported to Lambda with a message that names
    /// only the request. Either way, one metric line says what happened. The summary line (and a warning) of an
    /// answered event and the metric line are written once the answer is delivered (`LambdaContext.afterDelivery(_:)`),
    /// in that order. An HTTP API event gets an HTTP response, never a function error, and no metric line.
    public func handle(_ event: [UInt8], context: LambdaContext) throws -> [UInt8] {
        // A trigger event is read straight into its typed fields. Anything else is read once as a tree: an HTTP API
        // event (version "2.0", which no trigger event has) goes to the passkey API, and bytes that are not JSON go
        // to the triggers, which report them as today.
        let reading: EventReading
        if let trigger = AuthChallengeEvent(readingDirectly: event), trigger.version != "2.0" {
            reading = .trigger(trigger)
        } else if let document = try? ParsedDocument(parsingEvent: event) {
            if HTTPAPIEvent.isHTTPAPIEvent(document.value) { return answer(document.value, context: context) }
            reading = .document(document)
        } else {
            reading = .bytes
        }
        var facts = TriggerFacts()
        var outcome: (summary: String, warning: String?)?
        defer {
            // Written once the answer is on its way: Cognito waits for neither the log lines nor the metric line.
            let (facts, outcome, initDuration, timestamp) = (facts, outcome, context.initDuration, SystemClock.unixMilliseconds())
            context.afterDelivery { [logger = context.logger, metricLines] in
                if let outcome {
                    if let warning = outcome.warning { logger.warn(warning) }
                    logger.info(outcome.summary)
                }
                if let metricLines {
                    metricLines.writeLine { line in
                        metricLines.metrics.appendLine(for: facts, initDuration: initDuration, timestamp: timestamp, to: &line)
                    }
                }
            }
        }
        do {
            let result = switch reading {
            case .trigger(let trigger): try triggers.handle(trigger, facts: &facts)
            case .document(let document): try triggers.handle(document, facts: &facts)
            case .bytes: try triggers.handle(event, facts: &facts)
            }
            outcome = (result.summary, result.warning)
            return result.responseBytes
        } catch {
            // The detail stays in the log; Cognito shows the error message to whoever is signing in.
            context.logger.error("\(error.errorType): \(error)")
            throw FunctionError(errorType: error.errorType, description: TriggerError.publicMessage(reference: context.requestID))
        }
    }
}

/// How an event was read before the triggers take it.
private enum EventReading {
    /// A trigger event, read straight into its typed fields.
    case trigger(AuthChallengeEvent)
    /// JSON that is not a trigger event read directly, read as a tree.
    case document(ParsedDocument)
    /// Bytes that are not JSON.
    case bytes
}

extension CognitoTriggerFunction {
    /// Answers an HTTP API event through the passkey API, logging the outcome (and a server-side failure's detail).
    func answer(_ event: JSONValue, context: LambdaContext) -> [UInt8] {
        let result = passkeyAPI.handle(event)
        if let detail = result.logDetail {
            context.logger.error("\(result.summary) (\(detail))")
        } else {
            context.logger.info(result.summary)
        }
        return result.response.serialized()
    }
}

/// The function's metrics and where it writes their lines.
final class MetricLines: Sendable {
    /// Builds a line with the closure it is given, which appends the line's bytes to an empty array, and writes it.
    typealias WriteLine = @Sendable (_ build: (inout [UInt8]) -> Void) -> Void

    let metrics: SignInMetrics
    let writeLine: WriteLine

    init(metrics: SignInMetrics, writeLine: @escaping WriteLine) {
        self.metrics = metrics
        self.writeLine = writeLine
    }
}

/// A trigger or configuration error as Lambda is told about it.
struct FunctionError: LambdaReportableError, CustomStringConvertible {
    let errorType: String
    let description: String
}
