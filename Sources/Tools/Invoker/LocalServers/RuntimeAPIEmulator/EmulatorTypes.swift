/// The function the emulator pretends to run, as its ARN names it.
public struct FunctionIdentity: Sendable, Equatable {
    public var name: String
    public var region: String
    public var account: String

    public init(name: String = "cognito-challenge", region: String = "us-east-1", account: String = "123456789012") {
        self.name = name
        self.region = region
        self.account = account
    }

    /// `arn:aws:lambda:REGION:ACCOUNT:function:NAME`, as `Lambda-Runtime-Invoked-Function-Arn` carries it.
    public var arn: String { "arn:aws:lambda:\(region):\(account):function:\(name)" }
}

/// An error a runtime reported with `/error` or `init/error`.
public struct ReportedError: Sendable, Equatable {
    /// The `Lambda-Runtime-Function-Error-Type` header (`Unhandled` when the runtime sent none).
    public let errorType: String
    /// The body as sent, normally `{"errorMessage":…,"errorType":…,"stackTrace":[]}`.
    public let body: [UInt8]

    public init(errorType: String, body: [UInt8]) {
        self.errorType = errorType
        self.body = body
    }
}

/// How an invocation ended.
public enum InvocationOutcome: Sendable, Equatable {
    /// The runtime posted this response.
    case response([UInt8])
    /// The runtime posted an error; or its response was over the size limit (`Function.ResponseSizeTooLarge`); or it
    /// failed to start (the `init/error` report).
    case functionError(ReportedError)
    /// The timeout passed after the runtime took the invocation; its late answer will be refused with 400.
    case timedOut
    /// The emulator shut down before the invocation was answered.
    case abandoned

    /// Whether the runtime answered: a response or an error it posted.
    public var isAnswer: Bool {
        switch self {
        case .response, .functionError: true
        case .timedOut, .abandoned: false
        }
    }
}

/// An invocation's outcome, with what the server saw of it.
public struct InvocationResult: Sendable {
    public let requestID: String
    public let outcome: InvocationOutcome
    /// From the moment the event was written to the runtime to the moment its answer arrived, as the server saw it;
    /// nil when the runtime never answered.
    public let runtimeDuration: Duration?
    /// How many times the runtime had asked for an invocation (`GET next`) when this one ended; see
    /// ``RuntimeAPIEmulator/nextRequest(after:)``.
    public let nextRequestCount: Int
}

/// How a runtime process started.
public enum RuntimeStart: Sendable, Equatable {
    /// It asked for its first invocation at this instant.
    case ready(ContinuousClock.Instant)
    /// It reported this error with `init/error`.
    case initFailed(ReportedError)
}

/// The Runtime API's endpoints, for fault injection.
public enum RuntimeEndpoint: Sendable, Hashable {
    case next, response, error, initError
}

/// Misbehaviour the emulator can be told to show once, for tests of a runtime's error handling.
public enum InjectedFault: Sendable, Equatable {
    /// Answer with this status and a short error body, without touching any invocation.
    case status(Int)
    /// Close the connection without answering.
    case closeConnection
}
