import Foundation
import Invoker
import LosslessJSON

/// One HTTP answer of the pool endpoint, in the Cognito JSON protocol's shape.
public struct PoolHTTPAnswer: LocalHTTPAnswer {
    /// The `X-Amz-Target` prefix of every Cognito user-pool operation.
    public static let targetPrefix = "AWSCognitoIdentityProviderService."
    public static let contentType = "application/x-amz-json-1.1"

    public let status: Int
    public let headers: [(String, String)]
    public let body: [UInt8]

    /// 200 with the operation's result.
    public init(result: JSONValue) {
        self.init(status: 200, extraHeaders: [], body: result.serialized())
    }

    /// 400 (unless told otherwise) with `{"__type", "message"}` and `x-amzn-ErrorType`.
    public init(error: PoolError, status: Int = 400) {
        let body = JSONValue.object(JSONObject([("__type", .string(error.kind.rawValue)), ("message", .string(error.message))]))
        self.init(status: status, extraHeaders: [("x-amzn-ErrorType", error.kind.rawValue)], body: body.serialized())
    }

    /// 200 with a JSON document served by GET (the JWKS, the OpenID configuration).
    public init(document: JSONValue) {
        status = 200
        headers = [("Content-Type", "application/json")]
        body = document.serialized()
    }

    /// The answer to a browser's CORS preflight (`OPTIONS`), so that Amplify in a page of an allowed origin can call
    /// the pool: 200 with the methods and headers allowed for an allowed `origin`; 403 for another origin, or none.
    /// The origin's own headers come from ``withCrossOriginHeaders(origin:policy:)``, as for every answer.
    public static func preflight(origin: String?, policy: CrossOriginPolicy) -> PoolHTTPAnswer {
        guard policy.allows(origin) else {
            return PoolHTTPAnswer(
                error: PoolError(.notAuthorized, "The origin \"\(origin ?? "")\" may not call this pool; start it with --allow-origin ORIGIN."),
                status: 403)
        }
        return PoolHTTPAnswer(
            status: 200,
            headers: [
                ("Access-Control-Allow-Methods", "GET, POST, OPTIONS"),
                ("Access-Control-Allow-Headers", CrossOriginPolicy.allowedHeaders.joined(separator: ", ")),
                ("Access-Control-Max-Age", "600"),
            ],
            body: [])
    }

    /// This answer with the headers `policy` gives a request from `origin`: always `Vary: Origin`, and the CORS
    /// headers when the origin is allowed.
    public func withCrossOriginHeaders(origin: String?, policy: CrossOriginPolicy) -> PoolHTTPAnswer {
        PoolHTTPAnswer(status: status, headers: headers + policy.headers(origin: origin), body: body)
    }

    /// 404 for a path the pool does not serve.
    public static func notFound(method: String, path: String, userPoolId: String) -> PoolHTTPAnswer {
        PoolHTTPAnswer(error: PoolError(
            .resourceNotFound,
            "\(method) \"\(path)\" is not served here; use POST / with X-Amz-Target, or GET /\(userPoolId)/.well-known/jwks.json or openid-configuration."),
            status: 404)
    }

    /// The operation named by an `X-Amz-Target` header, or nil when it is not a Cognito user-pool target.
    public static func operation(target: String?) -> String? {
        guard let target, target.hasPrefix(targetPrefix) else { return nil }
        let operation = String(target.dropFirst(targetPrefix.count))
        return operation.isEmpty ? nil : operation
    }

    private init(status: Int, extraHeaders: [(String, String)], body: [UInt8]) {
        self.init(
            status: status,
            headers: [("Content-Type", Self.contentType), ("x-amzn-RequestId", UUID().uuidString.lowercased())] + extraHeaders,
            body: body)
    }

    init(status: Int, headers: [(String, String)], body: [UInt8]) {
        self.status = status
        self.headers = headers
        self.body = body
    }
}
