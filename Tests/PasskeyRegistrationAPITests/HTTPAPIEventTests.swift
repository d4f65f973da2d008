import CognitoTriggers
import LosslessJSON
import Testing

/// Payload format 2.0 events read as API Gateway sends them, and responses written as it takes them.
@Suite struct HTTPAPIEventTests {
    static let sample = #"""
        {
          "version": "2.0",
          "routeKey": "PATCH /passkeys/{id}",
          "rawPath": "/passkeys/AQID",
          "rawQueryString": "",
          "headers": {"Content-Type": "application/json", "origin": "http://localhost:5173"},
          "pathParameters": {"id": "AQID"},
          "requestContext": {
            "http": {"method": "patch", "path": "/passkeys/AQID", "sourceIp": "203.0.113.7", "userAgent": "test"},
            "requestId": "abc-123",
            "stage": "$default",
            "authorizer": {"jwt": {"claims": {"sub": "sub-jane", "username": "jane", "auth_time": 1763800000, "scope": "aws.cognito.signin.user.admin", "nested": {"a": 1}}, "scopes": null}}
          },
          "body": "eyJuYW1lIjogIkxhcHRvcCJ9",
          "isBase64Encoded": true
        }
        """#

    @Test func readsEveryPartTheAPIUses() throws {
        let json = try JSONValue(parsing: Self.sample)
        #expect(HTTPAPIEvent.isHTTPAPIEvent(json))
        let event = try HTTPAPIEvent(json: json)
        #expect(event.routeKey == "PATCH /passkeys/{id}")
        #expect(event.method == "PATCH")
        #expect(event.rawPath == "/passkeys/AQID")
        #expect(event.headers["content-type"] == "application/json")
        #expect(event.pathParameters == ["id": "AQID"])
        #expect(event.requestID == "abc-123")
        #expect(String(decoding: event.body, as: UTF8.self) == #"{"name": "Laptop"}"#)
        // Strings as they are, numbers as their text, anything else left out.
        #expect(event.claims == [
            "sub": "sub-jane", "username": "jane", "auth_time": "1763800000", "scope": "aws.cognito.signin.user.admin",
        ])
    }

    @Test func triggerEventsAndOtherVersionsAreNotHTTPAPIEvents() throws {
        #expect(!HTTPAPIEvent.isHTTPAPIEvent(try JSONValue(parsing: #"{"version": "1", "triggerSource": "DefineAuthChallenge_Authentication"}"#)))
        #expect(!HTTPAPIEvent.isHTTPAPIEvent(try JSONValue(parsing: #"{"version": "1.0", "routeKey": "GET /passkeys"}"#)))
        #expect(!HTTPAPIEvent.isHTTPAPIEvent(try JSONValue(parsing: #"{"version": "2.0"}"#)))
        #expect(!HTTPAPIEvent.isHTTPAPIEvent(try JSONValue(parsing: #"["version", "2.0"]"#)))
    }

    @Test(arguments: [
        (#"{"version": "2.0", "routeKey": "GET /passkeys"}"#, "$.requestContext is missing"),
        (#"{"version": "2.0", "routeKey": "GET /passkeys", "requestContext": {"http": {"method": 1}}}"#, "$.requestContext.http.method is number"),
        (#"{"version": "2.0", "routeKey": "GET /passkeys", "requestContext": {"http": {"method": "GET", "path": "/passkeys"}}, "headers": {"a": 1}}"#, "$.headers.a is number"),
        (#"{"version": "2.0", "routeKey": "GET /passkeys", "rawPath": "/passkeys", "requestContext": {"http": {"method": "GET"}}, "body": "%%%", "isBase64Encoded": true}"#, "$.body is not base64"),
        (#"{"version": "2.0", "routeKey": "GET /passkeys", "rawPath": "/passkeys", "requestContext": {"http": {"method": "GET"}, "authorizer": {"jwt": []}}}"#, "$.requestContext.authorizer.jwt is array"),
    ])
    func malformedEventsGetA400NamingTheField(_ text: String, _ fragment: String) throws {
        let api = PasskeyRegistrationAPI(settings: Fixture.settings, store: nil, recordKey: Fixture.recordKey, tokens: Fixture.tokens, clock: { Fixture.now })
        let result = api.handle(try JSONValue(parsing: text))
        #expect(result.response.statusCode == 400)
        #expect(result.response.message?.contains(fragment) == true, "\(result.response.message ?? "")")
    }

    @Test func standardBase64BodiesDecode() {
        #expect(HTTPAPIEventTests.decode("aGk/Pz4+") == Array("hi??>>".utf8))
        #expect(HTTPAPIEventTests.decode("aGk=") == Array("hi".utf8))
        #expect(HTTPAPIEventTests.decode("") == [])
        #expect(HTTPAPIEventTests.decode("aGk") == nil, "unpadded")
        #expect(HTTPAPIEventTests.decode("aG-_") == nil, "the URL alphabet")
    }

    static func decode(_ text: String) -> [UInt8]? {
        let event = #"{"version": "2.0", "routeKey": "$default", "rawPath": "/", "requestContext": {"http": {"method": "POST"}}, "isBase64Encoded": true, "body": "\#(text)"}"#
        return (try? HTTPAPIEvent(json: try JSONValue(parsing: event)))?.body
    }

    @Test func responsesAreWhatALambdaIntegrationReturns() throws {
        let response = HTTPAPIResponse.message(404, "no such passkey")
        let json = try JSONValue(parsing: response.serialized()).objectValue
        #expect(json?["statusCode"] == 404)
        #expect(json?["headers"]?.objectValue?["content-type"] == "application/json")
        #expect(json?["isBase64Encoded"] == false)
        #expect(try JSONValue(parsing: try #require(json?["body"]?.stringValue)) == ["message": "no such passkey"])
        let empty = try JSONValue(parsing: HTTPAPIResponse(statusCode: 204, body: nil).serialized()).objectValue
        #expect(empty?["body"] == "")
    }
}
