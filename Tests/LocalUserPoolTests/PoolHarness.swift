import CurlHTTP
import Dispatch
import Foundation
import Invoker
import LocalUserPool
import LosslessJSON

/// A pool served over real HTTP on 127.0.0.1 in this process, with the triggers in-process and codes delivered to
/// a temporary outbox file.
final class PoolHarness: Sendable {
    let baseURL: String
    let pool: LocalUserPool
    let outbox: String
    /// The pool's signing key.
    let key: TokenSigningKey
    private let endpoint: PoolEndpoint

    /// - Parameter transport: where the triggers run; nil runs the real ones in this process.
    init(flow: String = "email-code", flows: ClientAuthFlows = ClientAuthFlows(["ALLOW_CUSTOM_AUTH", "ALLOW_REFRESH_TOKEN_AUTH"]),
         transport: (any TriggerTransport)? = nil, users table: LocalUserTable = .embedded,
         writeAttributes: Set<String>? = nil, readAttributes: Set<String>? = nil) async throws {
        outbox = FileManager.default.temporaryDirectory.appendingPathComponent("pool-\(UUID().uuidString).jsonl").path
        let configuration = try LocalConfiguration(
            processEnvironment: [:], overrides: ["CHALLENGE_FLOW": flow, "OUTBOX_PATH": outbox])
        let triggers = try transport ?? InProcessTransport(configuration: configuration)
        let settings = PoolSettings(flows: flows, writeAttributes: writeAttributes, readAttributes: readAttributes)
        let users = try table.users.map { try PoolUser($0, userPoolId: settings.userPoolId, createdAt: 0) }
        let key = try TokenSigningKey.generate()
        self.key = key
        endpoint = PoolEndpoint()
        var url = ""
        pool = try await endpoint.start(host: "127.0.0.1", port: 0) { baseURL in
            url = baseURL
            return try LocalUserPool(
                settings: settings, users: users, transport: triggers,
                issuer: CognitoTokenIssuer(issuer: "\(baseURL)/\(settings.userPoolId)", clientID: settings.clientId, key: key))
        }
        baseURL = url
    }

    /// Runs `body` with a fresh pool and stops the pool afterwards, whatever happened.
    static func run(
        flow: String = "email-code", transport: (any TriggerTransport)? = nil, _ body: (PoolHarness) async throws -> Void
    ) async throws {
        let harness = try await PoolHarness(flow: flow, transport: transport)
        do {
            try await body(harness)
        } catch {
            await harness.stop()
            throw error
        }
        await harness.stop()
    }

    func stop() async {
        await endpoint.shutdown()
        try? FileManager.default.removeItem(atPath: outbox)
    }

    /// One Cognito operation over HTTP: the status and the body's object.
    func call(_ operation: String, _ body: JSONValue) async throws -> (status: Int, body: JSONObject, errorType: String?) {
        let response = try await post(HTTPRequest(
            method: .post, url: baseURL + "/",
            headers: [
                HTTPHeader("X-Amz-Target", "AWSCognitoIdentityProviderService.\(operation)"),
                HTTPHeader("Content-Type", "application/x-amz-json-1.1"),
            ],
            body: body.serialized(), totalTimeout: .seconds(90)))
        return (response.status, try JSONValue(parsing: response.body).objectValue ?? JSONObject(), response.header("x-amzn-ErrorType"))
    }

    /// A GET of `path`.
    func get(_ path: String) async throws -> HTTPResponse {
        try await post(HTTPRequest(method: .get, url: baseURL + path, totalTimeout: .seconds(90)))
    }

    /// The newest code delivered to `userName`.
    func latestCode(for userName: String = "jane", outbox: String? = nil) throws -> String? {
        let text = (try? String(contentsOfFile: outbox ?? self.outbox, encoding: .utf8)) ?? ""
        return try text.split(separator: "\n").map { try JSONValue(parsing: String($0)).objectValue }
            .last { $0?["userName"]?.stringValue == userName }??["code"]?.stringValue
    }

    /// libcurl blocks, so it runs off the cooperative pool, which the pool itself needs meanwhile. The budget is long:
    /// when the whole suite starts, every cooperative thread can be busy for a while, and the pool answers only after.
    func post(_ request: HTTPRequest) async throws -> HTTPResponse {
        try await withCheckedThrowingContinuation { continuation in
            DispatchQueue.global().async {
                continuation.resume(with: Result { try CurlSession().perform(request) })
            }
        }
    }
}

/// A test's own failure with a message.
struct HarnessFailure: Error, CustomStringConvertible {
    let description: String
    init(_ description: String) { self.description = description }
}
