// The pages connected over WebSocket: each gets the cache as the watch last saw it when it joins, then every
// `cache.changed` event batch and every `server.stats` reading. A page that falls `backlog` messages behind is dropped
// (its socket closes; the page reconnects and starts over).

/// The open pages and the cache as last seen.
public actor PageHub {
    /// The most messages waiting for one page before it is dropped.
    public nonisolated let backlog: Int
    private var pages: [Int: AsyncStream<String>.Continuation] = [:]
    private var nextID = 0
    private var latest: CacheSnapshot?
    /// The last `server.stats` message (the reading and when it was taken).
    private var stats: JSON?
    private var failure: String?

    public init(backlog: Int = 256) {
        self.backlog = backlog
    }

    /// Whether any page is open (the watch starts with the first).
    public var isWatched: Bool { !pages.isEmpty }

    /// A new page: its id and the messages for it, starting with the current state of things.
    public func join() -> (id: Int, messages: AsyncStream<String>) {
        let (stream, continuation) = AsyncStream.makeStream(
            of: String.self, bufferingPolicy: .bufferingOldest(backlog))
        nextID += 1
        pages[nextID] = continuation
        if let latest { continuation.yield(latest.message.text) }
        if let stats { continuation.yield(stats.text) }
        if let failure { continuation.yield(Self.failureMessage(failure).text) }
        return (nextID, stream)
    }

    /// Forgets page `id`.
    public func leave(_ id: Int) {
        pages.removeValue(forKey: id)?.finish()
    }

    /// A new watch's snapshot (the first, or the one after a reconnect): every page gets it whole.
    public func publish(_ snapshot: CacheSnapshot) {
        latest = snapshot
        failure = nil
        broadcast(snapshot.message.text)
    }

    /// The events of one `cache.changed`: applied to the snapshot, and sent to every page as
    /// `{"type":"events","events":[…]}`.
    public func publish(events: [JSON]) {
        guard latest != nil else { return }
        latest?.apply(events)
        broadcast(JSON.object(["type": "events", "events": .array(events)]).text)
    }

    /// A `server.stats` reading taken at `at` (ms since the epoch): `{"type":"stats","stats":{…},"at":ms}` to every
    /// page. The page computes rates from the times of the readings, so a page joining late is not misled by an old one.
    public func publish(stats: JSON, at: Int64) {
        let message: JSON = ["type": "stats", "stats": stats, "at": .integer(at)]
        self.stats = message
        broadcast(message.text)
    }

    /// The daemon could not be read: every page is told why (and gets a full snapshot once it can again).
    public func publish(failure reason: String) {
        latest = nil
        guard failure != reason else { return }
        failure = reason
        broadcast(Self.failureMessage(reason).text)
    }

    /// Sends `message` to page `id` alone (the reply to its action).
    public func send(_ message: JSON, to id: Int) {
        deliver(message.text, to: id)
    }

    private func broadcast(_ text: String) {
        for id in pages.keys { deliver(text, to: id) }
    }

    private func deliver(_ text: String, to id: Int) {
        guard let page = pages[id] else { return }
        if case .dropped = page.yield(text) { leave(id) }
    }

    private static func failureMessage(_ reason: String) -> JSON {
        ["type": "disconnected", "reason": .string(reason)]
    }
}
