// Counts: `queries.count` and `mutations.count` (TanStack's useIsFetching / useIsMutating), once or
// watched: a watch yields the count, then each `count.changed` the daemon sends (at most one per daemon
// loop turn, with the latest count), until `unwatchCount` or the connection's end (it is not restored
// after a reconnect).

import QuerydJSON

/// A watched count: the daemon's subscription id and the stream of counts.
public struct CountWatch: Sendable {
    /// The daemon's id for this count subscription (pass it to ``QueryClient/unwatchCount(_:)``).
    public let id: Int
    /// The count when watching began, then each change.
    public let counts: AsyncStream<Int>
}

extension QueryClient {
    /// `queries.count`: how many queries match (`fetchStatus: "fetching"` is useIsFetching).
    public func count(_ filter: QueryFilter = .all) async throws(QueryClientError) -> Int {
        try await countCall("queries.count", ["filter": filter.jsonValue])
    }

    /// `mutations.count`: how many mutations match `filter` (`{"status": "pending"}` is useIsMutating).
    public func mutationCount(_ filter: JSONValue = [:]) async throws(QueryClientError) -> Int {
        try await countCall("mutations.count", ["filter": filter])
    }

    /// `queries.count` with `subscribe: true`.
    public func watchCount(_ filter: QueryFilter = .all) async throws(QueryClientError) -> CountWatch {
        try await watch("queries.count", filter.jsonValue)
    }

    /// `mutations.count` with `subscribe: true`.
    public func watchMutationCount(_ filter: JSONValue = [:]) async throws(QueryClientError) -> CountWatch {
        try await watch("mutations.count", filter)
    }

    /// `count.unsubscribe`: ends a watch; its stream finishes.
    public func unwatchCount(_ watch: CountWatch) async throws(QueryClientError) {
        countWatches.removeValue(forKey: watch.id)?.finish()
        _ = try await request("count.unsubscribe", ["subscription": .number(JSONNumber(watch.id))], binding: nil)
    }

    private func countCall(_ method: String, _ params: JSONValue) async throws(QueryClientError) -> Int {
        let result = try await request(method, params, binding: nil)
        guard let count = result["count"]?.intValue else {
            throw .invalidResponse("\(method): \(result.encodedString)")
        }
        return count
    }

    private func watch(_ method: String, _ filter: JSONValue) async throws(QueryClientError) -> CountWatch {
        let result = try await request(method, ["filter": filter, "subscribe": true], binding: nil)
        guard let id = result["subscription"]?.intValue, let count = result["count"]?.intValue else {
            throw .invalidResponse("\(method): \(result.encodedString)")
        }
        let (counts, continuation) = AsyncStream.makeStream(of: Int.self)
        continuation.yield(count)
        countWatches[id] = continuation
        return CountWatch(id: id, counts: counts)
    }
}
