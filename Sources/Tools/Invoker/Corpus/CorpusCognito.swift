import LosslessJSON
import NIOHTTP1
import ServiceClients

/// A local stand-in for Cognito's `GetUser`, answering for the bearer tokens of the corpus's HTTP API events, so that
/// the passkey API's events run offline as they would against a pool: the passkey API proves every caller's token
/// with `GetUser` (`COGNITO_IDP_ENDPOINT` points it here).
///
/// An event's expectation says how Cognito treats its token: `"cognito": {"accessToken": "live"}` makes this stand-in
/// answer `GetUser` for it with the user its payload names (`username`, `sub`); every other token (one no expectation
/// calls live, a forged one, one whose event says `"revoked"`) gets `NotAuthorizedException`, as from Cognito.
public final class CorpusCognito: Sendable {
    private let server: LocalHTTPServer
    /// `http://127.0.0.1:PORT`: the value for `COGNITO_IDP_ENDPOINT`.
    public let endpoint: String

    /// Listens on a free port of 127.0.0.1, answering for the live tokens of `events`, until the process ends.
    public init(events: [CorpusEvent]) throws {
        var users: [String: (username: String, sub: String)] = [:]
        for event in events where event.expectation["cognito"]?.objectValue?["accessToken"]?.stringValue == "live" {
            guard let token = Self.bearerToken(of: event),
                  let claims = try? CognitoAccessTokenCheck.payload(of: token),
                  let username = claims["username"]?.stringValue, let sub = claims["sub"]?.stringValue
            else { continue }
            users[token] = (username, sub)
        }
        let live = users
        server = LocalHTTPServer()
        let bound = try server.start(host: "127.0.0.1", port: 0, answeringOnEventLoop: { request, body in
            Self.answer(request, body: body, users: live)
        })
        endpoint = "http://127.0.0.1:\(bound.port)"
    }

    /// The token of the event's `authorization` header, without `Bearer `.
    static func bearerToken(of event: CorpusEvent) -> String? {
        guard let headers = (try? JSONValue(parsing: event.bytes))?.objectValue?["headers"]?.objectValue,
              let header = headers["authorization"]?.stringValue
        else { return nil }
        return header.hasPrefix("Bearer ") ? String(header.dropFirst(7)) : header
    }

    private static func answer(
        _ request: HTTPRequestHead, body: [UInt8], users: [String: (username: String, sub: String)]
    ) -> any LocalHTTPAnswer {
        guard request.method == .POST, request.headers["X-Amz-Target"].first == "AWSCognitoIdentityProviderService.GetUser" else {
            return CognitoAnswer(status: 400, error: "InvalidAction", "The corpus's Cognito stand-in serves GetUser only.")
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
