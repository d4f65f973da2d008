import CurlHTTP
import Invoker
import LocalUserPool
import LosslessJSON
import Testing

/// What a web page can do to the pool: reach it under a rebound name (a foreign `Host`, then every answer is
/// same-origin to the page) or POST Admin operations from its own origin. The pool and its HTTP API are real, on
/// loopback.
@Suite("the pool answers only its own Host and Origin")
struct PoolRequestGuardTests {
    static let getUser: JSONValue = ["UserPoolId": .string(LocalDefaults.userPoolId), "Username": "jane"]

    /// `AdminGetUser` for jane to the pool at `harness`, with `headers` besides the protocol's own.
    static func adminGetUser(_ harness: PoolHarness, _ headers: [HTTPHeader]) async throws -> (status: Int, text: String) {
        let response = try await harness.post(HTTPRequest(
            method: .post, url: harness.baseURL + "/",
            headers: [
                HTTPHeader("X-Amz-Target", "AWSCognitoIdentityProviderService.AdminGetUser"),
                HTTPHeader("Content-Type", "application/x-amz-json-1.1"),
            ] + headers,
            body: getUser.serialized(), totalTimeout: .seconds(90)))
        return (response.status, String(decoding: response.body, as: UTF8.self))
    }

    static func port(of url: String) throws -> Int {
        try #require(Int(url.split(separator: ":").last ?? ""))
    }

    @Test("a foreign Host is refused (DNS rebinding): no sign-in page, no Admin operation")
    func foreignHostIsRefused() async throws {
        try await PoolHarness.run { harness in
            let port = try Self.port(of: harness.baseURL)
            for host in ["evil.example:\(port)", "127.0.0.1:\(port + 1)"] {
                let refused = try await Self.adminGetUser(harness, [HTTPHeader("Host", host)])
                #expect(refused.status == 421, "\(host)")
                #expect(refused.text.contains("localhost:\(port)"))
                #expect(!refused.text.contains("jane"))
                let page = try await harness.post(HTTPRequest(
                    method: .get, url: harness.baseURL + "/", headers: [HTTPHeader("Host", host)], totalTimeout: .seconds(90)))
                #expect(page.status == 421)
            }
            for host in ["127.0.0.1:\(port)", "localhost:\(port)", "[::1]:\(port)"] {
                let answered = try await Self.adminGetUser(harness, [HTTPHeader("Host", host)])
                #expect(answered.status == 200, "\(host): \(answered.text)")
            }
        }
    }

    @Test("a POST from a foreign Origin is refused; the pool's own origin and SDK clients (no Origin) are answered")
    func foreignOriginIsRefused() async throws {
        try await PoolHarness.run { harness in
            let port = try Self.port(of: harness.baseURL)
            for origin in ["https://evil.example", "null", "http://localhost:\(port + 1)"] {
                let refused = try await Self.adminGetUser(harness, [HTTPHeader("Origin", origin)])
                #expect(refused.status == 403, "\(origin)")
                #expect(refused.text.contains("\"\(origin)\""))
            }
            for headers in [
                [], [HTTPHeader("Origin", "http://localhost:\(port)")], [HTTPHeader("Origin", "http://127.0.0.1:\(port)")],
            ] {
                let answered = try await Self.adminGetUser(harness, headers)
                #expect(answered.status == 200, "\(headers): \(answered.text)")
                #expect(answered.text.contains("jane"))
            }
        }
    }

    @Test("the HTTP API answers its own Host only, and POSTs from the origins its policy allows only")
    func httpAPIRefusesForeignRequests() async throws {
        try await PoolHarness.run { harness in
            let poolPort = try Self.port(of: harness.baseURL)
            let api = HTTPAPIEndpoint(allowedOrigins: .ownOrigin(host: "127.0.0.1", port: poolPort))
            let url = try await api.start(host: "127.0.0.1", port: 0, pool: harness.pool)
            let apiPort = try Self.port(of: url)
            func post(_ headers: [HTTPHeader]) async throws -> Int {
                try await harness.post(HTTPRequest(
                    method: .post, url: url + "/passkeys", headers: [HTTPHeader("Content-Type", "application/json")] + headers,
                    body: Array("{}".utf8), totalTimeout: .seconds(90))).status
            }
            #expect(try await post([HTTPHeader("Host", "evil.example:\(apiPort)")]) == 421)
            #expect(try await post([HTTPHeader("Origin", "https://evil.example")]) == 403)
            // The sign-in page is on the pool's origin, not the API's: its calls reach the routes (401: no token).
            #expect([401, 404].contains(try await post([HTTPHeader("Origin", "http://localhost:\(poolPort)")])))
            #expect([401, 404].contains(try await post([])))
            await api.shutdown()
        }
    }
}
