import NIOCore
import NIOHTTP1

/// Serves one connection of a ``LocalHTTPServer`` that answers on the event loop: collects each request's head and
/// body and, at its end, writes the answer computed there, saying `Connection: close` when the client did not ask to
/// keep the connection alive.
final class EventLoopAnswerHandler: ChannelInboundHandler {
    typealias InboundIn = HTTPServerRequestPart
    typealias OutboundOut = HTTPServerResponsePart

    private let answer: LocalHTTPServer.EventLoopAnswer
    private var head: HTTPRequestHead?
    private var body: [UInt8] = []

    init(answer: @escaping LocalHTTPServer.EventLoopAnswer) {
        self.answer = answer
    }

    func channelRead(context: ChannelHandlerContext, data: NIOAny) {
        switch unwrapInboundIn(data) {
        case .head(let requestHead):
            head = requestHead
            body.removeAll(keepingCapacity: true)
        case .body(let chunk):
            body += chunk.readableBytesView
        case .end:
            guard let request = head else { return }
            head = nil
            let reply = answer(request, body)
            var responseHead = LocalHTTPServer.head(of: reply, to: request)
            if !request.isKeepAlive { responseHead.headers.add(name: "Connection", value: "close") }
            context.write(wrapOutboundOut(.head(responseHead)), promise: nil)
            context.write(wrapOutboundOut(.body(.byteBuffer(context.channel.allocator.buffer(bytes: reply.body)))), promise: nil)
            context.writeAndFlush(wrapOutboundOut(.end(nil)), promise: nil)
        }
    }
}
