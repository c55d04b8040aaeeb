// One client connection: bytes in, framed into lines, parsed, decoded and dispatched; answers,
// pushes and server-to-client `fetch` requests out through the connection's outbox.
//
// A session never blocks and never traps on peer input: every bad line gets a JSON-RPC error (or,
// for a notification, nothing) and the connection stays usable, except for a line over the size
// limit, which is answered and then closes the connection.

public import QuerydCore
import QuerydJSON
import QuerydRPC

/// What a session needs from its connection; the transport glue implements it.
public protocol SessionTransport: AnyObject {
    /// Queues bytes for writing. The caller may reuse its buffer afterwards: a transport that keeps
    /// the array rather than copying what it cannot write at once only costs it a reallocation.
    func write(_ bytes: [UInt8])
    /// Closes once everything written so far has been sent.
    func closeAfterWrites()
    /// Bytes given to `write` that the peer has not taken yet.
    var queuedWriteBytes: Int { get }
    /// Closes now, dropping whatever is still queued (a peer that does not read).
    func abort()
    /// Closes for a limit: `line` (a `$/closing` notification) goes out behind what is queued if
    /// the peer takes it all within a short grace period; otherwise as `abort()`.
    func abort(finalLine line: [UInt8])
    /// Called once the server's flush wrote (or held) this session's output, with what is still
    /// unread by the peer (`Session.pendingOutputBytes`): where backpressure is decided.
    func didFlush(pendingOutputBytes: Int)
}

extension SessionTransport {
    /// A transport that writes synchronously has nothing queued.
    public var queuedWriteBytes: Int { 0 }
    /// Without a way to drop queued bytes, close after them.
    public func abort() { closeAfterWrites() }
    /// Without a grace period: the line is queued and the connection aborted.
    public func abort(finalLine line: [UInt8]) {
        write(line)
        abort()
    }
    /// Without backpressure, nothing to do.
    public func didFlush(pendingOutputBytes: Int) {}
}

/// The server side of one client connection.
public final class Session {
    public let connection: ConnectionID
    /// Strong, so reading it on every line costs no reference counting (an `unowned` read
    /// retains and releases); the server drops its sessions when they close, so no cycle outlives
    /// a connection.
    let server: Server
    /// The server's cache, used without reference counting on the `query.get` fast path (the
    /// cache has a side table, so each retain and release there takes the slow path).
    // Safety: the cache is a `let` of `server`, which this session holds strongly, so it outlives
    // every use through this reference.
    let unretainedCache: Unmanaged<QueryCache>
    let transport: any SessionTransport
    /// How replies and batches answered later reach this session (until the transport closes).
    let link = SessionLink()
    /// Touched for every reply, push and flush. No access spans a call that could reach it again
    /// (the closures given to `appendLine` only write bytes; `take` only encodes), so accesses are
    /// not checked for exclusivity. (The `@exclusivity(unchecked)` attributes below are the ones
    /// on the `query.get` and push paths the speed gate measures; a checked `framer` costs 12
    /// instructions per get, a checked `closeRequested` 6.)
    @exclusivity(unchecked) var outbox = Outbox()
    /// Only `receive` and `receiveEOF` touch it, and line handling never reaches them again
    /// (asserted in debug builds through `isFraming`), so the access that spans a whole read is not
    /// checked for exclusivity.
    @exclusivity(unchecked) private var framer: LineFramer
    #if DEBUG
        /// Whether `framer` is borrowed by a read being handled (debug builds only).
        private var isFraming = false
    #endif
    /// Client requests answered later (waiting on the cache), by id, for `$/cancelRequest`. Read
    /// for every `query.get`; no `DeferredReplies` method answers a reply or calls out, so no
    /// access spans a call that could reach it again: accesses are not checked for exclusivity.
    @exclusivity(unchecked) var deferred = DeferredReplies()
    /// Server-to-client requests awaiting an answer, and the attempt each carries.
    var outgoing = OutgoingRequests()
    /// The peer closed its writing side: finish what was read, then close.
    private(set) var receivedEOF = false
    /// The transport is gone.
    private(set) var isClosed = false
    /// The session wants the connection closed once its output is written. (A plain flag, read
    /// for every line and never held across a call: not checked for exclusive access.)
    @exclusivity(unchecked) var closeRequested = false
    /// The transport was told to close (after its writes, or at once).
    var isClosing = false
    /// Queued in the server's list of sessions to flush.
    var isMarkedDirty = false
    /// Subscriptions and fetcher/mutator registrations this connection holds (for the limits).
    var subscriptionCount = 0
    var registrationCount = 0
    /// What the client settled in `server.hello` (nil until it greets).
    var greeting: ClientGreeting?
    /// Scratch space for the canonical key of a `query.get` line (see Session+CachedGet.swift), and
    /// for the reordered data of a `query.set` line (Session+PlainSet.swift). Only those two fast
    /// paths touch it, each with no call back into the session while it holds bytes there, so its
    /// accesses are not checked for exclusivity (a check costs more than the rest of the lookup).
    @exclusivity(unchecked) var keyScratch: [UInt8] = []
    /// The key text (compact, as it stood in the line) of the last `query.get` answered on the
    /// fast path, and its query: a connection often reads one key again and again, and the same
    /// text is the same key, so while that query is still cached neither the key's scan nor the
    /// lookup is done again. Touched only on the
    /// fast path, never across a call back into the session: not checked for exclusivity.
    @exclusivity(unchecked) var lastGetKeyText: [UInt8] = []
    @exclusivity(unchecked) var lastGetQuery: Query?
    /// The bytes `receive` is handling (empty otherwise), so a reply can size its line for the
    /// replies to the rest of them.
    var currentRead = UnsafeRawBufferPointer(start: nil, count: 0)

    /// Output waiting for this connection: queued in the session and not yet taken by the peer.
    public var pendingOutputBytes: Int { outbox.queuedBytes + transport.queuedWriteBytes }

    init(connection: ConnectionID, server: Server, transport: any SessionTransport) {
        self.connection = connection
        self.server = server
        self.unretainedCache = Unmanaged.passUnretained(server.cache)
        self.transport = transport
        self.framer = LineFramer(maxLineBytes: server.configuration.maxMessageBytes)
        outbox.lineLimit = server.configuration.maxOutboundBytes
        link.session = self
    }

    // MARK: - Input

    /// Handles bytes read from the connection.
    public func receive(_ bytes: UnsafeRawBufferPointer) {
        guard !isClosed, !closeRequested else { return }
        currentRead = bytes
        defer { currentRead = UnsafeRawBufferPointer(start: nil, count: 0) }
        beginFraming()
        do {
            try framer.feed(bytes) { line in handle(line: line) }
        } catch {
            rejectOversizedLine()
        }
        endFraming()
        server.markDirty(self)
    }

    /// The peer half-closed: an unterminated last line still counts; the connection closes when
    /// every request read so far is answered.
    public func receiveEOF() {
        guard !isClosed, !closeRequested else { return }
        beginFraming()
        do {
            try framer.finish { line in handle(line: line) }
        } catch {
            rejectOversizedLine()
        }
        endFraming()
        receivedEOF = true
        closeIfDone()
        server.markDirty(self)
    }

    /// The connection is gone: withdraw this session's waits, subscriptions and fetchers.
    public func transportClosed() {
        guard !isClosed else { return }
        isClosed = true
        for reply in deferred.removeAll() {
            if let waiter = reply.waiter { server.withdrawWaiter(waiter) }
        }
        outgoing.removeAll()
        server.sessionClosed(self)
        // Answers arriving from now on are dropped, as for a session that is gone.
        link.session = nil
    }

    /// Checks, in debug builds, that no read is handled inside another (`framer`'s invariant).
    private func beginFraming() {
        #if DEBUG
            assert(!isFraming, "line handling reached receive again while the framer is borrowed")
            isFraming = true
        #endif
    }

    private func endFraming() {
        #if DEBUG
            isFraming = false
        #endif
    }

    private func rejectOversizedLine() {
        let limit = server.configuration.maxMessageBytes
        outbox.appendLine { RPCWriter.error(id: nil, error: .lineTooLong(limit: limit), to: &$0) }
        outbox.appendLine {
            Session.writeClosing("a message line is longer than \(limit) bytes", limit: "max-message-bytes", to: &$0)
        }
        closeRequested = true
    }

    /// Writes the `$/closing {reason, limit}` notification sent before a close for a limit.
    static func writeClosing(_ reason: String, limit: String, to out: inout [UInt8]) {
        RPCWriter.notification(
            method: "$/closing", params: ["reason": .string(reason), "limit": .string(limit)], to: &out)
    }

    private func handle(line: UnsafeRawBufferPointer) {
        guard !closeRequested else { return }
        // Hand large output to the transport as it grows, so a peer that reads keeps up; a peer
        // that sends requests without reading the replies is stopped before its output grows further.
        let queued = outbox.queuedBytes
        if queued > server.configuration.outboundHoldBytes || queued > server.configuration.maxOutboundBytes {
            if queued > server.configuration.outboundHoldBytes { flush() }
            guard !closeRequested else { return }
            if outbox.queuedBytes > server.configuration.maxOutboundBytes {
                abortUnread()
                return
            }
        }
        // A `query.get` cache hit is answered from the line's bytes (the same reply as below), and
        // so is a plain `query.set` (found by the same scan), its data stored as its canonical
        // encoding from the line.
        var setRequest: SetRequestLine?
        if answerCachedGet(line, orFindSet: &setRequest) { return }
        if let setRequest, answerPlainSet(setRequest, line: line) { return }
        // The usual line, one request object, is decoded from its bytes; any other goes through the parser.
        if let outcome = RPCDecoding.decodeObjectLine(line, maxDepth: server.configuration.maxDepth) {
            dispatch(outcome, batch: nil, slot: 0)
            return
        }
        let value: JSONValue
        do {
            value = try JSONParser.parse(line, maxDepth: server.configuration.maxDepth)
        } catch {
            if handleOutOfRangeNumber(line, error: error) { return }
            outbox.appendLine { RPCWriter.error(id: nil, error: .parse(error), to: &$0) }
            return
        }
        switch RPCDecoding.frame(value) {
        case .single(let message):
            handle(message: message, batch: nil, slot: 0)
        case .batch(let members):
            handle(batch: members)
        }
    }

    private func handle(batch members: [JSONValue]) {
        let maxBatch = server.configuration.maxBatch
        if members.count > maxBatch {
            // Refused whole: no member runs, and one error answers the line.
            outbox.appendLine { RPCWriter.error(id: nil, error: .limitExceeded("max-batch", max: maxBatch), to: &$0) }
            return
        }
        let decoded = members.map { BatchMembers.admit(RPCDecoding.decode($0)) }
        let expected = decoded.reduce(0) { count, outcome in Session.needsAnswer(outcome) ? count + 1 : count }
        let collector = expected > 0 ? BatchReply(link: link, expected: expected) : nil
        // Pushes caused by the batch are written after its reply line when the batch completes
        // at once, so a subscription made in the batch is answered before it is pushed to.
        outbox.holdPushes()
        defer { outbox.releasePushes() }
        var slot = 0
        for outcome in decoded {
            dispatch(outcome, batch: collector, slot: slot)
            if Session.needsAnswer(outcome) { slot += 1 }
        }
    }

    /// Requests and invalid messages are answered; notifications and responses (even malformed
    /// ones: answering an answer could loop between two peers) are not.
    private static func needsAnswer(_ outcome: Result<RPCMessage, RPCInvalid>) -> Bool {
        switch outcome {
        case .success(.request): return true
        case .success(.notification), .success(.response): return false
        case .failure(let invalid): return !invalid.isResponse
        }
    }

    private func handle(message: JSONValue, batch: BatchReply?, slot: Int) {
        dispatch(RPCDecoding.decode(message), batch: batch, slot: slot)
    }

    func dispatch(_ outcome: Result<RPCMessage, RPCInvalid>, batch: BatchReply?, slot: Int) {
        switch outcome {
        case .failure(let invalid) where invalid.isResponse:
            // A malformed answer to one of our requests still ends it (as a failure), so nothing
            // waits for an answer that already came; other malformed responses are ignored.
            if case .number(let number)? = invalid.id, let id = number.intValue,
                let attempt = outgoing.answered(id)
            {
                server.logger.debug(
                    "malformed response to request \(id) on connection \(connection): \(invalid.reason)")
                deliver(
                    .failure(
                        RPCError(.invalidRequest, "Malformed response", data: ["reason": .string(invalid.reason)])),
                    to: attempt)
            } else {
                server.logger.debug("ignored a malformed response on connection \(connection): \(invalid.reason)")
            }
        case .failure(let invalid):
            let reply = PendingReply(id: invalid.id ?? .null, link: link, batch: batch, slot: slot)
            reply.fail(.invalidRequest(invalid.reason))
        case .success(.request(let request)):
            let reply = PendingReply(id: request.id, link: link, batch: batch, slot: slot)
            if hasDeferredAnswers, deferred.contains(request.id) {
                reply.fail(.invalidRequest("id \(request.id) is in use by a pending request of this connection"))
                return
            }
            server.dispatch(method: request.method, params: request.params, reply: reply, session: self)
        case .success(.notification(let notification)):
            if notification.method == "$/cancelRequest" {
                cancelRequest(notification.params)
            } else if notification.method == "fetch.progress" {
                progress(notification.params)
            } else {
                let reply = PendingReply(id: nil, link: link, batch: nil, slot: 0)
                server.dispatch(method: notification.method, params: notification.params, reply: reply, session: self)
            }
        case .success(.response(let response)):
            handle(response: response)
        }
    }

    // MARK: - Deferred answers

    /// Remembers a request that will be answered when its cache wait ends.
    func deferAnswer(_ reply: PendingReply, waiter: WaiterToken?) {
        server.applyEffects()
        guard !reply.isAnswered, let id = reply.id else { return }
        let limit = server.configuration.maxPendingRequestsPerConnection
        guard deferred.add(reply, id: id, limit: limit) else {
            reply.fail(.limitExceeded("max-pending-requests-per-connection", max: limit))
            if let waiter { server.withdrawWaiter(waiter) }
            return
        }
        reply.waiter = waiter
    }

    /// Whether a request of this connection waits for its answer (its id is in use until then).
    var hasDeferredAnswers: Bool { !deferred.isEmpty }

    /// Whether the request with this id waits for its answer.
    func isPending(_ id: RPCID) -> Bool { deferred.contains(id) }

    /// Called once a request has been answered.
    func replyFinished(_ reply: PendingReply) {
        deferred.finish(reply)
        server.markDirty(self)
        closeIfDone()
    }

    /// `$/cancelRequest {id}` from the client: answer that request with -32800 now and withdraw its wait.
    private func cancelRequest(_ params: JSONValue?) {
        guard let raw = params?["id"], let id = RPCID(jsonValue: raw), let reply = deferred[id] else { return }
        let waiter = reply.waiter
        reply.fail(RPCError(.requestCancelled, data: ["id": raw]))
        if let waiter { server.withdrawWaiter(waiter) }
        server.applyEffects()
    }

    /// Answers every waiting request with `error` (at shutdown).
    func failDeferred(_ error: RPCError) {
        for reply in deferred.all { reply.fail(error) }
    }

    private func closeIfDone() {
        guard receivedEOF, deferred.isEmpty, !closeRequested else { return }
        closeRequested = true
        server.markDirty(self)
    }
}
