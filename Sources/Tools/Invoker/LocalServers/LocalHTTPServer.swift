import NIOCore
import NIOHTTP1
import NIOPosix
import Platform

/// What a ``LocalHTTPServer`` sends back for one request; the server adds `Content-Length`.
public protocol LocalHTTPAnswer: Sendable {
    var status: Int { get }
    var headers: [(String, String)] { get }
    var body: [UInt8] { get }
}

/// The HTTP/1.1 server on SwiftNIO of every local tool: the one place that binds (`SO_REUSEADDR`, `TCP_NODELAY`, the
/// HTTP/1.1 pipeline), knows the address bound and shuts the listener and its event loop down. It serves in one of
/// three ways, chosen by the `start` called:
/// - `answer` (async): each request is read whole and answered by a closure run on Swift's cooperative pool, each
///   connection as its own task (the Invoke API, the local user pool);
/// - `answeringOnEventLoop`: each request is read whole and answered by a synchronous closure on the event loop, so
///   that no answer waits for a thread of the cooperative pool (the siteverify stand-in);
/// - `connectionHandler`: each connection is served by a channel handler of the caller's, behind the HTTP/1.1
///   pipeline (the Runtime API emulator, whose `GET /next` is held open until an event comes).
///
/// In every way, a ``LocalRequestGuard`` stands in front: requests whose `Host` is not the server's own, and
/// state-changing requests from a foreign web page's `Origin`, are refused before any answer or handler sees them.
public final class LocalHTTPServer: Sendable {
    public typealias Answer = @Sendable (_ request: HTTPRequestHead, _ body: [UInt8]) async -> any LocalHTTPAnswer
    /// An answer computed on the event loop: it must not block or wait for anything.
    public typealias EventLoopAnswer = @Sendable (_ request: HTTPRequestHead, _ body: [UInt8]) -> any LocalHTTPAnswer
    /// Makes the handler of one connection; it reads `HTTPServerRequestPart`s and writes `HTTPServerResponsePart`s.
    public typealias ConnectionHandler = @Sendable () -> any ChannelHandler

    private let group = MultiThreadedEventLoopGroup(numberOfThreads: 1)
    private let listener = PosixLock<(any Channel)?>(nil)
    private let boundAddress = PosixLock<(ip: String, port: Int)?>(nil)
    private let acceptLoop = PosixLock<Task<Void, Never>?>(nil)
    private let allowedOrigins: [String]

    /// - Parameter origins: web origins besides the server's own (``LocalRequestGuard``) whose state-changing
    ///   requests it answers, e.g. the pages a developer allowed to call the pool.
    public init(alsoAllowingOrigins origins: [String] = []) {
        allowedOrigins = origins
    }

    /// The address the server listens on; nil before it started.
    public var address: (ip: String, port: Int)? { boundAddress.withLock { $0 } }

    /// Listens on `host:port` (port 0 picks a free one) and returns the address bound, serving requests with the
    /// answer `makeAnswer` builds for that address: it runs before the first connection is accepted, and if it
    /// throws, the server stops listening and the error is thrown.
    public func start(
        host: String, port: Int, makeAnswer: (_ ip: String, _ port: Int) throws -> Answer
    ) async throws -> (ip: String, port: Int) {
        let bound = try await bootstrap()
            .bind(host: host, port: port) { [allowedOrigins] channel in
                channel.eventLoop.makeCompletedFuture {
                    try Self.configureGuardedPipeline(channel, host: host, allowedOrigins: allowedOrigins)
                    return try NIOAsyncChannel<HTTPServerRequestPart, HTTPServerResponsePart>(wrappingChannelSynchronously: channel)
                }
            }
        let address: (ip: String, port: Int)
        let answer: Answer
        do {
            address = try listening(on: bound.channel)
            answer = try makeAnswer(address.ip, address.port)
        } catch {
            await shutdown()
            throw error
        }
        acceptLoop.withLock {
            $0 = Task {
                try? await withThrowingDiscardingTaskGroup { connections in
                    try await bound.executeThenClose { accepted in
                        for try await connection in accepted {
                            connections.addTask { await Self.serve(connection, answer: answer) }
                        }
                    }
                }
            }
        }
        return address
    }

    /// Listens on `host:port` (port 0 picks a free one), serves requests with `answer`, and returns the address bound.
    public func start(host: String, port: Int, answer: @escaping Answer) async throws -> (ip: String, port: Int) {
        try await start(host: host, port: port) { _, _ in answer }
    }

    /// Listens on `host:port` (port 0 picks a free one), answers each request with `answer` on the event loop, and
    /// returns the address bound. It blocks until the socket is bound: call it from synchronous code.
    public func start(
        host: String, port: Int, answeringOnEventLoop answer: @escaping EventLoopAnswer
    ) throws -> (ip: String, port: Int) {
        try listen(host: host, port: port) { EventLoopAnswerHandler(answer: answer) }.wait()
    }

    /// Listens on `host:port` (port 0 picks a free one), serves each connection with the handler `connectionHandler`
    /// makes for it, and returns the address bound.
    public func start(
        host: String, port: Int, connectionHandler: @escaping ConnectionHandler
    ) async throws -> (ip: String, port: Int) {
        try await listen(host: host, port: port, connectionHandler: connectionHandler).get()
    }

    /// Stops listening, closes every connection, waits for their tasks and then for the event loop to end.
    public func shutdown() async {
        let channel = listener.withLock { channel in defer { channel = nil }; return channel }
        try? await channel?.close()
        let loop = acceptLoop.withLock { loop in defer { loop = nil }; return loop }
        loop?.cancel()
        await loop?.value
        try? await group.shutdownGracefully()
    }

    /// The response head for `reply` to `request`, with `Content-Length`.
    static func head(of reply: any LocalHTTPAnswer, to request: HTTPRequestHead) -> HTTPResponseHead {
        var headers = HTTPHeaders(reply.headers)
        headers.add(name: "Content-Length", value: String(reply.body.count))
        return HTTPResponseHead(version: request.version, status: HTTPResponseStatus(statusCode: reply.status), headers: headers)
    }

    private func bootstrap() -> ServerBootstrap {
        ServerBootstrap(group: group)
            .serverChannelOption(.socketOption(.so_reuseaddr), value: 1)
            .childChannelOption(.socketOption(.tcp_nodelay), value: 1)
    }

    private func listen(
        host: String, port: Int, connectionHandler: @escaping ConnectionHandler
    ) -> EventLoopFuture<(ip: String, port: Int)> {
        bootstrap()
            .childChannelInitializer { [allowedOrigins] channel in
                channel.eventLoop.makeCompletedFuture {
                    try Self.configureGuardedPipeline(channel, host: host, allowedOrigins: allowedOrigins)
                    try channel.pipeline.syncOperations.addHandler(connectionHandler())
                }
            }
            .bind(host: host, port: port)
            .flatMapThrowing { channel in try self.listening(on: channel) }
    }

    /// The HTTP/1.1 server pipeline of an accepted connection, with the ``LocalRequestGuard`` for the address it
    /// reached (the listener's port, known from the connection itself) behind it.
    private static func configureGuardedPipeline(
        _ channel: any Channel, host: String, allowedOrigins: [String]
    ) throws {
        try channel.pipeline.syncOperations.configureHTTPServerPipeline()
        let requestGuard = LocalRequestGuard(
            host: host, port: channel.localAddress?.port ?? 0, alsoAllowing: allowedOrigins)
        try channel.pipeline.syncOperations.addHandler(LocalRequestGuardHandler(requestGuard: requestGuard))
    }

    /// Records `channel` as the listener and returns its address; closes it when it has none.
    private func listening(on channel: any Channel) throws(LocalHTTPServerError) -> (ip: String, port: Int) {
        guard let local = channel.localAddress, let ip = local.ipAddress, let port = local.port else {
            channel.close(promise: nil)
            throw .noLocalAddress
        }
        listener.withLock { $0 = channel }
        boundAddress.withLock { $0 = (ip, port) }
        return (ip, port)
    }

    private static func serve(
        _ connection: NIOAsyncChannel<HTTPServerRequestPart, HTTPServerResponsePart>, answer: Answer
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
                    let reply = await answer(request, Array(body.readableBytesView))
                    try await outbound.write(.head(Self.head(of: reply, to: request)))
                    try await outbound.write(.body(.byteBuffer(ByteBuffer(bytes: reply.body))))
                    try await outbound.write(.end(nil))
                }
            }
        }
    }
}

/// Why a ``LocalHTTPServer`` could not start.
public enum LocalHTTPServerError: Error, Sendable, CustomStringConvertible {
    case noLocalAddress

    public var description: String { "the server's socket has no local address after binding" }
}
