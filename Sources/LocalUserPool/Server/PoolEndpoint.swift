import LosslessJSON
import NIOCore
import NIOHTTP1
import NIOPosix
import Synchronization

/// The local user pool over HTTP: `POST /` with `X-Amz-Target: AWSCognitoIdentityProviderService.<Operation>` (what
/// the AWS SDKs send to `endpoint_url`), `GET /<poolId>/.well-known/jwks.json` and `openid-configuration`, and CORS
/// preflights for browsers. Each connection is its own task.
public final class PoolEndpoint: Sendable {
    /// One answered request, for a log line.
    public struct Exchange: Sendable {
        public let operation: String
        /// The error answered, or nil when the operation succeeded.
        public let error: PoolError?
        /// What a success answered: the next challenge, tokens, or `OK`.
        public let summary: String

        init(operation: String, error: PoolError) {
            self.operation = operation
            self.error = error
            summary = error.description
        }

        init(operation: String, result: JSONValue) {
            self.operation = operation
            error = nil
            let object = result.objectValue
            if let challenge = object?["ChallengeName"]?.stringValue {
                summary = "→ \(challenge)"
            } else if object?["AuthenticationResult"] != nil {
                summary = "→ tokens issued"
            } else {
                summary = "OK"
            }
        }
    }

    private let onExchange: @Sendable (Exchange) -> Void
    private let group = MultiThreadedEventLoopGroup(numberOfThreads: 1)
    private let server = Mutex<(any Channel)?>(nil)
    private let acceptLoop = Mutex<Task<Void, Never>?>(nil)

    public init(onExchange: @escaping @Sendable (Exchange) -> Void = { _ in }) {
        self.onExchange = onExchange
    }

    /// Listens on `host:port` (port 0 picks a free one), makes the pool for the bound address and serves it.
    /// - Parameter makePool: builds the pool from the endpoint's base URL, `http://host:port` (the tokens' issuer
    ///   is that URL followed by the pool id).
    /// - Returns: the pool being served.
    public func start(
        host: String, port: Int, makePool: (_ baseURL: String) throws -> LocalUserPool
    ) async throws -> LocalUserPool {
        let listener = try await ServerBootstrap(group: group)
            .serverChannelOption(.socketOption(.so_reuseaddr), value: 1)
            .childChannelOption(.socketOption(.tcp_nodelay), value: 1)
            .bind(host: host, port: port) { channel in
                channel.eventLoop.makeCompletedFuture {
                    try channel.pipeline.syncOperations.configureHTTPServerPipeline()
                    return try NIOAsyncChannel<HTTPServerRequestPart, HTTPServerResponsePart>(wrappingChannelSynchronously: channel)
                }
            }
        server.withLock { $0 = listener.channel }
        guard let boundPort = listener.channel.localAddress?.port else {
            throw PoolError(.internalError, "The pool endpoint has no local address.")
        }
        let pool = try makePool("http://\(host):\(boundPort)")
        let onExchange = self.onExchange
        acceptLoop.withLock {
            $0 = Task {
                try? await withThrowingDiscardingTaskGroup { connections in
                    try await listener.executeThenClose { accepted in
                        for try await connection in accepted {
                            connections.addTask { await Self.serve(connection, pool: pool, onExchange: onExchange) }
                        }
                    }
                }
            }
        }
        return pool
    }

    /// Stops listening, closes every connection, waits for their tasks and then for the event loop to end.
    public func shutdown() async {
        let channel = server.withLock { channel in defer { channel = nil }; return channel }
        try? await channel?.close()
        let loop = acceptLoop.withLock { loop in defer { loop = nil }; return loop }
        loop?.cancel()
        await loop?.value
        try? await group.shutdownGracefully()
    }

    private static func serve(
        _ connection: NIOAsyncChannel<HTTPServerRequestPart, HTTPServerResponsePart>, pool: LocalUserPool,
        onExchange: @Sendable (Exchange) -> Void
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
                    let answer = await answer(request, body: Array(body.readableBytesView), pool: pool, onExchange: onExchange)
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
        _ request: HTTPRequestHead, body: [UInt8], pool: LocalUserPool, onExchange: @Sendable (Exchange) -> Void
    ) async -> PoolHTTPAnswer {
        let path = String(request.uri.split(separator: "?", maxSplits: 1, omittingEmptySubsequences: false)[0])
        let poolId = pool.settings.userPoolId
        switch (request.method, path) {
        case (.GET, "/\(poolId)/.well-known/jwks.json"):
            return PoolHTTPAnswer(document: pool.jwks)
        case (.GET, "/\(poolId)/.well-known/openid-configuration"):
            return PoolHTTPAnswer(document: pool.openIDConfiguration)
        case (.OPTIONS, _):
            return .preflight(requestedHeaders: request.headers.first(name: "Access-Control-Request-Headers"))
        case (.POST, "/"):
            guard let operation = PoolHTTPAnswer.operation(target: request.headers.first(name: "X-Amz-Target")) else {
                let error = PoolError(.unknownOperation, "The X-Amz-Target header must name an operation as \"\(PoolHTTPAnswer.targetPrefix)<Operation>\".")
                onExchange(Exchange(operation: "(no operation)", error: error))
                return PoolHTTPAnswer(error: error)
            }
            do {
                let result = try await pool.handle(operation: operation, body: body)
                onExchange(Exchange(operation: operation, result: result))
                return PoolHTTPAnswer(result: result)
            } catch {
                onExchange(Exchange(operation: operation, error: error))
                return PoolHTTPAnswer(error: error)
            }
        default:
            return .notFound(method: request.method.rawValue, path: path, userPoolId: poolId)
        }
    }
}
