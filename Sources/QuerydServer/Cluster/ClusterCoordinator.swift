// The cluster layer of one node: a consumer of the engine's fetch effects and a source of its
// inputs. It joins the namespace (layout check), reads shared data before a fetch, takes the fetch
// lease or waits for its holder's outcome, publishes outcomes and heartbeats, dispatches other
// nodes' messages, and re-invalidates the cache after every gap in the link. Writes are in
// ClusterCoordinator+Writes.swift, forwarded fetches and mutations in +Forwarding and +Mutators.
// Everything runs on the loop thread; commands to Redis are asynchronous (`ClusterBus`).

public import Logging
import QuerydCore
import QuerydJSON
import QuerydRPC

/// One node's membership of a cluster (`queryd serve --cluster`).
public final class ClusterCoordinator {
    /// This node's id (`--node-id`), the origin of every message it publishes.
    public let nodeId: String
    let layout: ClusterLayout
    let bus: any ClusterBus
    unowned let server: Server
    let logger: Logger
    /// A lease's expiry (ms); the holder extends it every third of it while its fetch runs.
    private let leaseMs: Int
    /// Whether the layout was checked on the link's current connection: only then is Redis used.
    private(set) var joined = false
    /// Whether the link's failure to come up (or the layout check's) was logged since the node last
    /// joined (once is enough).
    private var loggedUnreachable = false
    /// Whether the layout check is waiting for its reply.
    private var checkingLayout = false
    /// Whether Redis refused this node (another layout version): it never joins.
    private var refused = false
    private var leases = ClusterLeases()
    /// Write messages made while the link was down, published once it is back (oldest first).
    private var unsent: [[UInt8]] = []
    /// The writes published on joining after a gap, sent again to each node that joins within
    /// `replayTicks` after (it may have been cut off too, and missed them), and until when.
    private var replay: (payloads: [[UInt8]], until: Int)?
    /// The other nodes heard from, and the proxies of their fetchers.
    var peers = ClusterPeers()
    /// Fetch attempts sent to other nodes' fetchers, and those forwarded here.
    var forwards = ClusterForwards(AttemptID.init)
    /// Mutate attempts sent to other nodes' mutators, and those forwarded here.
    var mutateForwards = ClusterForwards(MutationAttemptID.init)
    private var ticks = 0
    private var messagesIn = 0
    private var messagesOut = 0
    /// Called once when Redis holds another layout version: the node must not serve this cluster.
    public var onRefused: ((String) -> Void)?

    /// Ticks are this long; heartbeats, lease renewals and lease retries count them.
    static let tickMs = 100
    /// At most this many writes wait for the link; older ones are dropped (and logged).
    static let maxUnsent = 10_000
    /// How long after joining the writes made while cut off are sent again to nodes joining (10 s).
    static let replayTicks = 100

    public init(server: Server, bus: any ClusterBus, namespace: String, nodeId: String, leaseMs: Int, logger: Logger) {
        self.server = server
        self.bus = bus
        self.layout = ClusterLayout(namespace: namespace)
        self.nodeId = nodeId
        self.leaseMs = leaseMs
        self.logger = logger
    }

    var cache: QueryCache { server.cache }

    /// Starts the link; until it is up and joined the node serves alone.
    public func start() {
        bus.onLinkStateChange = { [unowned self] state in linkChanged(state) }
        bus.onMessage = { [unowned self] _, payload in received(payload) }
        bus.subscribe([layout.channel, layout.nodeChannel(nodeId)])
        bus.every(milliseconds: Self.tickMs) { [unowned self] in tick() }
        bus.start()
        logger.info("cluster: node \(nodeId), namespace \(layout.namespace); connecting to Redis")
    }

    /// Leaves the cluster (at shutdown): the link closes.
    public func stop() {
        joined = false
        bus.stop()
    }

    // MARK: - The link

    private func linkChanged(_ state: ClusterLinkState) {
        guard state == .connected else {
            guard joined else {
                if state == .disconnected, !loggedUnreachable {
                    loggedUnreachable = true
                    logger.warning(
                        "cluster: Redis unreachable (\(bus.lastFailure ?? "no reason given")); serving alone, retrying")
                }
                return
            }
            joined = false
            logger.warning("cluster: lost Redis (\(state.rawValue)); serving alone until it is back")
            for peer in peers.removeAll() { closeProxy(of: peer.node, peer.proxy) }
            for request in leases.takeAllWaiting() where isCurrent(request) { deliver(request) }
            server.applyEffects()
            return
        }
        checkLayout()
    }

    /// SET NX GET: writes the layout version when the namespace is new, and returns the one there;
    /// the same joins, another refuses. A failed check is tried again on the next tick.
    private func checkLayout() {
        guard !checkingLayout else { return }
        checkingLayout = true
        let version = Array(String(ClusterLayout.version).utf8)
        bus.send([bytes("SET"), layout.layoutKey, version, bytes("NX"), bytes("GET")]) { [unowned self] reply in
            checkingLayout = false
            guard !joined, bus.linkState == .connected else { return }
            switch reply {
            case .null, .bulk(version): join()
            case .bulk(let other):
                let found = String(decoding: other, as: UTF8.self)
                refused = true
                onRefused?(
                    """
                    cluster: Redis holds layout version \(found) for namespace \(layout.namespace) and this node \
                    speaks version \(ClusterLayout.version); refusing to join (run one version per namespace)
                    """)
            default:
                // Logged once until the node joins (it is tried again every tick).
                guard !loggedUnreachable else { return }
                loggedUnreachable = true
                logger.warning("cluster: cannot read the layout version: \(reply); trying again")
            }
        }
    }

    /// The layout matches: use Redis from now on. The node may have missed writes while it was
    /// not joined, so every local query is invalidated (the active ones refetch, through the lease).
    private func join() {
        joined = true
        loggedUnreachable = false
        logger.info("cluster: joined namespace \(layout.namespace) as node \(nodeId)")
        let pending = unsent
        unsent = []
        replay = pending.isEmpty ? nil : (pending, ticks + Self.replayTicks)
        for payload in pending { publish(payload: payload, queuedWhileDown: true) }
        publish(.hello(fetchers: localFetchers, mutators: localMutators, joining: true))
        _ = cache.invalidate(QueryFilter(), refetchType: .active)
        server.applyEffects()
    }

    // MARK: - Fetches (`sendFetch` / `cancelFetch` effects, answers)

    /// The engine wants `request` sent to a fetcher: in the cluster, shared data or another node's
    /// fetch may answer it instead.
    func fetch(_ request: FetchRequest) {
        guard joined, isCurrent(request) else {
            deliver(request)
            return
        }
        acquire(request)
    }

    /// Whether the engine still waits for this attempt.
    private func isCurrent(_ request: FetchRequest) -> Bool {
        cache.isCurrentAttempt(request.attempt)
    }

    /// Shared data, then the lease, for an ordinary query's attempt and for the first page of an
    /// infinite query's whole list (first load, refetch); the page's own lease for any other page.
    private func acquire(_ request: FetchRequest) {
        if cache.fetchOptions(forAttempt: request.attempt) != nil {
            readShared(request)
        } else {
            takeLease(request, gcTime: cache.gcTime(of: request.key))
        }
    }

    /// GET the shared data, and (sent with it) when invalidations last covered the key: data
    /// fetched after them and fresh by the fetch's staleTime settles the attempt as it is; otherwise
    /// the lease decides who fetches.
    private func readShared(_ request: FetchRequest) {
        var replies: (invalidated: ClusterReply?, data: ClusterReply?)
        func bothAnswered() {
            guard let invalidated = replies.invalidated, let data = replies.data else { return }
            sharedRead(request, data: data, invalidatedAt: Self.latest(invalidated))
        }
        let fields = ["*", ClusterLayout.invalidationField(request.key.elements.first)].map(bytes)
        bus.send([bytes("HMGET"), layout.invalidatedKey] + fields) { reply in
            replies.invalidated = reply
            bothAnswered()
        }
        bus.send([bytes("GET"), layout.dataKey(request.key)]) { reply in
            replies.data = reply
            bothAnswered()
        }
    }

    /// The latest time in an `HMGET` of invalidation times (0: none; nil: no answer).
    private static func latest(_ reply: ClusterReply) -> Int64? {
        guard case .array(let times) = reply else { return nil }
        return times.reduce(0) { latest, time in
            guard case .bulk(let text) = time, let at = Int64(String(decoding: text, as: UTF8.self)) else {
                return latest
            }
            return max(latest, at)
        }
    }

    /// The shared data's `data` reply read for `request`: used when it was fetched after
    /// `invalidatedAt` (nil: unknown, so not used) and is fresh by the fetch's staleTime.
    private func sharedRead(_ request: FetchRequest, data reply: ClusterReply, invalidatedAt: Int64?) {
        guard let options = cache.fetchOptions(forAttempt: request.attempt) else { return }
        if case .error = reply {
            deliver(request)
            return
        }
        if let invalidatedAt, let entry = ClusterEntry(reply: reply, for: request.key),
            entry.dataUpdatedAt > invalidatedAt, entry.isFresh(at: cache.now, staleTime: options.staleTime),
            cache.attemptSettled(
                request.attempt, data: entry.data, updatedAt: entry.dataUpdatedAt, pageLinks: entry.pageLinks)
        {
            server.applyEffects()
            return
        }
        takeLease(request, gcTime: options.gcTime)
    }

    /// SET NX PX the key's lease: won, the attempt goes to the local fetcher; held elsewhere, it
    /// waits for the holder's outcome (and tries again every few ticks).
    private func takeLease(_ request: FetchRequest, gcTime: Int64?) {
        let lease = ClusterLeases.Held(
            subject: LeaseSubject(request), token: bytes("\(nodeId)/\(request.attempt)"), gcTime: gcTime)
        let command = [
            bytes("SET"), leaseKey(of: lease), lease.token, bytes("NX"), bytes("PX"), bytes(String(leaseMs)),
        ]
        bus.send(command) { [unowned self] reply in
            let current = isCurrent(request)
            switch reply {
            case .status:
                guard current else {
                    releaseLease(lease)
                    return
                }
                leases.hold(request.attempt, lease)
                deliver(request)
            case .null:
                if current { leases.wait(request, triedAt: ticks) }
            default:
                if current { deliver(request) }
            }
        }
    }

    /// A fetcher answered `attempt` (already given to the engine) with `error` (nil: data): a fetch
    /// forwarded here is answered to its origin; if this node held the lease, the outcome is
    /// published, and the lease released. The data the query settled with (an infinite query's whole
    /// list, once its fetch has all its pages) is stored first.
    func fetchAnswered(_ attempt: AttemptID, answer: JSONValue?, error: JSONValue?) {
        if relayAnswer(attempt, answer: answer, error: error) { return }
        guard let lease = leases.release(attempt) else { return }
        let (key, page) = (lease.subject.key, lease.subject.page)
        let settled = error == nil ? storeSettled(key, gcTime: lease.gcTime) : nil
        switch (error, page) {
        case (nil, let page?):
            publish(.pageSettled(key: key, page: page, answer: answer ?? .null))
        case (nil, nil):
            if let settled {
                publish(.settled(key: key, data: settled.data, dataUpdatedAt: settled.dataUpdatedAt))
            } else {
                publish(.released(key: key))
            }
        case (let error?, _):
            publish(.failed(key: key, error: error, page: page))
        }
        releaseLease(lease)
    }

    /// Stores the data of `key` as its shared copy when its fetch is over and it succeeded (an
    /// infinite query's fetch is not over while it has pages to go); returns what was stored.
    private func storeSettled(_ key: QueryKey, gcTime: Int64?) -> ClusterEntry? {
        guard let state = cache.query(key)?.state, state.status == .success, state.fetchStatus == .idle,
            let entry = ClusterEntry(key: key, state: state)
        else { return nil }
        bus.send(entry.setCommand(layout, gcTime: gcTime)) { _ in }
        return entry
    }

    /// The engine withdrew `attempt` (cancelled, timed out, replaced): a waiting attempt stops
    /// waiting; a held lease is released, and the waiters elsewhere try it at once.
    func fetchWithdrawn(_ attempt: AttemptID) {
        if leases.withdraw(attempt) { return }
        withdrawForwarded(attempt)
        guard let lease = leases.release(attempt) else { return }
        publish(.released(key: lease.subject.key, page: lease.subject.page))
        releaseLease(lease)
    }

    /// The Redis name of `lease`.
    private func leaseKey(of lease: ClusterLeases.Held) -> [UInt8] {
        layout.leaseKey(lease.subject.key, page: lease.subject.page)
    }

    /// Deletes the lease if it still holds its token (it may have expired and been taken since).
    private func releaseLease(_ lease: ClusterLeases.Held) {
        let script = "if redis.call('get', KEYS[1]) == ARGV[1] then return redis.call('del', KEYS[1]) end return 0"
        bus.send([bytes("EVAL"), bytes(script), bytes("1"), leaseKey(of: lease), lease.token]) { _ in }
    }

    /// Releases the leases of attempts the engine ended without an answer or a withdrawal (their
    /// fetcher's connection closed): waiting nodes try again at once.
    func releaseAbandonedLeases() {
        for (attempt, lease) in leases.held where !cache.isCurrentAttempt(attempt) {
            _ = leases.release(attempt)
            publish(.released(key: lease.subject.key, page: lease.subject.page))
            releaseLease(lease)
        }
    }

    /// Extends the held leases' expiry while their fetches run.
    private func renewLeases() {
        let script =
            "if redis.call('get', KEYS[1]) == ARGV[1] then return redis.call('pexpire', KEYS[1], ARGV[2]) end return 0"
        for lease in leases.held.values {
            bus.send([
                bytes("EVAL"), bytes(script), bytes("1"), leaseKey(of: lease), lease.token,
                bytes(String(leaseMs)),
            ]) { _ in }
        }
    }

    private func tick() {
        ticks += 1
        if let replay, ticks > replay.until { self.replay = nil }
        guard joined else {
            if !refused, bus.linkState == .connected { checkLayout() }
            return
        }
        let ticksPerSecond = 1000 / Self.tickMs
        if ticks % ticksPerSecond == 0 {
            publish(.hello(fetchers: localFetchers, mutators: localMutators))
            for peer in peers.expire(before: ticks - 3 * ticksPerSecond) {
                logger.info("cluster: node \(peer.node) not heard from for 3 s; its fetchers are gone")
                closeProxy(of: peer.node, peer.proxy)
            }
            server.applyEffects()
        }
        let leaseTicks = max(1, leaseMs / Self.tickMs)
        if ticks % max(1, leaseTicks / 3) == 0 {
            releaseAbandonedLeases()
            renewLeases()
        }
        // A holder's outcome may be lost (at-most-once Pub/Sub) or the holder dead: try again.
        for request in leases.takeDue(at: ticks, after: max(1, leaseTicks / 5)) where isCurrent(request) {
            acquire(request)
        }
        server.applyEffects()
    }

    // MARK: - Messages

    func publish(_ body: ClusterMessage.Body) {
        publish(payload: ClusterMessage(origin: nodeId, body: body).encoded, queuedWhileDown: false)
    }

    /// PUBLISHes a payload; a write (`queuedWhileDown`) made while the link is down waits for it.
    func publish(payload: [UInt8], queuedWhileDown: Bool) {
        guard joined else {
            if queuedWhileDown { queue(payload) }
            return
        }
        messagesOut += 1
        bus.send([bytes("PUBLISH"), layout.channel, payload]) { [unowned self] reply in
            if case .error = reply, queuedWhileDown { queue(payload) }
        }
    }

    func countOut() { messagesOut += 1 }

    private func queue(_ payload: [UInt8]) {
        if unsent.count >= Self.maxUnsent {
            unsent.removeFirst()
            logger.error("cluster: more than \(Self.maxUnsent) writes waiting for Redis; dropped the oldest")
        }
        unsent.append(payload)
    }

    private func received(_ payload: [UInt8]) {
        let message: ClusterMessage
        do {
            message = try ClusterMessage(decoding: payload)
        } catch {
            logger.warning("cluster: ignored a message on \(layout.namespace): \(error)")
            return
        }
        guard message.origin != nodeId else { return }
        messagesIn += 1
        if case .hello(let fetchers, let mutators, let joining) = message.body {
            if peers.heard(message.origin, at: ticks, registrations: (fetchers, mutators)) {
                offerRegistrations(of: message.origin, fetchers: fetchers, mutators: mutators)
            }
            if joining, let replay, ticks <= replay.until {
                for payload in replay.payloads { publish(payload: payload, queuedWhileDown: false) }
            }
        } else {
            _ = peers.heard(message.origin, at: ticks)
        }
        switch message.body {
        case .write(let method, let params, let at):
            applyRemoteWrite(method, params, at: at, from: message.origin)
        case .settled(let key, let data, let updatedAt):
            for request in leases.takeWaiting(for: LeaseSubject(key: key, page: nil)) {
                cache.attemptSettled(request.attempt, data: data, updatedAt: updatedAt)
            }
        case .pageSettled(let key, let page, let answer):
            // Each waiting attempt takes the holder's answer as its own fetcher's.
            for request in leases.takeWaiting(for: LeaseSubject(key: key, page: page)) {
                cache.attemptSucceeded(request.attempt, answer: answer)
            }
        case .failed(let key, let error, let page):
            for request in leases.takeWaiting(for: LeaseSubject(key: key, page: page)) {
                cache.attemptFailed(request.attempt, error: error)
            }
        case .released(let key, let page):
            for request in leases.takeWaiting(for: LeaseSubject(key: key, page: page)) where isCurrent(request) {
                acquire(request)
            }
        case .hello:
            break
        case .fetchRequest(let id, let request):
            serveForwarded(from: message.origin, id: id, request)
        case .fetchAnswer(let id, let answer):
            forwardedAnswered(AttemptID(id), answer)
        case .fetchProgress(let id, let data):
            if forwards.outgoing[AttemptID(id)] != nil { cache.attemptProgressed(AttemptID(id), data: data) }
        case .fetchCancel(let id):
            cancelForwarded(from: message.origin, id: id)
        case .mutateRequest(let id, let key, let variables, let attemptNumber):
            serveForwardedMutation(
                from: message.origin, id: id, key: key, variables: variables, attemptNumber: attemptNumber)
        case .mutateAnswer(let id, let answer):
            forwardedMutationAnswered(MutationAttemptID(id), answer)
        case .mutateCancel(let id):
            cancelForwardedMutation(from: message.origin, id: id)
        }
        server.applyEffects()
    }

    // MARK: - Statistics

    /// `server.stats`'s `cluster` object.
    var statistics: JSONValue {
        [
            "state": .string(bus.linkState.rawValue), "nodeId": .string(nodeId),
            "nodesSeen": .number(JSONNumber(peers.count + 1)),
            "leasesHeld": .number(JSONNumber(leases.held.count)),
            "messagesIn": .number(JSONNumber(messagesIn)), "messagesOut": .number(JSONNumber(messagesOut)),
            "reconnects": .number(JSONNumber(bus.reconnects)),
        ]
    }
}

/// A command argument's bytes.
func bytes(_ text: String) -> [UInt8] { Array(text.utf8) }
