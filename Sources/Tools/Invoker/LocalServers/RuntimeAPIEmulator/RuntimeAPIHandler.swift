import NIOCore
import NIOHTTP1

/// Serves the Runtime API (2018-06-01) on one connection: collects each request, routes it to the broker, answers.
final class RuntimeAPIHandler: ChannelInboundHandler {
    typealias InboundIn = HTTPServerRequestPart
    typealias OutboundOut = HTTPServerResponsePart

    private static let prefix = "/2018-06-01/runtime/"

    private let broker: InvocationBroker
    private let function: FunctionIdentity
    private let responseLimit: Int
    private var head: HTTPRequestHead?
    private var body: [UInt8] = []
    private var bodySize = 0

    init(broker: InvocationBroker, function: FunctionIdentity, responseLimit: Int) {
        self.broker = broker
        self.function = function
        self.responseLimit = responseLimit
    }

    func channelRead(context: ChannelHandlerContext, data: NIOAny) {
        switch unwrapInboundIn(data) {
        case .head(let head):
            self.head = head
            body.removeAll(keepingCapacity: true)
            bodySize = 0
        case .body(let part):
            bodySize += part.readableBytes
            // Bytes past the limit are counted, not kept: an oversized response is refused by its size alone.
            body += part.readableBytesView.prefix(max(0, responseLimit + 1 - body.count))
        case .end:
            guard let head else { return }
            self.head = nil
            route(head, context: context)
        }
    }

    func channelInactive(context: ChannelHandlerContext) {
        broker.channelClosed(ObjectIdentifier(context.channel))
        context.fireChannelInactive()
    }

    private func route(_ head: HTTPRequestHead, context: ChannelHandlerContext) {
        let path = head.uri.hasPrefix(Self.prefix) ? head.uri.dropFirst(Self.prefix.count).split(separator: "/") : []
        switch (head.method, path.count, path.first, path.last) {
        case (.GET, 2, "invocation", "next"):
            guard !injectedFault(.next, context: context) else { return }
            serveNext(context: context)
        case (.POST, 3, "invocation", "response"):
            guard !injectedFault(.response, context: context) else { return }
            let requestID = String(path[1])
            if bodySize > responseLimit {
                let tooLarge = ReportedError(
                    errorType: "Function.ResponseSizeTooLarge",
                    body: Array(
                        ("{\"errorMessage\":\"Response payload size (\(bodySize) bytes) exceeded maximum allowed "
                            + "payload size (\(responseLimit) bytes).\",\"errorType\":\"Function.ResponseSizeTooLarge\"}")
                            .utf8))
                let known = broker.finish(requestID, with: .functionError(tooLarge))
                if known { respond(.payloadTooLarge, context: context) } else { refuseUnknown(context: context) }
            } else {
                let known = broker.finish(requestID, with: .response(body))
                if known { respond(.accepted, context: context) } else { refuseUnknown(context: context) }
            }
        case (.POST, 3, "invocation", "error"):
            guard !injectedFault(.error, context: context) else { return }
            let known = broker.finish(String(path[1]), with: .functionError(reportedError(head)))
            if known { respond(.accepted, context: context) } else { refuseUnknown(context: context) }
        case (.POST, 2, "init", "error"):
            guard !injectedFault(.initError, context: context) else { return }
            broker.initFailed(reportedError(head))
            respond(.accepted, context: context)
        default:
            respond(.notFound, context: context)
        }
    }

    private func reportedError(_ head: HTTPRequestHead) -> ReportedError {
        ReportedError(errorType: head.headers.first(name: "Lambda-Runtime-Function-Error-Type") ?? "Unhandled", body: body)
    }

    private func serveNext(context: ChannelHandlerContext) {
        switch broker.next(channel: ObjectIdentifier(context.channel), eventLoop: context.eventLoop) {
        case .invocation(let invocation):
            send(invocation, context: context)
        case .wait(let future):
            future.assumeIsolated().whenSuccess { [self] invocation in send(invocation, context: context) }
        }
    }

    private func send(_ invocation: InvocationBroker.Invocation, context: ChannelHandlerContext) {
        let deadline = broker.markSent(invocation, on: context.eventLoop)
        var headers = HTTPHeaders([
            ("Content-Type", "application/json"),
            ("Lambda-Runtime-Aws-Request-Id", invocation.requestID),
            ("Lambda-Runtime-Deadline-Ms", String(deadline)),
            ("Lambda-Runtime-Invoked-Function-Arn", function.arn),
        ])
        headers.add(contentsOf: invocation.headers)
        let broker = self.broker
        respond(.ok, headers: headers, body: invocation.event, context: context).whenFailure { _ in
            broker.requeue(invocation.requestID)
        }
    }

    /// 400, as Lambda answers for a request id that is not an open invocation (unknown, answered or timed out).
    private func refuseUnknown(context: ChannelHandlerContext) {
        let body = "{\"errorMessage\":\"no open invocation has this request id\",\"errorType\":\"InvalidRequestID\"}"
        respond(.badRequest, body: Array(body.utf8), context: context)
    }

    /// Answers with the injected fault for this endpoint, if there is one; true when it did.
    private func injectedFault(_ endpoint: RuntimeEndpoint, context: ChannelHandlerContext) -> Bool {
        switch broker.takeFault(for: endpoint) {
        case nil:
            return false
        case .closeConnection:
            context.close(promise: nil)
        case .status(let code):
            let body = "{\"errorMessage\":\"injected fault\",\"errorType\":\"InjectedFault\"}"
            respond(HTTPResponseStatus(statusCode: code), body: Array(body.utf8), context: context)
        }
        return true
    }

    @discardableResult
    private func respond(
        _ status: HTTPResponseStatus, headers: HTTPHeaders = HTTPHeaders(), body: [UInt8] = [],
        context: ChannelHandlerContext
    ) -> EventLoopFuture<Void> {
        var headers = headers
        headers.replaceOrAdd(name: "Content-Length", value: String(body.count))
        context.write(wrapOutboundOut(.head(HTTPResponseHead(version: .http1_1, status: status, headers: headers))), promise: nil)
        if !body.isEmpty {
            context.write(wrapOutboundOut(.body(.byteBuffer(context.channel.allocator.buffer(bytes: body)))), promise: nil)
        }
        return context.writeAndFlush(wrapOutboundOut(.end(nil)))
    }
}
