import Foundation
import NIOHTTP1

/// A local Lambda Invoke API in front of a transport, compatible with the Runtime Interface Emulator: `curl` and
/// `aws lambda invoke --endpoint-url` work against it. Each connection is served as its own task; the transport runs
/// invocations one at a time, so concurrent callers wait their turn instead of being dropped. It answers only its
/// own `Host` and no web page of another origin (``LocalRequestGuard``), and runs only events sent as JSON
/// (``acceptsBody(of:)``), so no page the developer visits can make the function deliver anything.
public final class InvokeEndpoint: Sendable {
    private let transport: any TriggerTransport
    private let onInvocation: @Sendable (Invocation) -> Void
    private let server = LocalHTTPServer()

    /// - Parameter onInvocation: told about every invocation once it has been answered (for a log line).
    public init(transport: any TriggerTransport, onInvocation: @escaping @Sendable (Invocation) -> Void = { _ in }) {
        self.transport = transport
        self.onInvocation = onInvocation
    }

    /// Listens on `host:port` (port 0 picks a free one) and returns `host:port`.
    public func start(host: String = "127.0.0.1", port: Int = 9000) async throws -> String {
        let transport = self.transport
        let onInvocation = self.onInvocation
        let bound = try await server.start(host: host, port: port) { request, body in
            await Self.answer(request, body: body, transport: transport, onInvocation: onInvocation)
        }
        return "\(bound.ip):\(bound.port)"
    }

    /// Stops listening, closes every connection and waits for the event loop to end.
    public func shutdown() async {
        await server.shutdown()
    }

    /// Whether an invocation's body may be run: it must be declared JSON (`application/json`, with or without
    /// parameters), so that no web page can send one without a CORS preflight, which this endpoint never grants
    /// (`text/plain` and form bodies are what a page sends without one). A body with no `Content-Type` at all passes
    /// only without an `Origin`, i.e. not from a browser: `aws lambda invoke` sends none.
    static func acceptsBody(of request: HTTPRequestHead) -> Bool {
        let types = request.headers["Content-Type"]
        guard let type = types.first else { return request.headers["Origin"].isEmpty }
        let mediaType = type.split(separator: ";", maxSplits: 1, omittingEmptySubsequences: false)[0]
        return types.count == 1
            && mediaType.lowercased().trimmingCharacters(in: .whitespaces) == "application/json"
    }

    private static func answer(
        _ request: HTTPRequestHead, body: [UInt8], transport: any TriggerTransport,
        onInvocation: @Sendable (Invocation) -> Void
    ) async -> InvokeAPIAnswer {
        guard InvokeAPIAnswer.isInvocation(method: request.method.rawValue, path: request.uri) else {
            return .notFound(method: request.method.rawValue, path: request.uri)
        }
        guard Self.acceptsBody(of: request) else {
            return .unsupportedMediaType(request.headers["Content-Type"].first)
        }
        do {
            let invocation = try await transport.invoke(body)
            onInvocation(invocation)
            return InvokeAPIAnswer(invocation)
        } catch {
            return InvokeAPIAnswer(cannotRun: error)
        }
    }
}
