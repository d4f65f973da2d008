#if canImport(Glibc)
import Glibc
#endif
import CurlHTTP
import Invoker
import NIOHTTP1
import Testing

/// `CurlSession` sets a request's timeouts on its handle only when they differ from the last request's: each request
/// must still run under its own, whatever the request before it had.
@Suite("CurlSession timeouts from one request to the next")
struct CurlSessionTimeoutTests {
    private struct Late: LocalHTTPAnswer {
        let status = 200
        let headers: [(String, String)] = []
        let body = Array("late".utf8)
    }

    @Test("a short total timeout, then none, then a long one, then the short one again: each request runs under its own")
    func eachRequestRunsUnderItsOwnTimeout() async throws {
        let server = LocalHTTPServer()
        // A slow server: every answer comes 600 ms after its request (its event loop is its own, so sleeping there
        // delays nothing else).
        let address = try server.start(host: "127.0.0.1", port: 0, answeringOnEventLoop: { _, _ in
            usleep(600_000)
            return Late()
        })
        let session = try CurlSession()
        func get(within timeout: Duration?) throws -> HTTPResponse {
            try session.perform(HTTPRequest(method: .get, url: "http://127.0.0.1:\(address.port)/slow", totalTimeout: timeout))
        }

        let first = #expect(throws: CurlError.self) { try get(within: .milliseconds(150)) }
        #expect(first?.kind == .timedOut)
        #expect(try get(within: nil).body == Array("late".utf8))
        #expect(try get(within: .seconds(5)).body == Array("late".utf8))
        let last = #expect(throws: CurlError.self) { try get(within: .milliseconds(150)) }
        #expect(last?.kind == .timedOut)
        await server.shutdown()
    }
}
