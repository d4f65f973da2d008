#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif
import ChallengeFlows
import CognitoTriggers
import LambdaRuntime

#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// The Lambda function behind all three custom-auth triggers: it dispatches on the event's `triggerSource`, so one
/// deployment can back Define, Create and Verify.
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
    public let metrics: SignInMetrics?
    /// Where metric lines go; standard output, where Lambda's log pipeline finds them.
    let writeMetricLine: @Sendable ([UInt8]) -> Void

    /// A function answered by `triggers`, writing `metrics` (none by default) to standard output.
    public init(triggers: CognitoTriggerHandler, metrics: SignInMetrics? = nil) {
        self.init(triggers: triggers, metrics: metrics) { FileDescriptorOutput.write($0, to: STDOUT_FILENO) }
    }

    /// The same, with metric lines handed to `writeMetricLine` (tests).
    init(triggers: CognitoTriggerHandler, metrics: SignInMetrics?, writeMetricLine: @escaping @Sendable ([UInt8]) -> Void) {
        self.triggers = triggers
        self.metrics = metrics
        self.writeMetricLine = writeMetricLine
    }

    /// Reads the configuration from the environment (`CHALLENGE_FLOW` may name any of `steps` next to the
    /// built-in ones), logs its start-up warnings, and serves invocations until Lambda ends the process.
    /// A configuration that cannot work is reported to Lambda as `Runtime.InvalidConfiguration`.
    ///
    /// For the local tools, `COGNITO_CHALLENGE_DESCRIBE=1` (or the argument `--describe`) instead prints the step
    /// registry as JSON and exits, and `COGNITO_CHALLENGE_EXPECTED_ANSWER` (or `--expected-answer`) prints a step's
    /// expected answer (see `StepDescription` in CognitoTriggers), without contacting the Runtime API. Lambda sets neither.
    public static func run(steps: [any ChallengeStep] = []) -> Never {
        if let reply = StepDescription.reply(
            environment: ProcessEnvironment.variables(), arguments: CommandLine.arguments, steps: steps,
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
        LambdaRuntime.run { logger in
            do {
                let configuration = try TriggerConfiguration(environment: ProcessEnvironment.variables(), steps: steps)
                for warning in configuration.startupWarnings { logger.warn(warning) }
                let function = CognitoTriggerFunction(
                    triggers: try CognitoTriggerHandler(configuration: configuration),
                    metrics: configuration.metrics.enabled ? SignInMetrics(settings: configuration.metrics) : nil)
                WarmUp.run(configuration: configuration)
                return function
            } catch {
                throw FunctionError(errorType: "Runtime.InvalidConfiguration", description: "\(error)")
            }
        }
    }

    /// Answers one event; a trigger error is logged in full and reported to Lambda with a message that names only
    /// the request. Either way, one metric line says what happened.
    public func handle(_ event: [UInt8], context: LambdaContext) throws -> [UInt8] {
        var facts = TriggerFacts()
        defer {
            if let metrics {
                writeMetricLine(
                    metrics.line(for: facts, initDuration: context.initDuration, timestamp: SystemClock.unixMilliseconds()))
            }
        }
        do {
            let result = try triggers.handle(event, facts: &facts)
            if let warning = result.warning { context.logger.warn(warning) }
            context.logger.info(result.summary)
            return result.responseBytes
        } catch {
            // The detail stays in the log; Cognito shows the error message to whoever is signing in.
            context.logger.error("\(error.errorType): \(error)")
            throw FunctionError(errorType: error.errorType, description: TriggerError.publicMessage(reference: context.requestID))
        }
    }
}

/// A trigger or configuration error as Lambda is told about it.
struct FunctionError: LambdaReportableError, CustomStringConvertible {
    let errorType: String
    let description: String
}
