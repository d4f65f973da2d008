#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// What the Runtime API says about one invocation, handed to the handler with the event.
public struct LambdaContext: Sendable {
    /// `Lambda-Runtime-Aws-Request-Id`.
    public let requestID: String
    /// `Lambda-Runtime-Deadline-Ms`: when the invocation times out, in milliseconds since the Unix epoch.
    public let deadlineMilliseconds: Int64
    /// `Lambda-Runtime-Invoked-Function-Arn`.
    public let invokedFunctionARN: String
    /// `Lambda-Runtime-Trace-Id` (also in the `_X_AMZN_TRACE_ID` environment variable during the invocation).
    public let traceID: String?
    /// `Lambda-Runtime-Client-Context`: the mobile SDK's client context, as JSON text.
    public let clientContext: String?
    /// `Lambda-Runtime-Cognito-Identity`: the mobile SDK's Cognito identity, as JSON text.
    public let cognitoIdentity: String?
    /// Writes in Lambda's log format, tagged with this invocation's request id.
    public let logger: LambdaLogger
    /// Set on the first invocation of a process only (a cold start): how long the runtime took from its start to
    /// its first request for an event, building the handler included. Lambda's own `Init Duration` also counts
    /// loading the executable, before the runtime's first line runs.
    public var initDuration: Duration?

    public init(
        requestID: String, deadlineMilliseconds: Int64, invokedFunctionARN: String, traceID: String? = nil,
        clientContext: String? = nil, cognitoIdentity: String? = nil, logger: LambdaLogger, initDuration: Duration? = nil
    ) {
        self.requestID = requestID
        self.deadlineMilliseconds = deadlineMilliseconds
        self.invokedFunctionARN = invokedFunctionARN
        self.traceID = traceID
        self.clientContext = clientContext
        self.cognitoIdentity = cognitoIdentity
        self.logger = logger
        self.initDuration = initDuration
    }

    /// True on the first invocation of a process.
    public var isColdStart: Bool { initDuration != nil }

    /// Time left before the deadline; negative once it has passed.
    public var remainingTime: Duration {
        .milliseconds(deadlineMilliseconds) - WallClock.sinceEpoch()
    }
}

/// Reads the real-time clock, which the Runtime API's deadlines are expressed in.
enum WallClock {
    static func sinceEpoch() -> Duration {
        var now = timespec()
        clock_gettime(CLOCK_REALTIME, &now)
        return .seconds(now.tv_sec) + .nanoseconds(now.tv_nsec)
    }
}
