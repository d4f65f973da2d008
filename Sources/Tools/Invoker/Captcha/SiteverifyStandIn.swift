import CaptchaVerification
import Foundation
import LosslessJSON
import NIOCore
import NIOHTTP1
import NIOPosix

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
/// It answers on its own event loop thread, not on ``LocalHTTPServer``: the triggers it serves run in process and
/// call siteverify synchronously (libcurl) from a task, so a server whose answers need a thread of Swift's
/// cooperative pool could wait for the very thread that waits for it (with the two threads of a two-core machine
/// both calling, every check timed out).
public final class SiteverifyStandIn: Sendable {
    /// The token that passes (and any token that starts with it).
    public static let passingToken = "pass"
    /// A token that fails.
    public static let failingToken = "fail"

    private let group: MultiThreadedEventLoopGroup
    private let channel: any Channel
    /// `http://127.0.0.1:PORT`.
    public let baseURL: String

    /// Listens on a free port of 127.0.0.1 until the process ends.
    public init(hostname: String, action: String?) throws {
        group = MultiThreadedEventLoopGroup(numberOfThreads: 1)
        channel = try ServerBootstrap(group: group)
            .serverChannelOption(.socketOption(.so_reuseaddr), value: 1)
            .childChannelInitializer { channel in
                channel.pipeline.configureHTTPServerPipeline().flatMap {
                    channel.pipeline.addHandler(SiteverifyHandler(hostname: hostname, action: action))
                }
            }
            .bind(host: "127.0.0.1", port: 0).wait()
        baseURL = "http://127.0.0.1:\(channel.localAddress?.port ?? 0)"
    }

    /// The siteverify URL for `provider`.
    public func endpoint(for provider: CaptchaProvider) -> String {
        "\(baseURL)/\(provider.rawValue)/siteverify"
    }
}

private final class SiteverifyHandler: ChannelInboundHandler, @unchecked Sendable {
    typealias InboundIn = HTTPServerRequestPart
    typealias OutboundOut = HTTPServerResponsePart

    private let hostname: String
    private let action: String?
    private var head: HTTPRequestHead?
    private var body: [UInt8] = []

    init(hostname: String, action: String?) {
        self.hostname = hostname
        self.action = action
    }

    func channelRead(context: ChannelHandlerContext, data: NIOAny) {
        switch unwrapInboundIn(data) {
        case .head(let requestHead):
            head = requestHead
            body = []
        case .body(let chunk):
            body += chunk.readableBytesView
        case .end:
            guard let request = head else { return }
            head = nil
            let (status, answer) = respond(to: request)
            let bytes = answer.serialized()
            var headers = HTTPHeaders([("Content-Type", "application/json"), ("Content-Length", String(bytes.count))])
            if !request.isKeepAlive { headers.add(name: "Connection", value: "close") }
            context.write(wrapOutboundOut(.head(HTTPResponseHead(version: request.version, status: status, headers: headers))), promise: nil)
            context.write(wrapOutboundOut(.body(.byteBuffer(ByteBuffer(bytes: bytes)))), promise: nil)
            context.writeAndFlush(wrapOutboundOut(.end(nil)), promise: nil)
        }
    }

    private func respond(to request: HTTPRequestHead) -> (HTTPResponseStatus, JSONValue) {
        let provider = request.uri.split(separator: "/").first.flatMap { CaptchaProvider(rawValue: String($0)) }
        guard request.method == .POST, let provider, request.uri.hasSuffix("/siteverify") else {
            return (.notFound, ["success": false, "error-codes": ["not-found"]])
        }
        let form = Self.form(String(decoding: body, as: UTF8.self))
        guard let token = form["response"], !token.isEmpty, form["secret"]?.isEmpty == false else {
            return (.ok, ["success": false, "error-codes": ["missing-input-response"]])
        }
        guard token.hasPrefix(SiteverifyStandIn.passingToken) else {
            return (.ok, ["success": false, "error-codes": ["invalid-input-response"]])
        }
        var answer: [(String, JSONValue)] = [
            ("success", true), ("challenge_ts", .string(Self.timestamp())), ("hostname", .string(hostname)),
            ("error-codes", []),
        ]
        if provider.reportsAction, let action { answer.append(("action", .string(action))) }
        if provider == .recaptcha, let score = try? JSONValue(parsing: "0.9") { answer.append(("score", score)) }
        return (.ok, .object(JSONObject(answer)))
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
