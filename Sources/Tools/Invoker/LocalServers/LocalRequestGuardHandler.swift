import NIOCore
import NIOHTTP1

/// Stands in front of every connection of a ``LocalHTTPServer``: passes on the requests its ``LocalRequestGuard``
/// lets through, and answers the others itself (once their body has arrived) with the refusal, as plain text, with
/// `Vary` when it depends on `Origin`, and `Connection: close`; the handlers behind it never see a refused request.
final class LocalRequestGuardHandler: ChannelInboundHandler {
    typealias InboundIn = HTTPServerRequestPart
    typealias InboundOut = HTTPServerRequestPart
    typealias OutboundOut = HTTPServerResponsePart

    private let requestGuard: LocalRequestGuard
    /// The refusal of the request being read, and its HTTP version.
    private var refusing: (refusal: LocalRequestGuard.Refusal, version: HTTPVersion)?

    init(requestGuard: LocalRequestGuard) {
        self.requestGuard = requestGuard
    }

    func channelRead(context: ChannelHandlerContext, data: NIOAny) {
        switch unwrapInboundIn(data) {
        case .head(let head):
            if let refusal = requestGuard.refusal(for: head) {
                refusing = (refusal, head.version)
            } else {
                context.fireChannelRead(data)
            }
        case .body:
            if refusing == nil { context.fireChannelRead(data) }
        case .end:
            guard let refused = refusing else { return context.fireChannelRead(data) }
            refusing = nil
            let (refusal, version) = refused
            let body = Array((refusal.message + "\n").utf8)
            var headers = HTTPHeaders([
                ("Content-Type", "text/plain; charset=utf-8"), ("Content-Length", String(body.count)),
                ("Connection", "close"),
            ])
            if let vary = refusal.vary { headers.add(name: "Vary", value: vary) }
            let status = HTTPResponseStatus(statusCode: refusal.status)
            context.write(wrapOutboundOut(.head(HTTPResponseHead(version: version, status: status, headers: headers))), promise: nil)
            context.write(wrapOutboundOut(.body(.byteBuffer(context.channel.allocator.buffer(bytes: body)))), promise: nil)
            let channel = context.channel
            context.writeAndFlush(wrapOutboundOut(.end(nil))).whenComplete { _ in channel.close(promise: nil) }
        }
    }
}
