import CurlHTTP
import Invoker
import LosslessJSON
import ServiceClients
import Testing

/// The siteverify stand-in over HTTP, as the triggers call it: answered on its server's event loop.
@Suite("siteverify stand-in over HTTP")
struct SiteverifyStandInTests {
    private static func post(
        _ fields: String, to url: String, headers: [HTTPHeader] = [], session: CurlSession
    ) throws -> HTTPResponse {
        try session.perform(
            HTTPRequest(
                method: .post, url: url, headers: [HTTPHeader("Content-Type", "application/x-www-form-urlencoded")] + headers,
                body: Array(fields.utf8), totalTimeout: .seconds(5)))
    }

    @Test("passing tokens, one after the other on one session, are answered with the provider's JSON and its length")
    func passingToken() throws {
        let standIn = try SiteverifyStandIn(hostname: "example.com", action: "sign-in")
        let session = try CurlSession()
        for token in ["pass", "pass-again"] {
            let response = try Self.post("secret=s&response=\(token)", to: standIn.endpoint(for: .turnstile), session: session)
            #expect(response.status == 200)
            #expect(response.header("Content-Type") == "application/json")
            #expect(response.header("Content-Length") == String(response.body.count))
            #expect(response.header("Connection") == nil)
            let answer = try JSONValue(parsing: response.body).objectValue
            #expect(answer?["success"] == true)
            #expect(answer?["hostname"]?.stringValue == "example.com")
            #expect(answer?["action"]?.stringValue == "sign-in")
        }
    }

    @Test("a client that asks to close the connection is told it will be")
    func connectionClose() throws {
        let standIn = try SiteverifyStandIn(hostname: "example.com", action: nil)
        let response = try Self.post(
            "secret=s&response=fail", to: standIn.endpoint(for: .hcaptcha), headers: [HTTPHeader("Connection", "close")],
            session: CurlSession())
        #expect(response.status == 200)
        #expect(response.header("Connection") == "close")
        #expect(try JSONValue(parsing: response.body).objectValue?["error-codes"] == ["invalid-input-response"])
    }

    @Test("a path that is no provider's siteverify is not found")
    func unknownPath() throws {
        let standIn = try SiteverifyStandIn(hostname: "example.com", action: nil)
        let response = try Self.post("secret=s&response=pass", to: standIn.baseURL + "/nobody/siteverify", session: CurlSession())
        #expect(response.status == 404)
        #expect(try JSONValue(parsing: response.body).objectValue?["error-codes"] == ["not-found"])
    }
}
