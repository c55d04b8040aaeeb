// The client actor: owns the connection, the pending calls, and what must be restored after a reconnect.

public import QuerydJSON
import QuerydRPC

// FoundationEssentials where it exists (Linux): full Foundation loads ICU, which costs every program that
// links the client about 6 ms of start-up (measured on `queryd`, release build).
#if canImport(FoundationEssentials)
    public import FoundationEssentials
#else
    public import Foundation
#endif

/// An async/await client of the queryd daemon over its Unix socket.
///
/// One actor owns the connection. A dedicated reader thread parses incoming lines and feeds them to the
/// actor in order; replies resume the waiting calls, `fetch`/`mutate` requests run the registered handlers
/// in tasks of their own, and `query.changed` notifications go to the subscriptions' streams. Every
/// connection starts with `server.hello` (protocol 1 or 2 negotiated, see ``server``). When the connection
/// drops, waiting calls fail with ``QueryClientError/connectionLost(_:)`` (except idempotent reads, which are
/// sent again after the reconnect), subscriptions receive ``SubscriptionEvent/connectionLost(_:)``, and the
/// client reconnects and registers its fetchers, mutators and subscriptions again (see ``ReconnectPolicy``).
public actor QueryClient {
    /// The socket path this client connects to.
    public nonisolated let socketPath: String
    /// The reconnect policy.
    public nonisolated let reconnectPolicy: ReconnectPolicy
    /// The name and version this client sends in `server.hello`.
    public nonisolated static let clientInfo: JSONValue = ["name": "queryd-swift", "version": "0.2.0"]

    var connection: SocketConnection?
    /// Bumped for every connection, so late work of an old connection is recognised and dropped.
    var generation = 0
    var nextRequestID = 1
    var nextLocalID = 1
    var pending: [Int: PendingCall] = [:]
    /// Idempotent calls whose connection dropped before the reply, sent again after the reconnect.
    var parked: [Int: PendingCall] = [:]
    var fetchers: [Int: FetcherEntry] = [:]
    var fetcherByServerID: [Int: Int] = [:]
    var mutators: [Int: MutatorEntry] = [:]
    var mutatorByServerID: [Int: Int] = [:]
    var subscriptions: [Int: SubscriptionEntry] = [:]
    var subscriptionByServerID: [Int: Int] = [:]
    var watches: [Int: WatchEntry] = [:]
    var watchByServerID: [Int: Int] = [:]
    /// The streams of count subscriptions (`watchCount`), by the daemon's id.
    var countWatches: [Int: AsyncStream<Int>.Continuation] = [:]
    /// Handler tasks answering the daemon's requests, by the daemon's request id.
    var serving: [Int: Task<Void, Never>] = [:]
    var eventListeners: [Int: AsyncStream<ConnectionEvent>.Continuation] = [:]
    var isClosed = false
    var hasConnectedOnce = false
    var reconnectTask: Task<Void, Never>?
    /// What the daemon said in `server.hello` on the current (or last) connection.
    var serverInfo: ServerInfo?
    /// The reason the daemon gave (`$/closing`, or an error with `"id": null`) before the connection ended.
    var closingReason: String?

    /// A client for the socket at `socketPath` (nil or empty: ``defaultSocketPath()``, as `queryd serve --socket`
    /// treats it). Call ``connect(waitingUpTo:)`` next.
    public init(socketPath: String? = nil, reconnect: ReconnectPolicy = .standard) {
        self.socketPath = SocketPath.resolve(
            explicit: socketPath, environment: ProcessInfo.processInfo.environment, userID: Platform.userID())
        self.reconnectPolicy = reconnect
    }

    /// The daemon's default socket path, resolved by the rules `queryd serve` uses (QuerydRPC's `SocketPath`):
    /// `$QUERYD_SOCKET`, else `$XDG_RUNTIME_DIR/queryd.sock` when that directory is absolute (a relative one is
    /// ignored, as the XDG Base Directory specification requires), else `/tmp/queryd-<uid>.sock`. Empty values
    /// count as unset.
    public nonisolated static func defaultSocketPath() -> String {
        defaultSocketPath(environment: ProcessInfo.processInfo.environment)
    }

    /// ``defaultSocketPath()`` for the given environment variables.
    public nonisolated static func defaultSocketPath(environment: [String: String]) -> String {
        SocketPath.resolve(explicit: nil, environment: environment, userID: Platform.userID())
    }

    /// Opens the connection and negotiates the protocol (``server`` holds the outcome). Does nothing when
    /// already connected, or while the client reconnects by itself. While nothing listens at the socket path
    /// yet (a daemon that is starting), it tries again with the reconnect policy's backoff for up to `seconds`
    /// before throwing ``QueryClientError/connectionFailed(_:)``.
    public func connect(waitingUpTo seconds: TimeInterval = 0) async throws(QueryClientError) {
        if isClosed { throw .closed }
        if connection != nil || reconnectTask != nil { return }
        let deadline = Date().addingTimeInterval(seconds)
        var attempt = 0
        while true {
            do throws(OpenFailure) {
                attach(try SocketConnection.open(path: socketPath))
                break
            } catch {
                let delay = reconnectPolicy.delay(afterFailedAttempts: attempt)
                guard error.isAbsent, Date().addingTimeInterval(delay) < deadline else {
                    throw .connectionFailed(error.reason)
                }
                attempt += 1
                try? await Task.sleep(nanoseconds: UInt64(delay * 1_000_000_000))
                if isClosed { throw .closed }
            }
        }
        do throws(QueryClientError) {
            try await negotiate()
        } catch {
            // Abandon the connection: its reader's end is then ignored (no disconnect event, no reconnect).
            generation += 1
            connection?.shutdown()
            connection = nil
            throw error
        }
        hasConnectedOnce = true
        emit(.connected)
    }

    /// What the daemon said in `server.hello` on the current (or last) connection: the negotiated protocol,
    /// its node, cache epoch and capabilities. Nil before the first connection.
    public var server: ServerInfo? { serverInfo }

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
        finishWatches()
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
                pending[id] = PendingCall(
                    continuation: continuation, binding: binding, line: line,
                    isResendable: binding == nil && QueryClient.resendableMethods.contains(method))
                do throws(QueryClientError) {
                    try connection.write(line)
                } catch {
                    // The reader then ends too, and the call is failed (or re-sent) with the others.
                    connection.shutdown()
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

    /// Asks the daemon to answer one of this client's pending requests at once with -32800; a call held for
    /// a re-send while disconnected fails with -32800 at once.
    func cancelOwnRequest(_ id: Int) {
        if let call = parked.removeValue(forKey: id) {
            call.continuation.resume(returning: .failure(.server(RPCError(.requestCancelled))))
            return
        }
        guard pending[id] != nil else { return }
        notify("$/cancelRequest", ["id": .number(JSONNumber(id))])
    }

    /// Methods whose request is sent again, unchanged, when the connection drops before the reply: reads
    /// and fetches that the daemon deduplicates, so sending one twice has the effect of sending it once.
    static let resendableMethods: Set<String> = [
        "query.get", "query.state", "query.fetch", "query.ensure", "query.prefetch", "queries.list",
        "server.ping", "server.stats", "rpc.discover",
    ]

    func failPending(with error: QueryClientError) {
        let calls = Array(pending.values) + Array(parked.values)
        pending.removeAll()
        parked.removeAll()
        for call in calls { call.continuation.resume(returning: .failure(error)) }
    }
}

/// A call waiting for its reply.
struct PendingCall {
    let continuation: CheckedContinuation<Result<JSONValue, QueryClientError>, Never>
    let binding: Binding?
    /// The request line as sent (a re-send after a reconnect writes it again, with the same id).
    let line: [UInt8]
    /// An idempotent read: sent again after a reconnect instead of failing.
    let isResendable: Bool
}

/// Bookkeeping the reader applies as soon as a reply arrives, so that messages the daemon sends right
/// after that reply (a `fetch` for a new fetcher, a `query.changed` for a new subscription) find it.
enum Binding {
    case fetcher(local: Int)
    case mutator(local: Int)
    /// `freshStart`: the state starts over (a re-subscribe to a daemon with another cache epoch).
    case subscription(local: Int, freshStart: Bool)
    case watch(local: Int)
}

struct FetcherEntry {
    let params: JSONValue
    let handler: StreamingFetcherHandler
    var serverID: Int?
}

struct MutatorEntry {
    let params: JSONValue
    let handler: MutatorHandler
    var serverID: Int?
}

struct SubscriptionEntry {
    var key: JSONValue
    var options: QueryOptions
    let continuation: AsyncStream<SubscriptionEvent>.Continuation
    var serverID: Int?
    /// Patch mode: the data last received and its `dataVersion`, the base the next merge patch applies to.
    var base: PatchBase?
    /// Patch mode: pushes that arrived while the data was being re-read, handled in order afterwards.
    var heldPushes: [JSONValue]?
}
