import CurlHTTP
import Invoker
import NIOHTTP1
import Testing

/// `CurlSession` keeps the last URL parsed and, for a request to the same origin, sets only its path and query: what
/// a server sees must be exactly the URL asked for, whatever came before it on the session.
@Suite("CurlSession request targets over HTTP")
struct CurlSessionTargetTests {
    private struct Echo: LocalHTTPAnswer {
        let status = 200
        let headers: [(String, String)] = []
        let body: [UInt8]
    }

    /// A server that answers each request with the target of its request line (`/path?query`).
    private static func echoServer() throws -> (LocalHTTPServer, String) {
        let server = LocalHTTPServer()
        let address = try server.start(host: "127.0.0.1", port: 0) { head, _ in Echo(body: Array(head.uri.utf8)) }
        return (server, "http://127.0.0.1:\(address.port)")
    }

    private static func target(of url: String, method: HTTPRequest.Method, on session: CurlSession) throws -> String {
        let response = try session.perform(HTTPRequest(method: method, url: url, body: method == .post ? [1] : [], totalTimeout: .seconds(5)))
        #expect(response.status == 200)
        return String(decoding: response.body, as: UTF8.self)
    }

    @Test("paths and queries on one origin, then another origin and back, reach each server as asked")
    func pathsAndQueries() async throws {
        let (first, firstOrigin) = try Self.echoServer()
        let (second, secondOrigin) = try Self.echoServer()
        let session = try CurlSession()
        let targets = [
            (firstOrigin, "/2018-06-01/runtime/invocation/next", HTTPRequest.Method.get),
            (firstOrigin, "/2018-06-01/runtime/invocation/a-1/response", .post),
            (firstOrigin, "/search?q=one&page=2", .get),
            (firstOrigin, "/after-a-query", .get),
            (secondOrigin, "/other?x=1", .post),
            (firstOrigin, "/", .get),
            (secondOrigin, "/other", .get),
            (firstOrigin, "/empty-query?", .get),
        ]
        for (origin, target, method) in targets {
            #expect(try Self.target(of: origin + target, method: method, on: session) == target)
        }
        // No path at all is the root; a fragment is not sent.
        #expect(try Self.target(of: firstOrigin, method: .get, on: session) == "/")
        #expect(try Self.target(of: firstOrigin + "/page#part", method: .get, on: session) == "/page")
        await first.shutdown()
        await second.shutdown()
    }

    @Test("a URL without a scheme is taken as http, as libcurl takes one given as CURLOPT_URL")
    func guessedScheme() async throws {
        let (server, origin) = try Self.echoServer()
        let session = try CurlSession()
        let withoutScheme = String(origin.dropFirst("http://".count))
        #expect(try Self.target(of: withoutScheme + "/guessed?x=1", method: .get, on: session) == "/guessed?x=1")
        #expect(try Self.target(of: origin + "/then", method: .get, on: session) == "/then")
        await server.shutdown()
    }

    @Test("a URL libcurl cannot parse is a clear error, and the session goes on serving good ones")
    func malformedURL() async throws {
        let (server, origin) = try Self.echoServer()
        let session = try CurlSession()
        #expect(try Self.target(of: origin + "/before", method: .get, on: session) == "/before")
        let error = #expect(throws: CurlError.self) {
            try session.perform(HTTPRequest(method: .get, url: "http://exa mple.com:99999/x"))
        }
        #expect(error?.message.contains("http://exa mple.com:99999/x") == true)
        #expect(try Self.target(of: origin + "/after", method: .get, on: session) == "/after")
        await server.shutdown()
    }
}
