// What a cluster layer sharing data between nodes needs of the engine: an attempt settled by data
// fetched elsewhere (another queryd node, through a shared store), the input it gives instead of
// sending the attempt to a local fetcher, and the reads that decide it.

public import QuerydJSON

extension QueryCache {
    /// The options of the fetch run whose current attempt is `attempt`, when data fetched elsewhere
    /// may settle it: an ordinary query's attempt, or an infinite query's fetch of its whole list
    /// (first load or refetch) before it has any page (nil for a late or unknown attempt, a next or
    /// previous page, and a refetch's later pages).
    public func fetchOptions(forAttempt attempt: AttemptID) -> ResolvedOptions? {
        guard let (_, run) = currentRun(for: attempt), run.pageFetch?.loadsWholeList ?? true else { return nil }
        return run.options
    }

    /// Whether `attempt` is still the current attempt of its query's fetch (a page's included): a
    /// cluster layer keeping an attempt from the fetchers while another node fetches the same.
    public func isCurrentAttempt(_ attempt: AttemptID) -> Bool {
        currentRun(for: attempt) != nil
    }

    /// The attempt is answered with `data` fetched elsewhere at `updatedAt`: the query settles as
    /// for a fetcher's answer, but keeps that `dataUpdatedAt` (so staleness counts from the
    /// original fetch). For an infinite query `data` is the whole `{pages, pageParams}` and
    /// `pageLinks` each page's links (nil: unknown); the fetch takes all the pages (its first
    /// `maxPages`). Returns whether the attempt settled: not when it is late, unknown or not one
    /// `fetchOptions(forAttempt:)` gives options for, nor when an infinite query's `data` holds no pages.
    @discardableResult
    public func attemptSettled(
        _ attempt: AttemptID, data: JSONValue, updatedAt: Int64, pageLinks: [PageLinks]? = nil
    ) -> Bool {
        guard fetchOptions(forAttempt: attempt) != nil, let (_, run) = currentRun(for: attempt) else { return false }
        guard let plan = run.pageFetch else {
            succeed(attempt, answer: ["data": data], at: updatedAt)
            return true
        }
        guard var pages = InfinitePages(data: data, links: pageLinks), !pages.isEmpty else { return false }
        // A refetch keeps the first maxPages pages.
        pages.trim(to: plan.maxPages, after: .backward)
        succeed(attempt, answer: ["data": pages.jsonValue], at: updatedAt, wholeList: pages)
        return true
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
