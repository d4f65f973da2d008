import Basics
import Platform

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
    /// Where ``afterDelivery(_:)`` leaves its work; nil for a context made outside the runtime loop.
    let followUps: DeliveryFollowUps?

    public init(
        requestID: String, deadlineMilliseconds: Int64, invokedFunctionARN: String, traceID: String? = nil,
        clientContext: String? = nil, cognitoIdentity: String? = nil, logger: LambdaLogger, initDuration: Duration? = nil
    ) {
        let invocation = RuntimeInvocation(
            event: [], requestID: requestID, deadlineMilliseconds: deadlineMilliseconds,
            invokedFunctionARN: invokedFunctionARN, traceID: traceID, clientContext: clientContext,
            cognitoIdentity: cognitoIdentity)
        self.init(invocation, logger: logger, initDuration: initDuration, followUps: nil)
    }

    /// The context of `invocation` in the runtime loop, whose ``afterDelivery(_:)`` leaves work to `followUps`.
    init(_ invocation: RuntimeInvocation, logger: LambdaLogger, initDuration: Duration?, followUps: DeliveryFollowUps?) {
        requestID = invocation.requestID
        deadlineMilliseconds = invocation.deadlineMilliseconds
        invokedFunctionARN = invocation.invokedFunctionARN
        traceID = invocation.traceID
        clientContext = invocation.clientContext
        cognitoIdentity = invocation.cognitoIdentity
        self.logger = logger
        self.initDuration = initDuration
        self.followUps = followUps
    }

    /// Runs `work` once this invocation's answer (its response or its error) has been delivered to Lambda, so that
    /// what the caller does not wait for, such as a metric line, does not delay the answer. Lambda freezes the process
    /// only when the runtime asks for the next event, which it does after the work. A context made outside the runtime
    /// loop (in a test) runs the work at once.
    public func afterDelivery(_ work: @escaping @Sendable () -> Void) {
        if let followUps { followUps.add(work) } else { work() }
    }

    /// True on the first invocation of a process.
    public var isColdStart: Bool { initDuration != nil }

    /// Time left before the deadline; negative once it has passed.
    public var remainingTime: Duration {
        .milliseconds(deadlineMilliseconds) - WallTime.now().sinceEpoch
    }
}

/// The work invocations leave for after their answers are delivered, run by the runtime loop.
final class DeliveryFollowUps: Sendable {
    private let pending: PosixLock<[@Sendable () -> Void]>

    /// Allocates the list's storage at once, during init: Swift builds the type information of an array's storage
    /// when the first one is allocated, which would otherwise fall to the first invocation.
    init() {
        var pending: [@Sendable () -> Void] = []
        pending.reserveCapacity(2)
        self.pending = PosixLock(pending)
    }

    func add(_ work: @escaping @Sendable () -> Void) {
        pending.withLock { $0.append(work) }
    }

    /// Runs the work left so far, in the order it was left, and any that work leaves in turn.
    func run() {
        // The list and an emptied one change places, so that neither is copied nor allocated again: the storage
        // reserved during init goes back and forth between them.
        var work: [@Sendable () -> Void] = []
        while true {
            pending.withLock { swap(&$0, &work) }
            guard !work.isEmpty else { return }
            for item in work { item() }
            work.removeAll(keepingCapacity: true)
        }
    }
}

/// A reading of the real-time clock, which the Runtime API's deadlines and log timestamps are expressed in: whole
/// seconds since the Unix epoch and the nanoseconds past them, as the clock gives them. Kept as two integers because
/// a `Duration` holds 128-bit attoseconds, and converting to and from them took a log line ~600 instructions.
struct WallTime: Sendable, Equatable {
    let seconds: Int64
    /// 0 to 999,999,999.
    let nanoseconds: Int32

    init(seconds: Int64, nanoseconds: Int32 = 0) {
        precondition((0..<1_000_000_000).contains(nanoseconds), "nanoseconds must be 0 to 999,999,999")
        self.seconds = seconds
        self.nanoseconds = nanoseconds
    }

    static func now() -> WallTime {
        var now = timespec()
        clock_gettime(CLOCK_REALTIME, &now)
        return WallTime(seconds: Int64(now.tv_sec), nanoseconds: Int32(truncatingIfNeeded: now.tv_nsec))
    }

    var sinceEpoch: Duration { .seconds(seconds) + .nanoseconds(nanoseconds) }
}
