// The server: the one engine (query and mutation caches), every session, and the glue between
// them. It dispatches methods by name through the method table, feeds the engine its inputs, and
// applies the effects the engine returns (Server+Effects.swift) on the right connections.

public import Logging
public import QuerydCore
import QuerydJSON
import QuerydRPC

/// The JSON-RPC server around a `QueryCache`; owned and driven by the event loop thread.
public final class Server {
    public let configuration: ServerConfiguration
    public let cache: QueryCache
    /// The mutations, mutators and mutation subscriptions, writing to `cache`.
    public let mutations: MutationCache
    /// Consumes the engine's `dataChanged` / `queryRemoved` effects (the persistence writer);
    /// setting it turns those effects on.
    public var dataObserver: (any QueryCacheObserver)? {
        didSet { cache.reportsDataChanges = dataObserver != nil }
    }
    /// This node's cluster layer (`--cluster`): fetch requests go through it, writes (mutations'
    /// included) are published by it. Nil on a single host. Read by every `query.set` on the fast
    /// path; each access is a read or one assignment, never spanning a call, so accesses are not
    /// checked for exclusivity.
    @exclusivity(unchecked) public var cluster: ClusterCoordinator? {
        didSet { cache.reportsMutationWrites = cluster != nil }
    }
    /// The requests waiting for an engine answer.
    var waitingCallers = WaitingCallers()
    /// Filter calls waiting for their sweep to end (Server+Sweeps.swift).
    var sweepReplies: [SweepID: PendingReply] = [:]
    /// Replies waiting for every sweep to end (`clock.advance`), with their results.
    var repliesAfterSweeps: [(PendingReply, JSONValue)] = []
    /// Every `cache.watch`.
    var cacheWatchers = CacheWatchers()
    /// The subscribed counts (`queries.count` / `mutations.count` with `subscribe: true`).
    var countWatches = CountWatches()
    /// The test clock, when `configuration.manualClock` is on.
    public let manualClock: ManualClock?
    let logger: Logger
    let methods: MethodTable
    /// Requests, errors and pushes, for `server.stats`. Each access is one add or a copy, never
    /// spanning a call, so accesses are not checked for exclusivity.
    @exclusivity(unchecked) var counters: ServerCounters
    /// Read for every push; every access is a single subscript (or a copy, to iterate), never
    /// spanning a call, so accesses are not checked for exclusivity.
    @exclusivity(unchecked) private var sessions: [ConnectionID: Session] = [:]
    // The two lists below are touched for every request; no access to either spans a call that
    // could reach it again (`flush` works on copies), so accesses are not checked for exclusivity.
    @exclusivity(unchecked) private var dirty: [Session] = []
    /// Sessions whose output waits for their peer to read what was written before.
    @exclusivity(unchecked) private var held: [Session] = []
    private var lastConnectionID = 0
    /// The buffer a session's output is encoded into when it flushes, reused by every session:
    /// transports copy what they do not write at once, so it is free again after each write.
    /// Only `Session.flush` touches it, never across a call that could flush again, so its
    /// accesses are not checked for exclusivity.
    @exclusivity(unchecked) var outputScratch: [UInt8] = []
    /// Read for every request line; a plain flag never borrowed across a call, so its accesses
    /// are not checked for exclusivity.
    @exclusivity(unchecked) private(set) var isShuttingDown = false
    /// The answer of `rpc.discover`: the OpenRPC document restricted to the served methods.
    private(set) lazy var discoveryDocument: [UInt8] = OpenRPCDocument.served(methods.names).encoded

    /// A server over `clock` (a `ManualClock` when `configuration.manualClock` is on).
    public init(configuration: ServerConfiguration, clock: any CacheClock, logger: Logger) {
        self.configuration = configuration
        self.cache = QueryCache(clock: clock, epoch: CacheEpoch(configuration.epoch))
        cache.maxDataBytes = configuration.maxDataBytes
        self.mutations = MutationCache(queries: cache)
        self.manualClock = configuration.manualClock ? clock as? ManualClock : nil
        self.logger = logger
        self.methods = MethodTable(configuration: configuration)
        self.counters = ServerCounters(methods: methods.names.count)
        cache.defaultAttemptTimeout = configuration.attemptTimeoutMs
    }

    /// Notifications a client may send that are handled by the session, not the method table.
    static let protocolNotifications = ["$/cancelRequest", "fetch.progress"]

    /// Connections open now.
    public var connectionCount: Int { sessions.count }

    /// The open session of `connection`, if any.
    func session(for connection: ConnectionID) -> Session? { sessions[connection] }

    /// Starts serving a new connection.
    public func openSession(transport: any SessionTransport) -> Session {
        lastConnectionID += 1
        let session = Session(connection: ConnectionID(lastConnectionID), server: self, transport: transport)
        sessions[session.connection] = session
        return session
    }

    /// Forgets a closed session and everything its connection owned.
    func sessionClosed(_ session: Session) {
        sessions[session.connection] = nil
        cache.connectionClosed(session.connection)
        mutations.connectionClosed(session.connection)
        cluster?.connectionClosed(session.connection)
        countWatches.removeAll(of: session.connection)
        applyEffects()
        cacheWatchers.removeAll(of: session.connection)
        updateCacheEventReporting()
    }

    func markDirty(_ session: Session) {
        guard !session.isMarkedDirty else { return }
        session.isMarkedDirty = true
        dirty.append(session)
    }

    /// Writes every session's queued output; call once per loop iteration, before it sleeps.
    public func flush() {
        applyEffects()
        writeWatchEvents()
        if !countWatches.isEmpty { pushChangedCounts() }
        let waiting = held
        held = []
        for session in waiting { markDirty(session) }
        while !dirty.isEmpty {
            let batch = dirty
            dirty = []
            for session in batch {
                session.isMarkedDirty = false
                if !session.flush() { held.append(session) }
                session.transport.didFlush(pendingOutputBytes: session.pendingOutputBytes)
            }
        }
    }

    /// Runs timers that are due (on the real clock; the manual clock moves by `clock.advance`).
    public func runDueTimers() {
        cache.runDueTimers()
        applyEffects()
    }

    /// The next timer deadline (ms since the epoch), to arm the loop's one timer.
    public var nextDeadline: Int64? { cache.nextDeadline }

    /// Stops serving: every waiting request is answered with -32003, and every connection closes
    /// once its output is written.
    public func shutdown() {
        guard !isShuttingDown else { return }
        isShuttingDown = true
        for session in sessions.values {
            session.failDeferred(.shutdown)
            session.closeRequested = true
            markDirty(session)
        }
        flush()
    }

    /// Runs `method` for a request (or notification, when `reply.id` is nil).
    func dispatch(method: String, params: JSONValue?, reply: PendingReply, session: Session) {
        if isShuttingDown {
            reply.fail(.shutdown)
            return
        }
        guard let entry = methods.entry(for: method) else {
            reply.fail(RPCError(.methodNotFound, data: ["method": .string(EchoedText.shortened(method))]))
            return
        }
        counters.requests[entry.index] &+= 1
        do {
            if let holding = entry.holding { try checkLimit(holding, session: session) }
            let call = MethodCall(server: self, session: session, params: try Params(params), reply: reply)
            try entry.handler(call)
            applyEffects()
            switch entry.holding {
            case .subscription(let change): session.subscriptionCount += change
            case .registration(let change): session.registrationCount += change
            case nil: break
            }
        } catch {
            counters.errors[entry.index] &+= 1
            reply.fail(error)
        }
    }

    /// Refuses a call that would take a connection past its subscription or registration limit
    /// (releasing a holding is never refused).
    private func checkLimit(_ holding: MethodHolding, session: Session) throws(RPCError) {
        switch holding {
        case .subscription(let change) where change > 0:
            let max = configuration.maxSubscriptionsPerConnection
            if session.subscriptionCount >= max { throw .limitExceeded("max-subscriptions-per-connection", max: max) }
        case .registration(let change) where change > 0:
            let max = configuration.maxRegistrationsPerConnection
            if session.registrationCount >= max { throw .limitExceeded("max-registrations-per-connection", max: max) }
        default:
            break
        }
    }
}
