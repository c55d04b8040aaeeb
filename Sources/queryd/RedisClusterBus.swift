// `RedisLink` (QuerydTransport) as the server's `ClusterBus`: replies and states mapped to the
// server's own types, plus the repeating tick the coordinator counts.

import QuerydServer
import QuerydTransport

/// The daemon's link to Redis, as the cluster layer sees it.
final class RedisClusterBus: ClusterBus {
    private let link: RedisLink
    private let timer: LoopTimer
    private var tickBody: (() -> Void)?
    private var tickMilliseconds: UInt64 = 0

    init(link: RedisLink, loop: EventLoop) {
        self.link = link
        self.timer = LoopTimer(loop: loop)
    }

    var linkState: ClusterLinkState { ClusterLinkState(link.state) }
    var reconnects: Int { link.reconnects }
    var lastFailure: String? { link.lastFailure }

    var onLinkStateChange: ((ClusterLinkState) -> Void)? {
        didSet {
            let body = onLinkStateChange
            link.onStateChange = { body?(ClusterLinkState($0)) }
        }
    }

    var onMessage: ((_ channel: [UInt8], _ payload: [UInt8]) -> Void)? {
        get { link.onMessage }
        set { link.onMessage = newValue }
    }

    func start() { link.start() }

    func stop() {
        tickBody = nil
        timer.close()
        link.stop()
    }

    func send(_ arguments: [[UInt8]], reply: @escaping (ClusterReply) -> Void) {
        link.send(arguments) { reply(ClusterReply($0)) }
    }

    func subscribe(_ channels: [[UInt8]]) { link.subscribe(channels) }

    func every(milliseconds: Int, _ body: @escaping () -> Void) {
        tickBody = body
        tickMilliseconds = UInt64(max(1, milliseconds))
        armTick()
    }

    private func armTick() {
        timer.schedule(afterMilliseconds: tickMilliseconds) { [unowned self] in
            guard let body = tickBody else { return }
            body()
            armTick()
        }
    }
}

extension ClusterLinkState {
    init(_ state: RedisLinkState) {
        switch state {
        case .connecting: self = .connecting
        case .connected: self = .connected
        case .disconnected: self = .disconnected
        }
    }
}

extension ClusterReply {
    init(_ reply: RedisReply) {
        switch reply {
        case .status(let text): self = .status(text)
        case .error(let text): self = .error(text)
        case .integer(let value): self = .integer(value)
        case .bulk(let bytes): self = .bulk(bytes)
        case .null: self = .null
        case .array(let items): self = .array(items.map(ClusterReply.init))
        }
    }
}
