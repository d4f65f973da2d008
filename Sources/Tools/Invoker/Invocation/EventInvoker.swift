import ChallengeFlows
import LosslessJSON

/// `cognito-local invoke`: one event file through a transport; the response to standard output, the account of
/// the invocation to standard error.
public struct EventInvoker {
    public let transport: any TriggerTransport
    public let console: Console
    /// Compact JSON instead of indented.
    public let raw: Bool
    /// Entries set in the event's `request.clientMetadata` (over those it has) before it is invoked; nil leaves the
    /// event as it is.
    public let clientMetadata: [String: String]?

    public init(transport: any TriggerTransport, console: Console, raw: Bool, clientMetadata: [String: String]? = nil) {
        self.transport = transport
        self.console = console
        self.raw = raw
        self.clientMetadata = clientMetadata
    }

    /// Runs the event at `path` (`-` for standard input). Throws for anything but a response, after printing what
    /// Lambda would have returned (the error payload).
    public func invoke(path: String) async throws(InvokerError) {
        var event = try EventFile.read(path)
        if let clientMetadata { event = try Self.setting(clientMetadata, in: event, path: path) }
        let trigger = (try? JSONValue(parsing: event))?.objectValue?["triggerSource"]?.stringValue
            .flatMap(TriggerSource.init(eventValue:))?.shortName ?? "(no triggerSource)"
        let invocation = try await transport.invoke(event)
        let style = console.diagnosticStyle
        let timing = style.paint(LambdaFormat.milliseconds(invocation.duration) + " ms", .dim)

        switch invocation.outcome {
        case .response(let bytes):
            let json = try? JSONValue(parsing: bytes)
            console.output(json.map { String(decoding: $0.serialized(raw ? .compact : .pretty), as: UTF8.self) }
                ?? String(decoding: bytes, as: UTF8.self))
            let decision = invocation.summary
                ?? (try? AuthChallengeEvent(parsing: bytes)).map(ResponseSummary.describe)
                ?? "response is not a trigger event"
            report(invocation)
            console.diagnostics("\(style.paint(trigger, .bold)) → \(style.paint(decision, .green)) · \(timing)")
        case .functionError(let type, let message):
            console.output(LambdaErrorPayload(type: type, message: message).json.text(raw ? .compact : .pretty))
            report(invocation)
            console.diagnostics("\(style.paint(trigger, .bold)) → \(style.paint("error \(type)", .red)) · \(timing)")
            throw .functionError(type: type, message: message)
        case .timedOut(let seconds):
            console.output(LambdaErrorPayload.timeout(requestId: invocation.requestId, seconds: seconds).json.text(raw ? .compact : .pretty))
            report(invocation)
            throw .timedOut(seconds: seconds)
        case .runtimeExited(let status):
            console.output(LambdaErrorPayload.runtimeExit(requestId: invocation.requestId, status: status).json.text(raw ? .compact : .pretty))
            report(invocation)
            throw .bootstrapCrashed("it exited while handling the event (\(status))")
        }
    }

    /// The event with `entries` set in `request.clientMetadata` (added when absent).
    static func setting(_ entries: [String: String], in event: [UInt8], path: String) throws(InvokerError) -> [UInt8] {
        guard var object = (try? JSONValue(parsing: event))?.objectValue, var request = object["request"]?.objectValue else {
            throw .usage("--client-metadata needs an event with a request object (\(path == "-" ? "standard input" : path) has none)")
        }
        var metadata = request["clientMetadata"]?.objectValue ?? JSONObject()
        for (key, value) in entries.sorted(by: { $0.key < $1.key }) { metadata[key] = .string(value) }
        request["clientMetadata"] = .object(metadata)
        object["request"] = .object(request)
        return JSONValue.object(object).serialized()
    }

    private func report(_ invocation: Invocation) {
        if let report = invocation.report { console.diagnostics(console.diagnosticStyle.paint(report.line, .dim)) }
        if let metrics = invocation.metrics { console.diagnostics(console.diagnosticStyle.paint(metrics, .dim)) }
    }
}

/// The body Lambda returns for a failed invocation: `{"errorMessage": …, "errorType": …}`.
public struct LambdaErrorPayload: Sendable, Equatable {
    public let type: String
    public let message: String

    public init(type: String, message: String) {
        self.type = type
        self.message = message
    }

    /// What Lambda answers when the deadline passes.
    public static func timeout(requestId: String, seconds: Double) -> Self {
        LambdaErrorPayload(
            type: "Sandbox.Timedout",
            message: "RequestId: \(requestId) Error: Task timed out after \(LambdaFormat.seconds(seconds)) seconds")
    }

    /// What Lambda answers when the runtime process exits during an invocation.
    public static func runtimeExit(requestId: String, status: String) -> Self {
        LambdaErrorPayload(type: "Runtime.ExitError", message: "RequestId: \(requestId) Error: Runtime exited with error: \(status)")
    }

    /// The payload for an outcome that is not a response; nil for a response.
    public init?(_ outcome: FunctionOutcome, requestId: String) {
        switch outcome {
        case .response: return nil
        case .functionError(let type, let message): self.init(type: type, message: message)
        case .timedOut(let seconds): self = .timeout(requestId: requestId, seconds: seconds)
        case .runtimeExited(let status): self = .runtimeExit(requestId: requestId, status: status)
        }
    }

    public var json: JSONValue {
        ["errorMessage": .string(message), "errorType": .string(type)]
    }
}
