/// How one invocation of the function ended.
public enum FunctionOutcome: Sendable, Equatable {
    /// The function answered: the response event's bytes.
    case response([UInt8])
    /// The function reported an error (Lambda's `errorType` and `errorMessage`).
    case functionError(type: String, message: String)
    /// No answer before the deadline; the function was stopped.
    case timedOut(seconds: Double)
    /// The function's process ended while it held the invocation, e.g. `exit status 1` or `signal 9`.
    case runtimeExited(String)
}

/// One invocation: what came back, how long it took, and what the function decided.
public struct Invocation: Sendable {
    public let requestId: String
    public let outcome: FunctionOutcome
    /// The function's own one-line account of its decision, when the transport can see it (in-process).
    public let summary: String?
    /// From handing over the event to receiving the answer.
    public let duration: Duration
    /// Lambda's figures for the invocation, when it ran in a bootstrap process.
    public let report: ExecutionReport?
    /// The invocation's metric line (CloudWatch's embedded metric format, without its newline), when the transport
    /// was asked for metrics and the function wrote one.
    public let metrics: String?

    public init(
        requestId: String, outcome: FunctionOutcome, summary: String? = nil, duration: Duration,
        report: ExecutionReport? = nil, metrics: String? = nil
    ) {
        self.requestId = requestId
        self.outcome = outcome
        self.summary = summary
        self.duration = duration
        self.report = report
        self.metrics = metrics
    }
}

/// Lambda's measurements of one invocation in a bootstrap process, as its REPORT log line gives them.
public struct ExecutionReport: Sendable, Equatable {
    public let requestId: String
    public let duration: Duration
    /// How long the bootstrap took from start to its first request for an event; only on a cold start.
    public let initDuration: Duration?
    public let memorySizeMB: Int
    /// The process's peak resident memory so far, measured by the kernel; nil when the platform cannot tell.
    public let maxMemoryUsedMB: Int?

    public init(requestId: String, duration: Duration, initDuration: Duration?, memorySizeMB: Int, maxMemoryUsedMB: Int?) {
        self.requestId = requestId
        self.duration = duration
        self.initDuration = initDuration
        self.memorySizeMB = memorySizeMB
        self.maxMemoryUsedMB = maxMemoryUsedMB
    }

    /// Lambda bills whole milliseconds, rounding up.
    public var billedMilliseconds: Int { max(1, Int(duration.milliseconds.rounded(.up))) }

    /// `REPORT RequestId: … Duration: … ms Billed Duration: … ms Memory Size: … MB Max Memory Used: … MB Init Duration: … ms`
    public var line: String {
        var fields = [
            "REPORT RequestId: \(requestId)", "Duration: \(LambdaFormat.milliseconds(duration)) ms",
            "Billed Duration: \(billedMilliseconds) ms", "Memory Size: \(memorySizeMB) MB",
        ]
        if let maxMemoryUsedMB { fields.append("Max Memory Used: \(maxMemoryUsedMB) MB") }
        if let initDuration { fields.append("Init Duration: \(LambdaFormat.milliseconds(initDuration)) ms") }
        return fields.joined(separator: "\t")
    }
}

/// Runs the function on one event. Two implementations: in this process (``InProcessTransport``) and in the real
/// `bootstrap` behind a local Runtime API (``BootstrapTransport``); everything above works with either.
public protocol TriggerTransport: AnyObject, Sendable {
    /// Where the function runs, for transcripts: `in-process`, `bootstrap .build/debug/bootstrap`.
    var label: String { get }
    /// Hands the event to the function and waits for its outcome. Throws only when the function cannot be run at
    /// all (e.g. a bootstrap that does not start).
    func invoke(_ event: [UInt8]) async throws(InvokerError) -> Invocation
    /// Stops whatever the transport started.
    func shutdown() async
}
