import Invoker
import LosslessJSON
import NIOHTTP1

/// The local user pool over HTTP: its sign-in page at `GET /` (``SignInPage``), `POST /` with `X-Amz-Target: AWSCognitoIdentityProviderService.<Operation>` (what
/// the AWS SDKs send to `endpoint_url`), `GET /<poolId>/.well-known/jwks.json` and `openid-configuration`, and CORS
/// for browser pages of the allowed origins only (``CrossOriginPolicy``). Each connection is its own task.
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
    private let allowedOrigins: CrossOriginPolicy?
    private let server: LocalHTTPServer

    /// - Parameter allowedOrigins: the web pages that may call the pool from a browser; nil allows the pool's own
    ///   origin only (``CrossOriginPolicy/ownOrigin(host:port:)``, known once the port is bound). Pages of any other
    ///   origin cannot POST to it at all (``LocalRequestGuard``).
    public init(allowedOrigins: CrossOriginPolicy? = nil, onExchange: @escaping @Sendable (Exchange) -> Void = { _ in }) {
        self.allowedOrigins = allowedOrigins
        self.onExchange = onExchange
        server = LocalHTTPServer(alsoAllowingOrigins: allowedOrigins.map { Array($0.allowedOrigins) } ?? [])
    }

    /// Listens on `host:port` (port 0 picks a free one), makes the pool for the bound address and serves it.
    /// - Parameter makePool: builds the pool from the endpoint's base URL, `http://host:port` (the tokens' issuer
    ///   is that URL followed by the pool id).
    /// - Returns: the pool being served.
    public func start(
        host: String, port: Int, makePool: (_ baseURL: String) throws -> LocalUserPool
    ) async throws -> LocalUserPool {
        var made: LocalUserPool?
        let onExchange = self.onExchange
        let allowedOrigins = self.allowedOrigins
        _ = try await server.start(host: host, port: port) { _, boundPort in
            let pool = try makePool("http://\(host):\(boundPort)")
            made = pool
            let policy = allowedOrigins ?? .ownOrigin(host: host, port: boundPort)
            return { request, body in
                let origin = request.headers.first(name: "Origin")
                return await Self.answer(request, body: body, pool: pool, policy: policy, onExchange: onExchange)
                    .withCrossOriginHeaders(origin: origin, policy: policy)
            }
        }
        guard let made else { throw PoolError(.internalError, "The pool endpoint did not make its pool.") }
        return made
    }

    /// Stops listening, closes every connection, waits for their tasks and then for the event loop to end.
    public func shutdown() async {
        await server.shutdown()
    }

    /// The answer before the CORS headers, which every answer gets from `policy` afterwards.
    private static func answer(
        _ request: HTTPRequestHead, body: [UInt8], pool: LocalUserPool, policy: CrossOriginPolicy,
        onExchange: @Sendable (Exchange) -> Void
    ) async -> PoolHTTPAnswer {
        let path = String(request.uri.split(separator: "?", maxSplits: 1, omittingEmptySubsequences: false)[0])
        let poolId = pool.settings.userPoolId
        if request.method == .GET, let page = SignInPage.answer(path: path, settings: pool.settings, apiURL: await pool.httpAPIURL) {
            return page
        }
        switch (request.method, path) {
        case (.GET, "/\(poolId)/.well-known/jwks.json"):
            return PoolHTTPAnswer(document: pool.jwks)
        case (.GET, "/\(poolId)/.well-known/openid-configuration"):
            return PoolHTTPAnswer(document: pool.openIDConfiguration)
        case (.OPTIONS, _):
            return .preflight(origin: request.headers.first(name: "Origin"), policy: policy)
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
