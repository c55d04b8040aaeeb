// What the devtools read from and do to the daemon's cache, over DaemonLink: the `cache.watch` stream, `server.stats`
// and the page's actions.

extension DaemonLink {
    /// Starts a `cache.watch` (every query, states with their data, for the JSON explorer): its snapshot, and the events of each `cache.changed`
    /// after it; the events end when the connection does.
    public func watchCache() async throws -> (snapshot: CacheSnapshot, events: AsyncStream<[JSON]>) {
        let (events, continuation) = AsyncStream.makeStream(of: [JSON].self)
        let channel = try await connected()
        // Set before the request is sent: the daemon writes the result first, then the notifications, and a
        // notification is handled as soon as it is read.
        replaceWatch(with: continuation)
        do {
            let result = try await send("cache.watch", ["data": true], on: channel)
            return (CacheSnapshot(watchResult: result), events)
        } catch {
            continuation.finish()
            throw error
        }
    }

    /// `server.stats`.
    public func stats() async throws -> JSON {
        try await call("server.stats")
    }

    /// Runs `action` and returns the daemon's result.
    public func perform(_ action: CacheAction) async throws -> JSON {
        let (method, params) = action.request
        return try await call(method, params)
    }
}
