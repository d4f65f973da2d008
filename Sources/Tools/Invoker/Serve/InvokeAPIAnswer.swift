import LosslessJSON

/// What the Lambda Invoke API (`POST /2015-03-31/functions/{name}/invocations`) answers for one request, as the
/// Runtime Interface Emulator and Lambda itself answer it.
struct InvokeAPIAnswer: LocalHTTPAnswer {
    let status: Int
    let headers: [(String, String)]
    let body: [UInt8]

    /// The answer for an invocation: 200 with the response, or 200 with `X-Amz-Function-Error: Unhandled` and
    /// `{"errorType","errorMessage"}` when the function failed, timed out or its process ended.
    init(_ invocation: Invocation) {
        let common = [("X-Amzn-RequestId", invocation.requestId), ("X-Amz-Executed-Version", "$LATEST")]
        switch invocation.outcome {
        case .response(let bytes):
            self.init(status: 200, headers: common, body: bytes)
        case .functionError(let type, let message):
            self.init(functionError: type, message: message, headers: common)
        case .timedOut:
            self.init(functionError: "Sandbox.Timedout", message: invocation.outcome.description, headers: common)
        case .runtimeExited:
            self.init(functionError: "Runtime.ExitError", message: invocation.outcome.description, headers: common)
        }
    }

    /// The function could not be run at all (a bootstrap that does not start): Lambda's 502.
    init(cannotRun error: InvokerError) {
        self.init(
            status: 502, headers: [("X-Amz-Function-Error", "Unhandled")],
            body: Self.errorBody(type: "Runtime.InitError", message: error.description))
    }

    /// Anything but a POST to the invocations path.
    static func notFound(method: String, path: String) -> InvokeAPIAnswer {
        InvokeAPIAnswer(
            status: 404, headers: [],
            body: Self.errorBody(
                type: "ResourceNotFoundException",
                message: "\(method) \(path) is not the Invoke API: POST /2015-03-31/functions/function/invocations"))
    }

    /// An invocation whose body is not declared JSON: Lambda's 415.
    static func unsupportedMediaType(_ contentType: String?) -> InvokeAPIAnswer {
        InvokeAPIAnswer(
            status: 415, headers: [],
            body: Self.errorBody(
                type: "UnsupportedMediaTypeException",
                message: "the Invoke API takes a JSON event: send it with Content-Type: application/json (this request "
                    + (contentType.map { "has Content-Type: \($0)" } ?? "has no Content-Type and comes from a web page")
                    + ")"))
    }

    private init(functionError type: String, message: String, headers: [(String, String)]) {
        self.init(
            status: 200, headers: headers + [("X-Amz-Function-Error", "Unhandled")],
            body: Self.errorBody(type: type, message: message))
    }

    private init(status: Int, headers: [(String, String)], body: [UInt8]) {
        self.status = status
        self.headers = [("Content-Type", "application/json")] + headers
        self.body = body
    }

    private static func errorBody(type: String, message: String) -> [UInt8] {
        JSONValue.object(JSONObject([("errorType", .string(type)), ("errorMessage", .string(message))])).serialized()
    }

    /// True for `POST /2015-03-31/functions/{any name}/invocations`.
    static func isInvocation(method: String, path: String) -> Bool {
        let parts = path.split(separator: "?", maxSplits: 1)[0].split(separator: "/")
        return method == "POST" && parts.count == 4 && parts[0] == "2015-03-31" && parts[1] == "functions"
            && parts[3] == "invocations"
    }
}
