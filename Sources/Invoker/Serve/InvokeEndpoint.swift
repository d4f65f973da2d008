import NIOCore
import NIOHTTP1
import NIOPosix
import Synchronization

/// A local Lambda Invoke API in front of a transport, compatible with the Runtime Interface Emulator: `curl` and
/// `aws lambda invoke --endpoint-url` work against it. Each connection is served as its own task; the transport runs
/// invocations one at a time, so concurrent callers wait their turn instead of being dropped.
public final class InvokeEndpoint: Sendable {
    private let transport: any TriggerTransport
    private let onInvocation: @Sendable (Invocation) -> Void
    private let group = MultiThreadedEventLoopGroup(numberOfThreads: 1)
    private let server = Mutex<(any Channel)?>(nil)
    private let acceptLoop = Mutex<Task<Void, Never>?>(nil)

    /// - Parameter onInvocation: told about every invocation once it has been answered (for a log line).
    public init(transport: any TriggerTransport, onInvocation: @escaping @Sendable (Invocation) -> Void = { _ in }) {
        self.transport = transport
        self.onInvocation = onInvocation
    }

    /// Listens on `host:port` (port 0 picks a free one) and returns `host:port`.
    public func start(host: String = "127.0.0.1", port: Int = 9000) async throws -> String {
        let listener = try await ServerBootstrap(group: group)
            .serverChannelOption(.socketOption(.so_reuseaddr), value: 1)
            .childChannelOption(.socketOption(.tcp_nodelay), value: 1)
            .bind(host: host, port: port) { channel in
                channel.eventLoop.makeCompletedFuture {
                    try channel.pipeline.syncOperations.configureHTTPServerPipeline()
                    return try NIOAsyncChannel<HTTPServerRequestPart, HTTPServerResponsePart>(
                        wrappingChannelSynchronously: channel)
                }
            }
        server.withLock { $0 = listener.channel }
        let transport = self.transport
        let onInvocation = self.onInvocation
        acceptLoop.withLock {
            $0 = Task {
                try? await withThrowingDiscardingTaskGroup { connections in
                    try await listener.executeThenClose { accepted in
                        for try await connection in accepted {
                            connections.addTask {
                                await Self.serve(connection, transport: transport, onInvocation: onInvocation)
                            }
                        }
                    }
                }
            }
        }
        guard let address = listener.channel.localAddress, let ip = address.ipAddress, let port = address.port else {
            throw InvokerError.usage("the invoke endpoint has no local address")
        }
        return "\(ip):\(port)"
    }

    /// Stops listening, closes every connection and waits for the event loop to end.
    public func shutdown() async {
        let channel = server.withLock { channel in defer { channel = nil }; return channel }
        try? await channel?.close()
        acceptLoop.withLock { $0?.cancel() }
        try? await group.shutdownGracefully()
    }

    private static func serve(
        _ connection: NIOAsyncChannel<HTTPServerRequestPart, HTTPServerResponsePart>, transport: any TriggerTransport,
        onInvocation: @Sendable (Invocation) -> Void
    ) async {
        try? await connection.executeThenClose { inbound, outbound in
            var head: HTTPRequestHead?
            var body = ByteBuffer()
            for try await part in inbound {
                switch part {
                case .head(let requestHead):
                    head = requestHead
                    body.clear()
                case .body(var chunk):
                    body.writeBuffer(&chunk)
                case .end:
                    guard let request = head else { continue }
                    head = nil
                    let answer = await answer(request, body: Array(body.readableBytesView), transport: transport,
                                              onInvocation: onInvocation)
                    var headers = HTTPHeaders(answer.headers)
                    headers.add(name: "Content-Length", value: String(answer.body.count))
                    let status = HTTPResponseStatus(statusCode: answer.status)
                    try await outbound.write(.head(HTTPResponseHead(version: request.version, status: status, headers: headers)))
                    try await outbound.write(.body(.byteBuffer(ByteBuffer(bytes: answer.body))))
                    try await outbound.write(.end(nil))
                }
            }
        }
    }

    private static func answer(
        _ request: HTTPRequestHead, body: [UInt8], transport: any TriggerTransport,
        onInvocation: @Sendable (Invocation) -> Void
    ) async -> InvokeAPIAnswer {
        guard InvokeAPIAnswer.isInvocation(method: request.method.rawValue, path: request.uri) else {
            return .notFound(method: request.method.rawValue, path: request.uri)
        }
        do {
            let invocation = try await transport.invoke(body)
            onInvocation(invocation)
            return InvokeAPIAnswer(invocation)
        } catch {
            return InvokeAPIAnswer(cannotRun: error)
        }
    }
}
