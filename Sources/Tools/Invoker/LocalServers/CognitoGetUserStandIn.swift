import ChallengeCrypto
import CognitoTriggers
import DevelopmentSupport
import Foundation
import LosslessJSON
import NIOHTTP1
import Platform
import ServiceClients

/// A local stand-in for Cognito's `GetUser`, for the local tools that play Cognito without a user pool (`sign-in`,
/// `check`): the passkey API proves every caller's bearer token with `GetUser` (`COGNITO_IDP_ENDPOINT` points it
/// here). It answers for the tokens it was told are live, with the user each names, and refuses every other token
/// with `NotAuthorizedException`, as Cognito refuses a forged, expired or revoked one.
public final class CognitoGetUserStandIn: Sendable {
    private let server: LocalHTTPServer
    private let live = PosixLock<[String: (username: String, sub: String)]>([:])
    /// `http://127.0.0.1:PORT`: the value for `COGNITO_IDP_ENDPOINT`.
    public let endpoint: String

    /// Listens on a free port of 127.0.0.1 until the process ends.
    public init() throws {
        server = LocalHTTPServer()
        let live = self.live
        let bound = try server.start(host: "127.0.0.1", port: 0, answeringOnEventLoop: { request, body in
            Self.answer(request, body: body, users: live.withLock { $0 })
        })
        endpoint = "http://127.0.0.1:\(bound.port)"
    }

    /// A stand-in for the corpus's HTTP API events: the token of each event whose expectation says
    /// `"cognito": {"accessToken": "live"}` is live, for the user its payload names (`username`, `sub`).
    public convenience init(corpus events: [CorpusEvent]) throws {
        try self.init()
        for event in events where event.expectation["cognito"]?.objectValue?["accessToken"]?.stringValue == "live" {
            guard let token = Self.bearerToken(of: event),
                  let claims = try? CognitoAccessTokenCheck.payload(of: token),
                  let username = claims["username"]?.stringValue, let sub = claims["sub"]?.stringValue
            else { continue }
            admit(token, username: username, sub: sub)
        }
    }

    /// `token` is live for `username` from now on.
    public func admit(_ token: String, username: String, sub: String) {
        live.withLock { $0[token] = (username, sub) }
    }

    /// A token as Cognito would issue after a sign-in at `now` (unsigned: only this stand-in takes it), already live.
    public func issueToken(
        username: String, sub: String, userPoolID: String, region: String, clientID: String, now: Int64
    ) -> String {
        let payload = JSONObject([
            ("sub", .string(sub)), ("username", .string(username)), ("token_use", "access"),
            ("iss", .string("https://cognito-idp.\(region).amazonaws.com/\(userPoolID)")), ("client_id", .string(clientID)),
            ("scope", "aws.cognito.signin.user.admin"), ("auth_time", .number(JSONNumber(Int(now)))),
            ("iat", .number(JSONNumber(Int(now)))), ("exp", .number(JSONNumber(Int(now) + 3600))),
            ("jti", .string(UUID().uuidString.lowercased())),
        ])
        let token = [
            Base64URL.encode(Array(#"{"alg":"none","kid":"cognito-local"}"#.utf8)),
            Base64URL.encode(Array(JSONValue.object(payload).text().utf8)), "",
        ].joined(separator: ".")
        admit(token, username: username, sub: sub)
        return token
    }

    /// The token of the event's `authorization` header.
    static func bearerToken(of event: CorpusEvent) -> String? {
        let headers = (try? JSONValue(parsing: event.bytes))?.objectValue?["headers"]?.objectValue
        return PasskeyRegistrationAPI.bearerToken(headers?["authorization"]?.stringValue)
    }

    private static func answer(
        _ request: HTTPRequestHead, body: [UInt8], users: [String: (username: String, sub: String)]
    ) -> any LocalHTTPAnswer {
        guard request.method == .POST, request.headers["X-Amz-Target"].first == "AWSCognitoIdentityProviderService.GetUser" else {
            return CognitoAnswer(status: 400, error: "InvalidAction", "The local Cognito stand-in serves GetUser only.")
        }
        guard let token = (try? JSONValue(parsing: body))?.objectValue?["AccessToken"]?.stringValue,
              let user = users[token]
        else { return CognitoAnswer(status: 400, error: "NotAuthorizedException", "Invalid Access Token") }
        return CognitoAnswer(status: 200, .object(JSONObject([
            ("Username", .string(user.username)),
            ("UserAttributes", .array([.object(JSONObject([("Name", "sub"), ("Value", .string(user.sub))]))])),
        ])))
    }
}

/// An answer in Cognito's JSON protocol.
private struct CognitoAnswer: LocalHTTPAnswer {
    let status: Int
    let headers: [(String, String)]
    let body: [UInt8]

    init(status: Int, _ json: JSONValue) {
        self.status = status
        headers = [("Content-Type", "application/x-amz-json-1.1")]
        body = json.serialized()
    }

    init(status: Int, error type: String, _ message: String) {
        self.status = status
        headers = [("Content-Type", "application/x-amz-json-1.1"), ("x-amzn-ErrorType", type)]
        body = JSONValue.object(JSONObject([("__type", .string(type)), ("message", .string(message))])).serialized()
    }
}
