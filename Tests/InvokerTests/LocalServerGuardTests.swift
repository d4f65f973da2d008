import CurlHTTP
import Foundation
import Invoker
import LosslessJSON
import ServiceClients
import TestSupport
import Testing

/// What a web page can do to the local servers: send them requests under a rebound name (a foreign `Host`), POST
/// from its own origin, or POST a CORS-simple body (`text/plain`, a form). Each server is real, on loopback.
@Suite("local servers answer only their own Host and Origin", .serialized)
struct LocalServerGuardTests {
    static let invocations = "/2015-03-31/functions/function/invocations"
    static let json = HTTPHeader("Content-Type", "application/json")

    /// A request to `127.0.0.1:port` (what libcurl connects to) with the headers given, `Host` included.
    static func send(
        _ method: HTTPRequest.Method, port: Int, path: String, headers: [HTTPHeader], body: [UInt8] = []
    ) throws -> (status: Int, text: String) {
        let response = try CurlSession().perform(
            HTTPRequest(
                method: method, url: "http://127.0.0.1:\(port)\(path)", headers: headers, body: body,
                totalTimeout: .seconds(90)))
        return (response.status, String(decoding: response.body, as: UTF8.self))
    }

    @Test("the guard: each spelling of the bound address, its own origins and the ones allowed")
    func guardDecides() {
        let requestGuard = LocalRequestGuard(host: "127.0.0.1", port: 9000, alsoAllowing: ["http://LOCALHOST:5173/", "*"])
        #expect(requestGuard.allowedHosts == ["127.0.0.1:9000", "localhost:9000", "[::1]:9000"])
        #expect(requestGuard.allowedOrigins == [
            "http://127.0.0.1:9000", "http://localhost:9000", "http://[::1]:9000", "http://localhost:5173",
        ])
        for host in ["127.0.0.1:9000", "LocalHost:9000", "[::1]:9000"] {
            #expect(requestGuard.refusal(method: "POST", hosts: [host], origins: []) == nil, "\(host)")
        }
        for hosts in [["evil.example:9000"], ["127.0.0.1:9001"], ["127.0.0.1"], [], ["127.0.0.1:9000", "evil.example"]] {
            let refusal = requestGuard.refusal(method: "GET", hosts: hosts, origins: [])
            #expect(refusal?.status == 421, "\(hosts)")
            #expect(refusal?.message.contains("127.0.0.1:9000, [::1]:9000, localhost:9000") == true, "\(hosts)")
        }
        #expect(requestGuard.refusal(method: "GET", hosts: [], origins: [], hostIsRequired: false) == nil, "HTTP/1.0")
        for origin in ["http://localhost:9000", "http://[::1]:9000", "http://localhost:5173"] {
            #expect(requestGuard.refusal(method: "POST", hosts: ["localhost:9000"], origins: [origin]) == nil, "\(origin)")
        }
        for origin in ["https://evil.example", "null", "http://localhost:9001", "https://localhost:9000"] {
            for method in ["POST", "PUT", "PATCH", "DELETE"] {
                let refusal = requestGuard.refusal(method: method, hosts: ["localhost:9000"], origins: [origin])
                #expect(refusal?.status == 403, "\(method) from \(origin)")
                #expect(refusal?.vary == "Origin")
                #expect(refusal?.message.contains("\"\(origin)\"") == true)
            }
            #expect(requestGuard.refusal(method: "GET", hosts: ["localhost:9000"], origins: [origin]) == nil)
        }
        let other = LocalRequestGuard(host: "::1", port: 80)
        #expect(other.allowedHosts == ["127.0.0.1:80", "localhost:80", "[::1]:80", "127.0.0.1", "localhost", "[::1]"])
    }

    @Test("serve: a foreign Host or Origin, a text/plain or form invocation are refused; JSON from itself is run")
    func serveRefusesWebPages() async throws {
        let scratch = try ScratchDirectory()
        defer { scratch.remove() }
        let serve = try await ServeProcess([], environment: ["OUTBOX_PATH": scratch.path("outbox.jsonl")])
        let port = try #require(Int(serve.address.split(separator: ":").last ?? ""))
        let event = try ServeTests.event("email-code/01-define-start.json")
        func invoke(_ headers: [HTTPHeader]) throws -> (status: Int, text: String) {
            try Self.send(.post, port: port, path: Self.invocations, headers: headers, body: event)
        }

        for host in ["evil.example:\(port)", "127.0.0.1:\(port + 1)"] {
            let refused = try invoke([HTTPHeader("Host", host), Self.json])
            #expect(refused.status == 421, "\(host)")
            #expect(refused.text.contains("127.0.0.1:\(port)"))
        }
        let rebound = try Self.send(.get, port: port, path: "/", headers: [HTTPHeader("Host", "evil.example:\(port)")])
        #expect(rebound.status == 421)

        for origin in ["https://evil.example", "null", "http://localhost:\(port + 1)"] {
            let refused = try invoke([HTTPHeader("Origin", origin), Self.json])
            #expect(refused.status == 403, "\(origin)")
            #expect(refused.text.contains("\"\(origin)\""))
        }

        for type in ["text/plain", "text/plain;charset=UTF-8", "application/x-www-form-urlencoded", "multipart/form-data; boundary=x"] {
            let refused = try invoke([HTTPHeader("Content-Type", type)])
            #expect(refused.status == 415, "\(type)")
            #expect(refused.text.contains("application/json"))
        }
        let untypedFromAPage = try invoke([HTTPHeader("Origin", "http://127.0.0.1:\(port)"), HTTPHeader("Content-Type", "")])
        #expect(untypedFromAPage.status == 415)

        for headers in [
            [Self.json], [HTTPHeader("Content-Type", "Application/JSON; charset=utf-8")],
            [HTTPHeader("Host", "localhost:\(port)"), Self.json], [HTTPHeader("Host", "[::1]:\(port)"), Self.json],
            [HTTPHeader("Origin", "http://localhost:\(port)"), Self.json],
            [HTTPHeader("Content-Type", "")],  // no Content-Type and no Origin: the AWS CLI
        ] {
            let answered = try invoke(headers)
            #expect(answered.status == 200, "\(headers): \(answered.text)")
            #expect(answered.text.contains("CUSTOM_CHALLENGE"), "\(headers)")
        }
        _ = try await serve.stop()
        let outbox = (try? String(contentsOfFile: scratch.path("outbox.jsonl"), encoding: .utf8)) ?? ""
        #expect(outbox.isEmpty, "a refused invocation delivered nothing")
    }

    @Test("the Runtime API emulator answers only its own Host and refuses a foreign Origin's POST")
    func runtimeAPIRefusesForeignHosts() async throws {
        let emulator = RuntimeAPIEmulator()
        let address = try await emulator.start()
        let port = try #require(Int(address.split(separator: ":").last ?? ""))
        let next = "/2018-06-01/runtime/invocation/next"
        let response = "/2018-06-01/runtime/invocation/unknown-id/response"

        let rebound = try Self.send(.get, port: port, path: next, headers: [HTTPHeader("Host", "evil.example:\(port)")])
        #expect(rebound.status == 421)
        #expect(rebound.text.contains("127.0.0.1:\(port)"))
        let foreign = try Self.send(
            .post, port: port, path: response, headers: [HTTPHeader("Origin", "https://evil.example")], body: Array("{}".utf8))
        #expect(foreign.status == 403)
        // What the bootstrap sends (Host 127.0.0.1:PORT, no Origin) reaches the Runtime API: an unknown id is its 400.
        let own = try Self.send(.post, port: port, path: response, headers: [], body: Array("{}".utf8))
        #expect(own.status == 400)
        await emulator.shutdown()
    }

    @Test("the siteverify stand-in answers only its own Host")
    func siteverifyStandInRefusesForeignHosts() throws {
        let standIn = try SiteverifyStandIn(hostname: "example.com", action: nil)
        let port = try #require(Int(standIn.baseURL.split(separator: ":").last ?? ""))
        let path = String(standIn.endpoint(for: .turnstile).dropFirst(standIn.baseURL.count))
        let form = [HTTPHeader("Content-Type", "application/x-www-form-urlencoded")]
        let body = Array("secret=s&response=pass".utf8)
        let rebound = try Self.send(
            .post, port: port, path: path, headers: form + [HTTPHeader("Host", "evil.example:\(port)")], body: body)
        #expect(rebound.status == 421)
        let own = try Self.send(.post, port: port, path: path, headers: form, body: body)
        #expect(own.status != 421)
    }
}
