import Foundation
import Invoker
import NIOHTTP1

/// The local stand-in for the API Gateway HTTP API in front of the function (the passkey routes), on a port of its
/// own as in AWS: each request is answered by ``LocalUserPool/handleAPI(_:requestId:)``, with CORS for the allowed
/// origins only.
public final class HTTPAPIEndpoint: Sendable {
    private let server: LocalHTTPServer
    private let allowedOrigins: CrossOriginPolicy
    private let onRequest: @Sendable (_ line: String) -> Void

    /// - Parameters:
    ///   - allowedOrigins: the web pages that may call the API from a browser.
    ///   - onRequest: receives one line per request (`PATCH /passkeys/{id} → 200`).
    public init(allowedOrigins: CrossOriginPolicy, onRequest: @escaping @Sendable (_ line: String) -> Void = { _ in }) {
        self.allowedOrigins = allowedOrigins
        self.onRequest = onRequest
        server = LocalHTTPServer(alsoAllowingOrigins: Array(allowedOrigins.allowedOrigins))
    }

    /// Listens on `host:port` (0 picks a free port) and returns the API's base URL, `http://host:port`.
    public func start(host: String, port: Int, pool: LocalUserPool) async throws -> String {
        let policy = allowedOrigins
        let onRequest = self.onRequest
        let bound = try await server.start(host: host, port: port) { request, body in
            let origin = request.headers.first(name: "Origin")
            let parts = request.uri.split(separator: "?", maxSplits: 1, omittingEmptySubsequences: false)
            if request.method == .OPTIONS {
                return Self.preflight(origin: origin, policy: policy)
            }
            var headers: [String: String] = [:]
            for (name, value) in request.headers { headers[name.lowercased()] = value }
            let apiRequest = HTTPAPIRequest(
                method: request.method.rawValue, path: String(parts[0]), query: parts.count > 1 ? String(parts[1]) : "",
                headers: headers, body: body)
            let answer = await pool.handleAPI(apiRequest, requestId: UUID().uuidString.lowercased())
            onRequest("\(apiRequest.method) \(apiRequest.path) → \(answer.status)")
            return answer.withCrossOriginHeaders(origin: origin, policy: policy)
        }
        return "http://\(host):\(bound.port)"
    }

    /// Stops listening and closes every connection.
    public func shutdown() async {
        await server.shutdown()
    }

    /// A CORS preflight: 204 with the API's methods and headers for an allowed origin, 403 for another.
    private static func preflight(origin: String?, policy: CrossOriginPolicy) -> HTTPAPIAnswer {
        guard policy.allows(origin) else { return .message(403, "Forbidden") }
        return HTTPAPIAnswer(
            status: 204,
            headers: [
                ("Access-Control-Allow-Methods", "GET, POST, PATCH, DELETE, OPTIONS"),
                ("Access-Control-Allow-Headers", "authorization, content-type"), ("Access-Control-Max-Age", "600"),
            ] + policy.headers(origin: origin),
            body: [])
    }
}
