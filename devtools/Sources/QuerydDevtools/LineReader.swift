// The NIO handler under DaemonLink: hands each line the daemon sends, and the connection's end, to an
// AsyncStream, in order.

import NIOCore

/// What the daemon's connection delivers.
enum LinkEvent: Sendable {
    case line(ByteBuffer)
    case closed
}

/// Forwards framed lines (after NIOExtras' LineBasedFrameDecoder) and the connection's end to `continuation`.
final class LineReader: ChannelInboundHandler {
    typealias InboundIn = ByteBuffer

    private let continuation: AsyncStream<LinkEvent>.Continuation

    init(continuation: AsyncStream<LinkEvent>.Continuation) {
        self.continuation = continuation
    }

    func channelRead(context: ChannelHandlerContext, data: NIOAny) {
        continuation.yield(.line(unwrapInboundIn(data)))
    }

    func channelInactive(context: ChannelHandlerContext) {
        continuation.yield(.closed)
        continuation.finish()
    }

    func errorCaught(context: ChannelHandlerContext, error: any Error) {
        context.close(promise: nil)
    }
}
