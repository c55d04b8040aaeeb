// All the devtools' access to the daemon: one connection to its socket, newline-delimited JSON-RPC 2.0, protocol 2
// (`server.hello` first). It connects on the first call and again on the first call after the connection ended. The
// events of its one cache watch go to the stream `watchCache()` returned, which ends with the connection.

import NIOCore
import NIOExtras
import NIOPosix

/// A JSON-RPC connection to the queryd daemon.
public actor DaemonLink {
    /// The socket path.
    public nonisolated let socketPath: String
    /// What the daemon answered to `server.hello` on the current (or last) connection.
    public private(set) var server: JSON?

    private var channel: (any Channel)?
    private var connecting: Task<any Channel, any Error>?
    /// Bumped for every connection, so the end of an old one is told apart.
    private var generation = 0
    private var nextID: Int64 = 1
    private var pending: [Int64: CheckedContinuation<JSON, any Error>] = [:]
    /// Where the events of `cache.changed` notifications go (the devtools hold one watch at a time).
    private var watch: AsyncStream<[JSON]>.Continuation?

    /// A link to the daemon at `socketPath`; nothing is opened until the first call.
    public init(socketPath: String) {
        self.socketPath = socketPath
    }

    /// Calls `method` and returns its result; throws ``DaemonLinkError``.
    public func call(_ method: String, _ params: JSON = [:]) async throws -> JSON {
        try await send(method, params, on: try await connected())
    }

    func replaceWatch(with continuation: AsyncStream<[JSON]>.Continuation) {
        watch?.finish()
        watch = continuation
    }

    func send(_ method: String, _ params: JSON, on channel: any Channel) async throws -> JSON {
        let id = nextID
        nextID += 1
        let message: JSON = ["jsonrpc": "2.0", "id": .integer(id), "method": .string(method), "params": params]
        let line = ByteBuffer(string: message.text + "\n")
        return try await withCheckedThrowingContinuation { continuation in
            pending[id] = continuation
            // A connection that ended while this caller waited for it to open fails the write, not the reply.
            channel.writeAndFlush(line).whenFailure { _ in Task { await self.abandon(id) } }
        }
    }

    private func abandon(_ id: Int64) {
        pending.removeValue(forKey: id)?.resume(throwing: DaemonLinkError.connectionLost)
    }

    /// The open connection, opened (and greeted with `server.hello`) when there is none.
    func connected() async throws -> any Channel {
        if let channel { return channel }
        if let connecting { return try await connecting.value }
        let task = Task { try await open() }
        connecting = task
        defer { connecting = nil }
        return try await task.value
    }

    private func open() async throws -> any Channel {
        let (events, continuation) = AsyncStream.makeStream(of: LinkEvent.self)
        let opened: any Channel
        do {
            opened = try await ClientBootstrap(group: MultiThreadedEventLoopGroup.singleton)
                .channelInitializer { channel in
                    channel.eventLoop.makeCompletedFuture {
                        try channel.pipeline.syncOperations.addHandlers([
                            ByteToMessageHandler(LineBasedFrameDecoder()), LineReader(continuation: continuation),
                        ])
                    }
                }
                .connect(unixDomainSocketPath: socketPath).get()
        } catch {
            throw DaemonLinkError.unreachable(path: socketPath, reason: "\(error)")
        }
        generation += 1
        let current = generation
        Task { [weak self] in
            for await event in events {
                await self?.receive(event, generation: current)
            }
        }
        do {
            server = try await send(
                "server.hello", ["client": ["name": "queryd-devtools", "version": "0.1.0"], "protocol": 2],
                on: opened)
        } catch {
            opened.close(promise: nil)
            throw error
        }
        channel = opened
        return opened
    }

    private func receive(_ event: LinkEvent, generation: Int) {
        guard generation == self.generation else { return }
        switch event {
        case .line(let buffer):
            guard let message = try? JSON.parse(buffer.readableBytesView) else { return }
            if message["method"] == "cache.changed", case .array(let events) = message["params"]?["events"] {
                watch?.yield(events)
                return
            }
            guard let id = message["id"]?.integer, let continuation = pending.removeValue(forKey: id)
            else { return }  // other notifications: nothing the devtools asked for
            if let error = message["error"] {
                continuation.resume(
                    throwing: DaemonLinkError.rpc(
                        code: error["code"]?.integer ?? 0, message: error["message"]?.string ?? "", data: error["data"])
                )
            } else {
                continuation.resume(returning: message["result"] ?? .null)
            }
        case .closed:
            channel = nil
            watch?.finish()
            watch = nil
            let waiting = pending
            pending.removeAll()
            for continuation in waiting.values { continuation.resume(throwing: DaemonLinkError.connectionLost) }
        }
    }
}
