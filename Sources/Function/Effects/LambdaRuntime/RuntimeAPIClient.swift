import CurlHTTP

extension RuntimeInvocation {
    /// Reads a successful `next` answer: its `Lambda-Runtime-*` headers and the event in its body; nil when the
    /// request id or a numeric deadline is missing.
    init?(nextResponse response: HTTPResponse) {
        guard let requestID = response.header("Lambda-Runtime-Aws-Request-Id"), !requestID.isEmpty,
            let deadline = response.header("Lambda-Runtime-Deadline-Ms").flatMap({ Int64($0) })
        else { return nil }
        self.init(
            event: response.body, requestID: requestID, deadlineMilliseconds: deadline,
            invokedFunctionARN: response.header("Lambda-Runtime-Invoked-Function-Arn") ?? "",
            traceID: response.header("Lambda-Runtime-Trace-Id"),
            clientContext: response.header("Lambda-Runtime-Client-Context"),
            cognitoIdentity: response.header("Lambda-Runtime-Cognito-Identity"))
    }
}

/// Speaks the Runtime API (2018-06-01) over one reused libcurl handle.
final class RuntimeAPIClient: RuntimeAPI {
    /// The largest response Lambda takes from a function, as the 413 message quotes it.
    static let responseLimit = 6 * 1024 * 1024

    private let session: CurlSession
    private let address: String
    private let base: String
    /// `base` + `invocation/`, which every invocation's answer goes under.
    private let invocationBase: String
    private let nextRequest: HTTPRequest
    private let shouldStop: @Sendable () -> Bool

    /// - Parameter shouldStop: polled while waiting for the next invocation; when it returns true, ``next(logger:)``
    ///   gives up and returns nil.
    init(address: String, shouldStop: @escaping @Sendable () -> Bool) throws(RuntimeAPIFailure) {
        do {
            session = try CurlSession(usesProxies: false)
        } catch {
            throw RuntimeAPIFailure(description: "cannot start libcurl: \(error)")
        }
        self.address = address
        self.shouldStop = shouldStop
        base = "http://\(address)/2018-06-01/runtime/"
        invocationBase = base + "invocation/"
        nextRequest = HTTPRequest(method: .get, url: invocationBase + "next", abortCheck: shouldStop)
    }

    /// Waits, for as long as it takes, for the next invocation; nil when `shouldStop` asked to stop first.
    func next() throws(RuntimeAPIFailure) -> RuntimeInvocation? {
        if shouldStop() { return nil }
        let response: HTTPResponse
        do {
            response = try session.perform(nextRequest)
        } catch where error.wasAborted {
            return nil
        } catch {
            throw unreachable("GET next", error)
        }
        guard response.status == 200 else { throw unexpected("GET next", response) }
        guard let invocation = RuntimeInvocation(nextResponse: response) else {
            throw RuntimeAPIFailure(
                description: "the Runtime API at \(address) sent an invocation without a request id or deadline")
        }
        return invocation
    }

    /// `…/invocation/{requestID}{suffix}`, its bytes written once into a string of its final size (`+` and `+=`
    /// would copy the string at each piece).
    private func invocationURL(_ requestID: String, _ suffix: StaticString) -> String {
        var prefix = invocationBase, requestID = requestID
        return prefix.withUTF8 { prefix in
            requestID.withUTF8 { requestID in
                let suffix = UnsafeBufferPointer(start: suffix.utf8Start, count: suffix.utf8CodeUnitCount)
                return String(unsafeUninitializedCapacity: prefix.count + requestID.count + suffix.count) { url in
                    var end = url.initialize(fromContentsOf: prefix)
                    end = url[end...].initialize(fromContentsOf: requestID)
                    return url[end...].initialize(fromContentsOf: suffix)
                }
            }
        }
    }

    func sendResponse(_ body: [UInt8], for requestID: String) throws(RuntimeAPIFailure) -> Delivery {
        try deliver(HTTPRequest(method: .post, url: invocationURL(requestID, "/response"), body: body))
    }

    func sendError(_ report: ErrorReport, for requestID: String) throws(RuntimeAPIFailure) -> Delivery {
        try deliver(errorRequest(report, url: invocationURL(requestID, "/error")))
    }

    /// Reports a failure to start; Lambda then ends the runtime.
    func sendInitError(_ report: ErrorReport) throws(RuntimeAPIFailure) {
        if case .refused(let reason) = try deliver(errorRequest(report, url: base + "init/error")) {
            throw RuntimeAPIFailure(description: reason)
        }
    }

    private func errorRequest(_ report: ErrorReport, url: String) -> HTTPRequest {
        HTTPRequest(
            method: .post, url: url,
            headers: [
                HTTPHeader("Lambda-Runtime-Function-Error-Type", report.errorType),
                HTTPHeader("Content-Type", "application/vnd.aws.lambda.error+json"),
            ],
            body: report.body)
    }

    private func deliver(_ request: HTTPRequest) throws(RuntimeAPIFailure) -> Delivery {
        // Named only when something went wrong: an accepted response costs no string work.
        var endpoint: String { "POST " + request.url.dropFirst(base.count) }
        let response: HTTPResponse
        do {
            response = try session.perform(request)
        } catch {
            throw unreachable(endpoint, error)
        }
        switch response.status {
        case 200..<300:
            return .accepted
        case 400:
            return .refused(reason: "\(endpoint) was refused (400, no such open invocation): \(Self.text(response))")
        case 413:
            return .refused(
                reason: "\(endpoint) was refused (413): the response's \(request.body.count) bytes exceed Lambda's "
                    + "\(Self.responseLimit)-byte limit; the invocation fails with Function.ResponseSizeTooLarge")
        default:
            throw unexpected(endpoint, response)
        }
    }

    private func unreachable(_ endpoint: String, _ error: CurlError) -> RuntimeAPIFailure {
        RuntimeAPIFailure(description: "\(endpoint): the Runtime API at \(address) cannot be reached: \(error.message)")
    }

    private func unexpected(_ endpoint: String, _ response: HTTPResponse) -> RuntimeAPIFailure {
        RuntimeAPIFailure(
            description: "\(endpoint): the Runtime API at \(address) answered \(response.status): \(Self.text(response))")
    }

    /// The start of an answer's body, for messages.
    private static func text(_ response: HTTPResponse) -> String {
        String(decoding: response.body.prefix(300), as: UTF8.self)
    }
}
