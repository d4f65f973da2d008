import DevelopmentSupport
import Foundation
import LosslessJSON

/// How to run a bootstrap the way Lambda would.
public struct BootstrapSettings: Sendable {
    /// The executable, e.g. `.build/debug/bootstrap`.
    public var path: String
    /// The function's environment (the triggers' configuration and anything else); Lambda's own variables are added.
    public var environment: [String: String]
    /// How long one invocation may take; Cognito allows 5 seconds.
    public var timeout: Duration
    /// How long the bootstrap may take to ask for its first event; Lambda allows 10 seconds of init.
    public var initTimeout: Duration
    /// `AWS_LAMBDA_FUNCTION_MEMORY_SIZE` and the REPORT line's Memory Size.
    public var memorySizeMB: Int
    public var function: FunctionIdentity
    /// Give each invocation the metric line the bootstrap wrote (``Invocation/metrics``); without it the metric lines
    /// are dropped. Any other output on its standard output goes to standard error either way.
    public var capturesMetrics: Bool
    /// How long the bootstrap has, once it has answered, to ask for its next event before the invocation is returned
    /// without that (see ``BootstrapTransport``).
    public var nextRequestLimit: Duration

    public init(
        path: String, environment: [String: String], timeout: Duration = .seconds(5), initTimeout: Duration = .seconds(10),
        memorySizeMB: Int = 128, function: FunctionIdentity = FunctionIdentity(name: LocalDefaults.functionName),
        capturesMetrics: Bool = false, nextRequestLimit: Duration = .seconds(1)
    ) {
        self.capturesMetrics = capturesMetrics
        self.nextRequestLimit = nextRequestLimit
        self.path = path
        self.environment = environment
        self.timeout = timeout
        self.initTimeout = initTimeout
        self.memorySizeMB = memorySizeMB
        self.function = function
    }
}

/// Runs the function in a real bootstrap process against an embedded Runtime API emulator: the bootstrap is started
/// on first use (and again after it dies or is killed for a timeout), each invocation gets a deadline, an ARN and a
/// trace id, and ends with Lambda's REPORT figures. Invocations run one at a time; concurrent callers wait in order.
/// An answered invocation is returned once the bootstrap has asked for its next event (or after
/// ``BootstrapSettings/nextRequestLimit``): what it writes after its answer, such as its log lines, is written by then.
public actor BootstrapTransport: TriggerTransport {
    public nonisolated let label: String
    private let settings: BootstrapSettings
    /// The Runtime API the bootstrap is pointed at.
    nonisolated let emulator: RuntimeAPIEmulator
    private var address: String?
    private var process: ChildProcess?
    /// The running process's metric lines, when they are captured.
    private var metricLines: MetricLineReader?
    /// The init duration of a fresh process, reported with its first invocation.
    private var pendingInitDuration: Duration?
    private var busy = false
    private var waiting: [CheckedContinuation<Void, Never>] = []

    public init(settings: BootstrapSettings) {
        self.settings = settings
        emulator = RuntimeAPIEmulator(function: settings.function)
        label = "bootstrap \(settings.path)"
    }

    public func invoke(_ event: [UInt8]) async throws(InvokerError) -> Invocation {
        await acquire()
        defer { release() }
        let process = try await running()
        let initDuration = pendingInitDuration
        pendingInitDuration = nil
        let start = ContinuousClock.now

        enum Race: Sendable {
            case answered(InvocationResult)
            case exited(ProcessTermination?)
        }
        let emulator = self.emulator
        let timeout = settings.timeout
        // Whichever comes first ends the invocation; the other is cancelled (an unanswered invocation then ends as
        // abandoned, which still names its request id). A bootstrap that answers and then exits may be seen to exit
        // first: an answer the emulator already has still counts.
        let (first, abandonedId) = await withTaskGroup(of: Race.self) { group in
            group.addTask { .answered(await emulator.invoke(event, timeout: timeout)) }
            group.addTask { .exited(await process.terminated()) }
            let first = await group.next()!
            group.cancelAll()
            var late: InvocationResult?
            for await case .answered(let result) in group { late = result }
            if case .exited = first, let late, late.outcome.isAnswer { return (Race.answered(late), nil as String?) }
            return (first, late?.requestID)
        }

        let requestId: String
        let outcome: FunctionOutcome
        var duration = start.duration(to: .now)
        switch first {
        case .answered(let result):
            requestId = result.requestID
            duration = result.runtimeDuration ?? duration
            switch result.outcome {
            case .response(let bytes):
                outcome = .response(bytes)
                await nextRequest(after: result, from: process)
            case .functionError(let reported):
                outcome = Self.functionError(reported)
                await nextRequest(after: result, from: process)
            case .timedOut:
                // Lambda ends the sandbox: the next invocation starts a fresh process.
                await stop(process)
                duration = timeout
                outcome = .timedOut(seconds: Double(timeout.components.seconds) + Double(timeout.components.attoseconds) / 1e18)
            case .abandoned:
                throw .bootstrapCrashed("the local Runtime API shut down during the invocation")
            }
        case .exited(let termination):
            self.process = nil
            requestId = abandonedId ?? "unknown"
            outcome = .runtimeExited(termination?.description ?? "unknown status")
        }
        let report = ExecutionReport(
            requestId: requestId, duration: duration, initDuration: initDuration, memorySizeMB: settings.memorySizeMB,
            maxMemoryUsedMB: process.peakMemoryMiB)
        // The function writes its line once its answer is delivered; the reader may take a moment to pass it on.
        let metrics = settings.capturesMetrics ? metricLines?.take(waitingUpTo: .milliseconds(250)) : nil
        return Invocation(requestId: requestId, outcome: outcome, duration: duration, report: report, metrics: metrics)
    }

    public func shutdown() async {
        if let process { await stop(process) }
        if address != nil { await emulator.shutdown() }
        address = nil
    }

    // MARK: The process

    /// The running bootstrap, started (or restarted) when there is none.
    private func running() async throws(InvokerError) -> ChildProcess {
        if let process, process.termination == nil { return process }
        process = nil
        let address: String
        if let known = self.address {
            address = known
            emulator.expectNewRuntime()
        } else {
            do {
                address = try await emulator.start()
            } catch {
                throw .bootstrapDidNotStart("the local Runtime API could not listen on 127.0.0.1: \(error)")
            }
            self.address = address
        }
        // Its standard output is read here: the metric lines go to the invocations that asked for them (and are
        // left out of the transcript otherwise); anything else goes on to standard error, beside its logs.
        let child: ChildProcess
        var ends: [Int32] = [-1, -1]
        guard pipe(&ends) == 0 else { throw .bootstrapDidNotStart("no pipe for its standard output: \(String(cString: strerror(errno)))") }
        do {
            child = try ChildProcess.spawn(
                settings.path, environment: lambdaEnvironment(runtimeAPI: address), output: .standardOutputTo(ends[1]))
        } catch {
            close(ends[0])
            close(ends[1])
            throw .bootstrapDidNotStart(error.description)
        }
        close(ends[1])
        metricLines = MetricLineReader(reading: ends[0], keepsMetrics: settings.capturesMetrics)

        enum Start: Sendable {
            case started(RuntimeStart)
            case exited(ProcessTermination?)
            case tooSlow
        }
        let emulator = self.emulator
        let initTimeout = settings.initTimeout
        let start = await withTaskGroup(of: Start?.self) { group in
            group.addTask { (try? await emulator.runtimeStart()).map(Start.started) }
            group.addTask { .exited(await child.terminated()) }
            group.addTask {
                guard (try? await Task.sleep(for: initTimeout)) != nil else { return nil }
                return .tooSlow
            }
            var first: Start?
            while first == nil, let next = await group.next() { first = next }
            group.cancelAll()
            return first
        }
        switch start {
        case .started(.ready(let instant))?:
            pendingInitDuration = child.startedAt.duration(to: instant)
            process = child
            return child
        case .started(.initFailed(let reported))?:
            await stop(child)
            let error = Self.functionError(reported)
            throw .bootstrapDidNotStart("it reported an init error: \(error)")
        case .exited(let termination)?:
            throw .bootstrapDidNotStart("it exited (\(termination?.description ?? "unknown status")) before asking for an event")
        case .tooSlow?, nil:
            await stop(child)
            throw .bootstrapDidNotStart("it did not ask for an event within \(initTimeout) (init timeout)")
        }
    }

    /// Waits until the bootstrap asks for its next event after the invocation that ended with `result`, for up to
    /// ``BootstrapSettings/nextRequestLimit`` and no longer than the process lives. What it does once its answer is
    /// delivered (its log lines on the standard error it shares with this process, its metric line) is then done, so
    /// it comes before whatever the caller prints of the answer. Lambda, too, counts an invocation as ended only when
    /// the runtime asks for the next event.
    private func nextRequest(after result: InvocationResult, from process: ChildProcess) async {
        let (emulator, limit) = (self.emulator, settings.nextRequestLimit)
        await withTaskGroup(of: Void.self) { group in
            group.addTask { _ = await emulator.nextRequest(after: result.nextRequestCount) }
            group.addTask { _ = await process.terminated() }
            group.addTask { try? await Task.sleep(for: limit) }
            await group.next()
            group.cancelAll()
        }
    }

    private func stop(_ child: ChildProcess) async {
        child.kill()
        _ = await child.terminated()
        if process === child { process = nil }
    }

    /// The variables Lambda sets for a `provided.al2023` function, over the function's own.
    private func lambdaEnvironment(runtimeAPI: String) -> [String: String] {
        let function = settings.function
        let taskRoot = URL(fileURLWithPath: settings.path).deletingLastPathComponent().path
        return settings.environment.merging([
            "AWS_LAMBDA_RUNTIME_API": runtimeAPI,
            "AWS_LAMBDA_FUNCTION_NAME": function.name,
            "AWS_LAMBDA_FUNCTION_VERSION": "$LATEST",
            "AWS_LAMBDA_FUNCTION_MEMORY_SIZE": String(settings.memorySizeMB),
            "AWS_LAMBDA_LOG_GROUP_NAME": "/aws/lambda/\(function.name)",
            "AWS_LAMBDA_LOG_STREAM_NAME": "local/[$LATEST]cognito-local",
            "AWS_REGION": function.region,
            "AWS_DEFAULT_REGION": function.region,
            "_HANDLER": "bootstrap",
            "LAMBDA_TASK_ROOT": taskRoot,
            "LAMBDA_RUNTIME_DIR": taskRoot,
            "TZ": ":UTC",
        ]) { _, lambda in lambda }
    }

    /// An error as the runtime reported it: type and message from its body, the header's type as a fallback.
    private static func functionError(_ reported: ReportedError) -> FunctionOutcome {
        let body = (try? JSONValue(parsing: reported.body))?.objectValue
        let type = body?["errorType"]?.stringValue ?? reported.errorType
        let message = body?["errorMessage"]?.stringValue ?? String(decoding: reported.body, as: UTF8.self)
        return .functionError(type: type, message: message)
    }

    // MARK: One at a time

    private func acquire() async {
        guard busy else {
            busy = true
            return
        }
        await withCheckedContinuation { waiting.append($0) }
    }

    private func release() {
        if waiting.isEmpty {
            busy = false
        } else {
            waiting.removeFirst().resume()
        }
    }
}

extension FunctionOutcome: CustomStringConvertible {
    public var description: String {
        switch self {
        case .response(let bytes): "response of \(bytes.count) bytes"
        case .functionError(let type, let message): "\(type): \(message)"
        case .timedOut(let seconds): "Task timed out after \(LambdaFormat.seconds(seconds)) seconds"
        case .runtimeExited(let status): "Runtime exited with error: \(status)"
        }
    }
}
