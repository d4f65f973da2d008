/// The Lambda Runtime API (2018-06-01) as the runtime loop uses it. The runtime speaks it over HTTP to
/// `AWS_LAMBDA_RUNTIME_API`; a test hands ``LambdaRuntime/serve(api:logger:startedAt:makeHandler:)`` one of its own
/// to drive the loop in process, without a socket.
public protocol RuntimeAPI {
    /// Waits for the next invocation; nil when the runtime is to stop (SIGTERM arrived while it waited).
    func next() throws(RuntimeAPIFailure) -> RuntimeInvocation?
    /// Sends the handler's answer for an invocation (`…/invocation/{id}/response`).
    func sendResponse(_ body: [UInt8], for requestID: String) throws(RuntimeAPIFailure) -> Delivery
    /// Sends the handler's error for an invocation (`…/invocation/{id}/error`).
    func sendError(_ report: ErrorReport, for requestID: String) throws(RuntimeAPIFailure) -> Delivery
    /// Reports that the handler could not be built (`init/error`); Lambda then ends the runtime.
    func sendInitError(_ report: ErrorReport) throws(RuntimeAPIFailure)
}

/// One invocation as `GET …/invocation/next` delivers it: the event and its `Lambda-Runtime-*` headers.
public struct RuntimeInvocation: Sendable, Equatable {
    public var event: [UInt8]
    /// `Lambda-Runtime-Aws-Request-Id`.
    public var requestID: String
    /// `Lambda-Runtime-Deadline-Ms`.
    public var deadlineMilliseconds: Int64
    /// `Lambda-Runtime-Invoked-Function-Arn`.
    public var invokedFunctionARN: String
    /// `Lambda-Runtime-Trace-Id`.
    public var traceID: String?
    /// `Lambda-Runtime-Client-Context`.
    public var clientContext: String?
    /// `Lambda-Runtime-Cognito-Identity`.
    public var cognitoIdentity: String?

    public init(
        event: [UInt8], requestID: String, deadlineMilliseconds: Int64, invokedFunctionARN: String = "",
        traceID: String? = nil, clientContext: String? = nil, cognitoIdentity: String? = nil
    ) {
        self.event = event
        self.requestID = requestID
        self.deadlineMilliseconds = deadlineMilliseconds
        self.invokedFunctionARN = invokedFunctionARN
        self.traceID = traceID
        self.clientContext = clientContext
        self.cognitoIdentity = cognitoIdentity
    }
}

/// What became of a response or error sent for an invocation.
public enum Delivery: Sendable, Equatable {
    case accepted
    /// Lambda would not take it (400: unknown or finished invocation; 413: response too large), but the runtime may go
    /// on: the reason says what happened.
    case refused(reason: String)
}

/// The Runtime API cannot be used any more: the runtime must exit and let Lambda start it again.
public struct RuntimeAPIFailure: Error, Sendable, CustomStringConvertible {
    public let description: String

    public init(description: String) {
        self.description = description
    }
}
