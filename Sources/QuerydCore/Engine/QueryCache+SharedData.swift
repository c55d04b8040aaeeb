// What a cluster layer sharing data between nodes needs of the engine: an attempt settled by data
// fetched elsewhere (another queryd node, through a shared store), the input it gives instead of
// sending the attempt to a local fetcher, and the reads that decide it.

public import QuerydJSON

extension QueryCache {
    /// The options of the fetch run whose current attempt is `attempt` (nil when the attempt is
    /// late, unknown or fetches a page of an infinite query: those are not settled elsewhere).
    public func fetchOptions(forAttempt attempt: AttemptID) -> ResolvedOptions? {
        guard let (_, run) = currentRun(for: attempt), run.pageFetch == nil else { return nil }
        return run.options
    }

    /// Whether `attempt` is still the current attempt of its query's fetch (a page's included): a
    /// cluster layer keeping an attempt from the fetchers while another node fetches the same.
    public func isCurrentAttempt(_ attempt: AttemptID) -> Bool {
        currentRun(for: attempt) != nil
    }

    /// The attempt is answered with `data` fetched elsewhere at `updatedAt`: the query settles as
    /// for a fetcher's answer, but keeps that `dataUpdatedAt` (so staleness counts from the
    /// original fetch). Late or unknown attempts are ignored.
    public func attemptSettled(_ attempt: AttemptID, data: JSONValue, updatedAt: Int64) {
        guard fetchOptions(forAttempt: attempt) != nil else { return }
        succeed(attempt, answer: ["data": data], at: updatedAt)
    }

    /// How long the query with `key` is kept unused (ms; nil: never collected, or no such query).
    public func gcTime(of key: QueryKey) -> Int64? {
        queries[key]?.gcTime
    }

    /// The fetcher that would serve `key` among those whose connection is `eligible` (the same
    /// longest-prefix choice as for an attempt): a cluster layer choosing a local fetcher for a fetch
    /// forwarded from another node.
    public func fetcher(for key: QueryKey, eligible: (ConnectionID) -> Bool) -> Registration? {
        registry.choose(for: key) { eligible($0.connection) }?.registration
    }
}
