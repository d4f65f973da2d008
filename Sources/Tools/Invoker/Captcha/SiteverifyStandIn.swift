import Foundation
import LosslessJSON
import NIOHTTP1
import ServiceClients

/// A local stand-in for the siteverify APIs of Turnstile, reCAPTCHA and hCaptcha, so that CAPTCHA flows with a
/// provider run offline: `cognito-local` starts it when `CAPTCHA_PROVIDER` names a provider and no
/// `CAPTCHA_ENDPOINT` is set, and points the triggers at it.
///
/// It speaks each provider's protocol (form-encoded POST to `/<provider>/siteverify`, JSON answer with `success`,
/// `challenge_ts`, `hostname`, `action`, `score` and `error-codes`). A token that starts with ``passingToken`` passes,
/// reported as solved on the first allowed hostname with the configured action; any other token fails with
/// `invalid-input-response`. Unlike the real providers it accepts a token more than once, so that a person can type
/// `pass` at every prompt (the protocol's single use is tested against a stand-in of its own).
///
/// It answers on the event loop of its ``LocalHTTPServer``, not on Swift's cooperative pool: the triggers it serves
/// run in process and call siteverify synchronously (libcurl) from a task, so an answer that needed a thread of the
/// cooperative pool could wait for the very thread that waits for it (with the two threads of a two-core machine both
/// calling, every check timed out).
public final class SiteverifyStandIn: Sendable {
    /// The token that passes (and any token that starts with it).
    public static let passingToken = "pass"
    /// A token that fails.
    public static let failingToken = "fail"

    private let server: LocalHTTPServer
    /// `http://127.0.0.1:PORT`.
    public let baseURL: String

    /// Listens on a free port of 127.0.0.1 until the process ends.
    public init(hostname: String, action: String?) throws {
        let siteverify = Siteverify(hostname: hostname, action: action)
        server = LocalHTTPServer()
        let bound = try server.start(
            host: "127.0.0.1", port: 0, answeringOnEventLoop: { request, body in siteverify.answer(request, body: body) })
        baseURL = "http://127.0.0.1:\(bound.port)"
    }

    /// The siteverify URL for `provider`.
    public func endpoint(for provider: CaptchaProvider) -> String {
        "\(baseURL)/\(provider.rawValue)/siteverify"
    }
}

/// A JSON answer of the stand-in.
private struct SiteverifyAnswer: LocalHTTPAnswer {
    let status: Int
    let headers = [("Content-Type", "application/json")]
    let body: [UInt8]

    init(status: Int, _ json: JSONValue) {
        self.status = status
        body = json.serialized()
    }
}

/// What the stand-in answers: the providers' siteverify protocol, with the scenario chosen by the token.
private struct Siteverify: Sendable {
    let hostname: String
    let action: String?

    func answer(_ request: HTTPRequestHead, body: [UInt8]) -> SiteverifyAnswer {
        let provider = request.uri.split(separator: "/").first.flatMap { CaptchaProvider(rawValue: String($0)) }
        guard request.method == .POST, let provider, request.uri.hasSuffix("/siteverify") else {
            return SiteverifyAnswer(status: 404, ["success": false, "error-codes": ["not-found"]])
        }
        let form = Self.form(String(decoding: body, as: UTF8.self))
        guard let token = form["response"], !token.isEmpty, form["secret"]?.isEmpty == false else {
            return SiteverifyAnswer(status: 200, ["success": false, "error-codes": ["missing-input-response"]])
        }
        guard token.hasPrefix(SiteverifyStandIn.passingToken) else {
            return SiteverifyAnswer(status: 200, ["success": false, "error-codes": ["invalid-input-response"]])
        }
        var answer: [(String, JSONValue)] = [
            ("success", true), ("challenge_ts", .string(Self.timestamp())), ("hostname", .string(hostname)),
            ("error-codes", []),
        ]
        if provider.reportsAction, let action { answer.append(("action", .string(action))) }
        if provider == .recaptcha, let score = try? JSONValue(parsing: "0.9") { answer.append(("score", score)) }
        return SiteverifyAnswer(status: 200, .object(JSONObject(answer)))
    }

    private static func form(_ text: String) -> [String: String] {
        var fields: [String: String] = [:]
        for pair in text.split(separator: "&") {
            let parts = pair.split(separator: "=", maxSplits: 1).map {
                String($0).replacingOccurrences(of: "+", with: " ").removingPercentEncoding ?? String($0)
            }
            if parts.count == 2 { fields[parts[0]] = parts[1] }
        }
        return fields
    }

    private static func timestamp() -> String {
        let formatter = ISO8601DateFormatter()
        formatter.timeZone = TimeZone(identifier: "UTC")
        return formatter.string(from: Date())
    }
}
