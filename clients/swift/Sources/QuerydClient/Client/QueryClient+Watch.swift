// `cache.watch` from Swift: the whole cache as a snapshot, then its coalesced `cache.changed` events, as
// an async stream that survives reconnects (the client watches again and yields the new snapshot).

import QuerydJSON

/// What a cache watch receives.
public enum CacheWatchEvent: Sendable {
    /// The `cache.watch` result: `queries`, `fetchers`, `mutators`, `mutations` (again after each
    /// reconnect, when the events start over).
    case snapshot(JSONValue)
    /// The events of one `cache.changed`, in order (each an object with a `type`).
    case changed([JSONValue])
    /// The connection dropped; a new snapshot follows once the client reconnected.
    case connectionLost(QueryClientError)
}

/// A watch of the whole cache (see ``QueryClient/watchCache(filter:data:)``).
public struct CacheWatch: Sendable {
    /// This client's id for the watch (stable across reconnects).
    public let id: Int
    /// The snapshot the daemon answered (also the stream's first event).
    public let snapshot: JSONValue
    /// Snapshots, events and connection losses, in order. Ends when the watch is closed.
    public let events: AsyncStream<CacheWatchEvent>
}

struct WatchEntry {
    let params: JSONValue
    let continuation: AsyncStream<CacheWatchEvent>.Continuation
    var serverID: Int?
}

extension QueryClient {
    /// `cache.watch {filter?, data?}`: the matched queries (states with data when `data`), the registrations
    /// and the mutations, then every change as it happens, coalesced by the daemon for a slow reader.
    public func watchCache(filter: JSONValue? = nil, data: Bool = false) async throws(QueryClientError)
        -> CacheWatch
    {
        var params: [String: JSONValue] = [:]
        if let filter { params["filter"] = filter }
        if data { params["data"] = true }
        let local = takeLocalID()
        let (stream, continuation) = AsyncStream.makeStream(of: CacheWatchEvent.self)
        watches[local] = WatchEntry(params: .object(params), continuation: continuation)
        let result: JSONValue
        do {
            result = try await request("cache.watch", .object(params), binding: .watch(local: local))
        } catch {
            watches[local] = nil
            continuation.finish()
            throw error
        }
        continuation.onTermination = { _ in Task { await self.closeWatch(local) } }
        return CacheWatch(id: local, snapshot: result, events: stream)
    }

    /// `cache.unwatch`; the watch's stream ends.
    public func unwatchCache(_ watch: CacheWatch) async {
        await closeWatch(watch.id)
    }

    func closeWatch(_ local: Int) async {
        guard let entry = watches.removeValue(forKey: local) else { return }
        entry.continuation.finish()
        guard let serverID = entry.serverID else { return }
        watchByServerID[serverID] = nil
        _ = try? await request("cache.unwatch", ["watch": .number(JSONNumber(serverID))], binding: nil)
    }

    /// The reply to a `cache.watch` (first or restored): the daemon's id, and the snapshot for the stream.
    func bindWatch(_ local: Int, result: JSONValue) {
        guard let serverID = result["watch"]?.intValue else { return }
        guard watches[local] != nil else {
            notify("cache.unwatch", ["watch": .number(JSONNumber(serverID))])
            return
        }
        watches[local]?.serverID = serverID
        watchByServerID[serverID] = local
        watches[local]?.continuation.yield(.snapshot(result))
    }

    /// A `cache.changed` notification.
    func receiveWatchEvents(_ params: JSONValue) {
        guard let serverID = params["watch"]?.intValue, let local = watchByServerID[serverID],
            case .array(let events)? = params["events"]
        else { return }
        watches[local]?.continuation.yield(.changed(events))
    }

    /// The connection dropped: every watch hears it and waits for its restore.
    func watchesLost(_ loss: QueryClientError) {
        watchByServerID.removeAll()
        for local in watches.keys {
            watches[local]?.serverID = nil
            watches[local]?.continuation.yield(.connectionLost(loss))
        }
    }

    /// Ends every watch's stream (the client closed).
    func finishWatches() {
        for entry in watches.values { entry.continuation.finish() }
        watches.removeAll()
        watchByServerID.removeAll()
    }
}
