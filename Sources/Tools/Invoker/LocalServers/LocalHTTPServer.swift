import Basics
import NIOCore
import NIOHTTP1
import NIOPosix

/// What a ``LocalHTTPServer`` sends back for one request; the server adds `Content-Length`.
public protocol LocalHTTPAnswer: Sendable {
    var status: Int { get }
    var headers: [(String, String)] { get }
    var body: [UInt8] { get }
}

/// An HTTP/1.1 server on SwiftNIO for the local tools (the Invoke API, the local user pool): it reads each request
/// whole, hands it to `answer` and writes the answer back, serving each connection as its own task.
public final class LocalHTTPServer: Sendable {
    public typealias Answer = @Sendable (_ request: HTTPRequestHead, _ body: [UInt8]) async -> any LocalHTTPAnswer

    private let group = MultiThreadedEventLoopGroup(numberOfThreads: 1)
    private let listener = PosixLock<(any Channel)?>(nil)
    private let acceptLoop = PosixLock<Task<Void, Never>?>(nil)

    public init() {}

    /// Listens on `host:port` (port 0 picks a free one) and returns the address bound, serving requests with the
    /// answer `makeAnswer` builds for that address: it runs before the first connection is accepted, and if it
    /// throws, the server stops listening and the error is thrown.
    public func start(
        host: String, port: Int, makeAnswer: (_ ip: String, _ port: Int) throws -> Answer
    ) async throws -> (ip: String, port: Int) {
        let bound = try await ServerBootstrap(group: group)
            .serverChannelOption(.socketOption(.so_reuseaddr), value: 1)
            .childChannelOption(.socketOption(.tcp_nodelay), value: 1)
            .bind(host: host, port: port) { channel in
                channel.eventLoop.makeCompletedFuture {
                    try channel.pipeline.syncOperations.configureHTTPServerPipeline()
                    return try NIOAsyncChannel<HTTPServerRequestPart, HTTPServerResponsePart>(wrappingChannelSynchronously: channel)
                }
            }
        listener.withLock { $0 = bound.channel }
        let address: (ip: String, port: Int)
        let answer: Answer
        do {
            guard let local = bound.channel.localAddress, let ip = local.ipAddress, let boundPort = local.port else {
                throw LocalHTTPServerError.noLocalAddress
            }
            address = (ip, boundPort)
            answer = try makeAnswer(ip, boundPort)
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

    /// Stops listening, closes every connection, waits for their tasks and then for the event loop to end.
    public func shutdown() async {
        let channel = listener.withLock { channel in defer { channel = nil }; return channel }
        try? await channel?.close()
        let loop = acceptLoop.withLock { loop in defer { loop = nil }; return loop }
        loop?.cancel()
        await loop?.value
        try? await group.shutdownGracefully()
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
                    var headers = HTTPHeaders(reply.headers)
                    headers.add(name: "Content-Length", value: String(reply.body.count))
                    let status = HTTPResponseStatus(statusCode: reply.status)
                    try await outbound.write(.head(HTTPResponseHead(version: request.version, status: status, headers: headers)))
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
