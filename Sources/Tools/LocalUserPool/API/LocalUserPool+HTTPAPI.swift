import CognitoTriggers
import Foundation
import Invoker
import LosslessJSON

/// One request to the local HTTP API, as the endpoint read it.
public struct HTTPAPIRequest: Sendable {
    public let method: String
    public let path: String
    public let query: String
    /// Header names in lower case, as API Gateway passes them.
    public let headers: [String: String]
    public let body: [UInt8]

    public init(method: String, path: String, query: String, headers: [String: String], body: [UInt8]) {
        self.method = method
        self.path = path
        self.query = query
        self.headers = headers
        self.body = body
    }
}

extension LocalUserPool {
    /// Answers a request to the HTTP API in front of the function, as API Gateway does with a JWT authorizer whose
    /// issuer is this pool and whose audience is its app client, with the scope the template's routes require: a route
    /// of ``HTTPAPIRoute/passkeys`` with an access token of this pool, signed and unexpired, becomes a payload 2.0 event
    /// carrying the token's claims (as strings); the function's response becomes the HTTP answer. Like API Gateway's
    /// authorizer it does not see revocation (`RevokeToken`): a revoked but unexpired token passes here, and the
    /// function's own check (`GetUser`) is what refuses it. No route: 404; no valid token: 401; a function error: 500 — each with
    /// API Gateway's `{"message": …}`.
    public func handleAPI(_ request: HTTPAPIRequest, requestId: String) async -> HTTPAPIAnswer {
        let matched = HTTPAPIRoute.passkeys.lazy.compactMap { route in
            route.match(method: request.method, path: request.path).map { (route, $0) }
        }.first
        guard let (route, pathParameters) = matched else { return .message(404, "Not Found") }
        guard let token = PasskeyRegistrationAPI.bearerToken(request.headers["authorization"]),
              let claims = try? accessTokenClaims(token, refusingRevoked: false), claims["client_id"]?.stringValue == settings.clientId,
              claims["scope"]?.stringValue?.split(separator: " ").contains(where: { $0 == Self.userAdminScope }) == true
        else { return .message(401, "Unauthorized") }
        let event = APIGatewayEvent.make(
            route: route, path: request.path, query: request.query, headers: request.headers, body: request.body,
            pathParameters: pathParameters, claims: APIGatewayEvent.claimStrings(claims), requestId: requestId,
            milliseconds: Int64(Date().timeIntervalSince1970 * 1000))
        let invocation: Invocation
        do {
            invocation = try await triggers.transport.invoke(event.serialized())
        } catch {
            return .message(500, "Internal Server Error")
        }
        guard case .response(let bytes) = invocation.outcome else { return .message(500, "Internal Server Error") }
        return HTTPAPIAnswer(functionResponse: bytes)
    }

    /// The scope the template's routes require, which Cognito's sign-in API puts in access tokens (an ID token,
    /// whose `aud` is the client too, has none).
    static let userAdminScope = "aws.cognito.signin.user.admin"
}
