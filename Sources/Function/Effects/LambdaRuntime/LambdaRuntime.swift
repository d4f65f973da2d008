import CurlHTTP
import Platform
#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// Why the runtime stopped serving invocations.
public enum RuntimeExit: Sendable, Equatable {
    /// SIGTERM arrived; the invocation in flight was answered first.
    case terminated
    /// The handler could not be built; Lambda was told with `init/error`.
    case initializationFailed(String)
    /// The Runtime API could not be reached, or answered in a way that means the runtime must end.
    case runtimeAPIFailed(String)

    /// The process exit status: 0 after SIGTERM, 1 otherwise.
    public var status: Int32 { self == .terminated ? 0 : 1 }
}

/// The Lambda custom-runtime loop: fetch an invocation, hand its bytes to the handler, send back the answer.
public enum LambdaRuntime {
    /// Reads the environment, builds the handler, serves invocations until SIGTERM or until the Runtime API fails,
    /// then exits (0 after SIGTERM, 1 otherwise). `makeHandler` gets the runtime's logger (for start-up lines); an
    /// error it throws is reported with `init/error`.
    public static func run<Handler: LambdaHandler>(makeHandler: (LambdaLogger) throws -> Handler) -> Never {
        let startedAt = MonotonicInstant.now
        let configuration: RuntimeConfiguration
        do {
            configuration = try RuntimeConfiguration.fromEnvironment()
        } catch {
            LambdaLogger().fatal(error.description)
            exit(1)
        }
        TerminationSignal.install()
        let ending = serve(configuration: configuration, startedAt: startedAt, makeHandler: makeHandler)
        switch ending {
        case .terminated: configuration.logger.info("SIGTERM: stopping after the last invocation")
        case .initializationFailed(let reason), .runtimeAPIFailed(let reason): configuration.logger.fatal(reason)
        }
        exit(ending.status)
    }

    /// Builds the handler and serves invocations with this configuration; returns why it stopped instead of exiting.
    /// The first invocation's context carries the time from `startedAt` to the first request for an event
    /// (``LambdaContext/initDuration``).
    public static func serve<Handler: LambdaHandler>(
        configuration: RuntimeConfiguration, startedAt: MonotonicInstant = .now,
        makeHandler: (LambdaLogger) throws -> Handler
    ) -> RuntimeExit {
        let client: RuntimeAPIClient
        do {
            client = try RuntimeAPIClient(address: configuration.runtimeAPI) { TerminationSignal.isReceived }
        } catch {
            return .runtimeAPIFailed(error.description)
        }
        return serve(api: client, logger: configuration.logger, startedAt: startedAt, makeHandler: makeHandler)
    }

    /// Builds the handler and serves the invocations `api` gives until it has none (nil from `next()`) or fails;
    /// returns why it stopped. The loop `run` and the other `serve` call, over HTTP; a test's own ``RuntimeAPI``
    /// drives it in process.
    public static func serve<Handler: LambdaHandler>(
        api: some RuntimeAPI, logger: LambdaLogger, startedAt: MonotonicInstant = .now,
        makeHandler: (LambdaLogger) throws -> Handler
    ) -> RuntimeExit {
        let handler: Handler
        do {
            handler = try makeHandler(logger)
        } catch {
            let report = ErrorReport(error)
            let reason = "initialization failed: \(report.errorType): \(report.errorMessage)"
            do {
                try api.sendInitError(report)
                return .initializationFailed(reason)
            } catch {
                return .initializationFailed(reason + " (and init/error could not be sent: \(error))")
            }
        }
        return loop(handler, api: api, logger: logger, startedAt: startedAt)
    }

    private static func loop(
        _ handler: some LambdaHandler, api: some RuntimeAPI, logger: LambdaLogger, startedAt: MonotonicInstant
    ) -> RuntimeExit {
        do {
            let traceVariable = TraceVariable()
            let followUps = DeliveryFollowUps()
            var initDuration: Duration? = startedAt.duration(to: .now)
            while let invocation = try api.next() {
                let context = LambdaContext(
                    invocation, logger: logger.forInvocation(invocation.requestID), initDuration: initDuration,
                    followUps: followUps)
                initDuration = nil
                traceVariable.set(context.traceID)
                // After the answer is sent, or fails to be: before the next event either way.
                defer { followUps.run() }
                let answer: [UInt8]
                do {
                    answer = try handler.handle(invocation.event, context: context)
                } catch {
                    let delivery = try api.sendError(reported(ErrorReport(error), to: context.logger), for: context.requestID)
                    if case .refused(let reason) = delivery { context.logger.error(reason) }
                    continue
                }
                if case .refused(let reason) = try api.sendResponse(answer, for: context.requestID) {
                    context.logger.error(reason)
                }
            }
            return .terminated
        } catch {
            return .runtimeAPIFailed(error.description)
        }
    }

    private static func reported(_ report: ErrorReport, to logger: LambdaLogger) -> ErrorReport {
        logger.error("\(report.errorType): \(report.errorMessage)")
        return report
    }
}

