// The client actor: owns the connection, the pending calls, and what must be restored after a reconnect.

import Foundation
public import QuerydJSON
import QuerydRPC

/// An async/await client of the queryd daemon over its Unix socket.
///
/// One actor owns the connection. A dedicated reader thread parses incoming lines and feeds them to the
/// actor in order; replies resume the waiting calls, `fetch`/`mutate` requests run the registered handlers
/// in tasks of their own, and `query.changed` notifications go to the subscriptions' streams. When the
/// connection drops, waiting calls fail with ``QueryClientError/connectionLost(_:)``, subscriptions receive
/// ``SubscriptionEvent/connectionLost(_:)``, and the client reconnects and registers its fetchers, mutators
/// and subscriptions again (see ``ReconnectPolicy``).
public actor QueryClient {
    /// The socket path this client connects to.
    public nonisolated let socketPath: String
    /// The reconnect policy.
    public nonisolated let reconnectPolicy: ReconnectPolicy

    var connection: SocketConnection?
    /// Bumped for every connection, so late work of an old connection is recognised and dropped.
    var generation = 0
    var nextRequestID = 1
    var nextLocalID = 1
    var pending: [Int: PendingCall] = [:]
    var fetchers: [Int: FetcherEntry] = [:]
    var fetcherByServerID: [Int: Int] = [:]
    var mutators: [Int: MutatorEntry] = [:]
    var mutatorByServerID: [Int: Int] = [:]
    var subscriptions: [Int: SubscriptionEntry] = [:]
    var subscriptionByServerID: [Int: Int] = [:]
    /// Handler tasks answering the daemon's requests, by the daemon's request id.
    var serving: [Int: Task<Void, Never>] = [:]
    var eventListeners: [Int: AsyncStream<ConnectionEvent>.Continuation] = [:]
    var isClosed = false
    var hasConnectedOnce = false
    var reconnectTask: Task<Void, Never>?

    /// A client for the socket at `socketPath` (default: `$QUERYD_SOCKET`, else
    /// `$XDG_RUNTIME_DIR/queryd.sock`, else `/tmp/queryd-<uid>.sock`). Call ``connect()`` next.
    public init(socketPath: String? = nil, reconnect: ReconnectPolicy = .standard) {
        self.socketPath = socketPath ?? QueryClient.defaultSocketPath()
        self.reconnectPolicy = reconnect
    }

    /// The daemon's default socket path, from the environment as `queryd serve` computes it.
    public nonisolated static func defaultSocketPath() -> String {
        let environment = ProcessInfo.processInfo.environment
        if let path = environment["QUERYD_SOCKET"], !path.isEmpty { return path }
        if let runtime = environment["XDG_RUNTIME_DIR"], !runtime.isEmpty { return runtime + "/queryd.sock" }
        return "/tmp/queryd-\(getuid()).sock"
    }

    /// Opens the connection. Does nothing when already connected.
    public func connect() async throws(QueryClientError) {
        if isClosed { throw .closed }
        if connection != nil { return }
        let opened = try SocketConnection.open(path: socketPath)
        attach(opened)
        hasConnectedOnce = true
        emit(.connected)
    }

    /// Whether a connection is open right now.
    public var isConnected: Bool { connection != nil }

    /// Closes the connection for good: pending calls fail with ``QueryClientError/closed``, subscription
    /// streams and event streams end, and no reconnect follows.
    public func close() {
        guard !isClosed else { return }
        isClosed = true
        reconnectTask?.cancel()
        reconnectTask = nil
        connection?.shutdown()
        failPending(with: .closed)
        for entry in subscriptions.values { entry.continuation.finish() }
        subscriptions.removeAll()
        subscriptionByServerID.removeAll()
        for listener in eventListeners.values { listener.finish() }
        eventListeners.removeAll()
    }

    /// A new stream of connection events (each call makes an independent stream).
    public func connectionEvents() -> AsyncStream<ConnectionEvent> {
        let (stream, continuation) = AsyncStream.makeStream(of: ConnectionEvent.self)
        let id = takeLocalID()
        eventListeners[id] = continuation
        continuation.onTermination = { _ in Task { await self.removeListener(id) } }
        return stream
    }

    /// Calls any daemon method and returns its raw result (for methods without a typed wrapper).
    /// Cancelling the calling task sends `$/cancelRequest` for it.
    public func call(_ method: String, _ params: JSONValue = [:]) async throws(QueryClientError) -> JSONValue {
        try await request(method, params, binding: nil)
    }

    // MARK: - Internals shared by the extensions

    func takeLocalID() -> Int {
        defer { nextLocalID += 1 }
        return nextLocalID
    }

    func removeListener(_ id: Int) {
        eventListeners[id] = nil
    }

    func emit(_ event: ConnectionEvent) {
        for listener in eventListeners.values { listener.yield(event) }
    }

    /// Sends a request and waits for its reply; `binding` is applied by the reader when the reply arrives,
    /// before any later message is handled.
    func request(_ method: String, _ params: JSONValue, binding: Binding?) async throws(QueryClientError) -> JSONValue {
        if isClosed { throw .closed }
        guard let connection else { throw .notConnected }
        let id = nextRequestID
        nextRequestID += 1
        var line: [UInt8] = []
        RPCWriter.request(id: .number(JSONNumber(id)), method: method, params: params, to: &line)
        line.append(0x0A)
        let outcome: Result<JSONValue, QueryClientError> = await withTaskCancellationHandler {
            await withCheckedContinuation {
                (continuation: CheckedContinuation<Result<JSONValue, QueryClientError>, Never>) in
                pending[id] = PendingCall(continuation: continuation, binding: binding)
                do throws(QueryClientError) {
                    try connection.write(line)
                } catch {
                    pending[id] = nil
                    continuation.resume(returning: .failure(error))
                }
            }
        } onCancel: {
            Task { await self.cancelOwnRequest(id) }
        }
        return try outcome.get()
    }

    /// Sends a notification; a write failure is ignored (the reader notices the broken connection).
    func notify(_ method: String, _ params: JSONValue) {
        var line: [UInt8] = []
        RPCWriter.notification(method: method, params: params, to: &line)
        line.append(0x0A)
        try? connection?.write(line)
    }

    /// Asks the daemon to answer one of this client's pending requests at once with -32800.
    func cancelOwnRequest(_ id: Int) {
        guard pending[id] != nil else { return }
        notify("$/cancelRequest", ["id": .number(JSONNumber(id))])
    }

    func failPending(with error: QueryClientError) {
        let calls = pending
        pending.removeAll()
        for call in calls.values { call.continuation.resume(returning: .failure(error)) }
    }
}

/// A call waiting for its reply.
struct PendingCall {
    let continuation: CheckedContinuation<Result<JSONValue, QueryClientError>, Never>
    let binding: Binding?
}

/// Bookkeeping the reader applies as soon as a reply arrives, so that messages the daemon sends right
/// after that reply (a `fetch` for a new fetcher, a `query.changed` for a new subscription) find it.
enum Binding {
    case fetcher(local: Int)
    case mutator(local: Int)
    case subscription(local: Int)
}

struct FetcherEntry {
    let params: JSONValue
    let handler: FetcherHandler
    var serverID: Int?
}

struct MutatorEntry {
    let params: JSONValue
    let handler: MutatorHandler
    var serverID: Int?
}

struct SubscriptionEntry {
    let key: JSONValue
    var options: QueryOptions
    let continuation: AsyncStream<SubscriptionEvent>.Continuation
    var serverID: Int?
}
