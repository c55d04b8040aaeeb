// The pages connected over WebSocket: each gets the latest snapshot when it joins, then every change. A page
// that falls `backlog` messages behind is dropped (its socket closes; the page reconnects and starts over).

/// The open pages and the cache as last seen.
public actor PageHub {
    /// The most messages waiting for one page before it is dropped.
    public nonisolated let backlog: Int
    private var pages: [Int: AsyncStream<String>.Continuation] = [:]
    private var nextID = 0
    private var latest: CacheSnapshot?
    private var failure: String?

    public init(backlog: Int = 256) {
        self.backlog = backlog
    }

    /// Whether any page is open (the poller rests otherwise).
    public var isWatched: Bool { !pages.isEmpty }

    /// A new page: its id and the messages for it, starting with the current state of things.
    public func join() -> (id: Int, messages: AsyncStream<String>) {
        let (stream, continuation) = AsyncStream.makeStream(
            of: String.self, bufferingPolicy: .bufferingOldest(backlog))
        nextID += 1
        pages[nextID] = continuation
        if let latest { continuation.yield(latest.message.text) }
        if let failure { continuation.yield(Self.failureMessage(failure).text) }
        return (nextID, stream)
    }

    /// Forgets page `id`.
    public func leave(_ id: Int) {
        pages.removeValue(forKey: id)?.finish()
    }

    /// A new poll's result: what changed goes to every page.
    public func publish(_ snapshot: CacheSnapshot) {
        let message = latest.map { snapshot.changes(since: $0) } ?? snapshot.message
        latest = snapshot
        failure = nil
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
