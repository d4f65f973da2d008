import Platform

/// A local Runtime API (2018-06-01) for one function, over HTTP on 127.0.0.1.
///
/// Start it, point a runtime's `AWS_LAMBDA_RUNTIME_API` at ``address``, then ``invoke(_:timeout:traceID:clientContext:cognitoIdentity:)``.
/// Invocations are handed to the runtime one at a time, in the order they were made; concurrent callers wait their
/// turn. Responses over 6 MiB are refused with 413, answers for unknown request ids with 400.
public final class RuntimeAPIEmulator: Sendable {
    /// Lambda's limit on a synchronous response.
    public static let responseLimit = 6 * 1024 * 1024

    public let function: FunctionIdentity
    private let broker = InvocationBroker()
    private let server = LocalHTTPServer()
    private let isShutDown = PosixLock(false)

    public init(function: FunctionIdentity = FunctionIdentity()) {
        self.function = function
    }

    /// Listens on `host:port` (port 0 picks a free one) and returns the `host:port` to give a runtime.
    @discardableResult
    public func start(host: String = "127.0.0.1", port: Int = 0) async throws -> String {
        let broker = self.broker
        let function = self.function
        let bound = try await server.start(
            host: host, port: port,
            connectionHandler: { RuntimeAPIHandler(broker: broker, function: function, responseLimit: Self.responseLimit) })
        return "\(bound.ip):\(bound.port)"
    }

    /// `host:port` of the running server.
    public var address: String {
        get throws {
            guard let bound = server.address else { throw RuntimeAPIEmulatorError.notStarted }
            return "\(bound.ip):\(bound.port)"
        }
    }

    /// Hands an event to the runtime (after any invocations already waiting) and waits for its answer. Cancelling the
    /// calling task ends the invocation as ``InvocationOutcome/abandoned``.
    ///
    /// - Parameters:
    ///   - timeout: how long the runtime has, from the moment it receives the event; also sets
    ///     `Lambda-Runtime-Deadline-Ms`.
    ///   - traceID: `Lambda-Runtime-Trace-Id`; a fresh X-Ray id when nil.
    ///   - clientContext: `Lambda-Runtime-Client-Context`, sent only when given.
    ///   - cognitoIdentity: `Lambda-Runtime-Cognito-Identity`, sent only when given.
    public func invoke(
        _ event: [UInt8], timeout: Duration = .seconds(3), traceID: String? = nil, clientContext: String? = nil,
        cognitoIdentity: String? = nil
    ) async -> InvocationResult {
        var headers = [("Lambda-Runtime-Trace-Id", traceID ?? Identifiers.traceID())]
        if let clientContext { headers.append(("Lambda-Runtime-Client-Context", clientContext)) }
        if let cognitoIdentity { headers.append(("Lambda-Runtime-Cognito-Identity", cognitoIdentity)) }
        let requestID = Identifiers.requestID()
        return await withTaskCancellationHandler {
            await withCheckedContinuation { caller in
                broker.enqueue(
                    InvocationBroker.Invocation(
                        requestID: requestID, event: event, timeout: timeout, headers: headers, caller: caller))
            }
        } onCancel: {
            broker.cancel(requestID)
        }
    }

    /// Waits until the runtime asks for its first invocation (with the instant it did) or reports `init/error`.
    /// Throws `CancellationError` when the waiting task is cancelled.
    public func runtimeStart() async throws -> RuntimeStart {
        try await broker.runtimeStart()
    }

    /// How many times a runtime has asked this emulator for an invocation (`GET next`).
    public var nextRequestCount: Int { broker.nextRequestCount }

    /// Waits until a runtime has asked for an invocation more than `count` times. Given an invocation's
    /// ``InvocationResult/nextRequestCount``, it waits for the runtime's first `GET next` after that invocation ended:
    /// the runtime has then done what it does after its answer, and Lambda counts the invocation as ended.
    /// Returns true then; false when the emulator shuts down (or has) or the calling task is cancelled first.
    public func nextRequest(after count: Int) async -> Bool {
        await broker.nextRequest(after: count)
    }

    /// Forgets how the last runtime started, before starting another one against the same emulator.
    public func expectNewRuntime() {
        broker.expectNewRuntime()
    }

    /// Makes the next request to `endpoint` fail this way (once).
    public func inject(_ fault: InjectedFault, on endpoint: RuntimeEndpoint) {
        broker.inject(fault, on: endpoint)
    }

    /// Closes every connection and stops; invocations not yet answered end as ``InvocationOutcome/abandoned``, and
    /// waits of ``nextRequest(after:)`` end with false. Calling it again does nothing.
    public func shutdown() async {
        guard isShutDown.withLock({ wasShutDown in defer { wasShutDown = true }; return !wasShutDown }) else { return }
        broker.abandonAll()
        await server.shutdown()
    }
}

public enum RuntimeAPIEmulatorError: Error, Sendable, CustomStringConvertible {
    case notStarted

    public var description: String {
        switch self {
        case .notStarted: "the Runtime API emulator is not listening: call start() first"
        }
    }
}
