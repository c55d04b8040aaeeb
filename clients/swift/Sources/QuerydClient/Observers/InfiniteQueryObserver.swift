// An Observation-based view of an infinite (paged) query: pages, page parameters and page fetching.

public import Observation
public import QuerydJSON
public import QuerydRPC

/// The data of an infinite query: its pages in order and the parameter each was fetched with.
public struct InfiniteData<Page: Sendable>: Sendable {
    /// The pages, first to last.
    public var pages: [Page]
    /// The page parameters, one per page.
    public var pageParams: [JSONValue]

    /// Infinite data from its parts.
    public init(pages: [Page], pageParams: [JSONValue]) {
        self.pages = pages
        self.pageParams = pageParams
    }

    static func decode(
        _ raw: JSONValue, page: (JSONValue) throws(QueryClientError) -> Page
    ) throws(QueryClientError) -> InfiniteData {
        guard let rawPages = raw["pages"]?.arrayValue, let params = raw["pageParams"]?.arrayValue else {
            throw .invalidResponse("infinite data needs pages and pageParams: \(raw.encodedString)")
        }
        var pages: [Page] = []
        pages.reserveCapacity(rawPages.count)
        for rawPage in rawPages { pages.append(try page(rawPage)) }
        return InfiniteData(pages: pages, pageParams: params)
    }
}

/// Observes an infinite query (`options.infinite` is required): ``pages`` grow with ``fetchNextPage()``
/// and ``fetchPreviousPage()``; every property is tracked by Observation on the main actor.
@MainActor
@Observable
public final class InfiniteQueryObserver<Page: Sendable> {
    /// The underlying query observer (state, status flags, refetch).
    public let query: QueryObserver<InfiniteData<Page>>

    /// An observer whose pages are decoded with `JSONDecoder`.
    public init(
        client: QueryClient, key: some QueryKey, options: QueryOptions, pageType: Page.Type
    ) throws(QueryClientError) where Page: Decodable {
        query = QueryObserver(
            client: client, keyJSON: try KeyEncoding.json(key), options: options,
            decode: { (raw) throws(QueryClientError) in
                try InfiniteData.decode(raw) { (page) throws(QueryClientError) in
                    try JSONCoding.decode(Page.self, from: page)
                }
            })
    }

    /// An observer of raw JSON pages.
    public init(client: QueryClient, key: some QueryKey, options: QueryOptions) throws(QueryClientError)
    where Page == JSONValue {
        query = QueryObserver(
            client: client, keyJSON: try KeyEncoding.json(key), options: options,
            decode: { (raw) throws(QueryClientError) in try InfiniteData.decode(raw) { $0 } })
    }

    /// The pages, first to last (empty before the first page arrives).
    public var pages: [Page] { query.data?.pages ?? [] }
    /// The page parameters, one per page.
    public var pageParams: [JSONValue] { query.data?.pageParams ?? [] }
    /// The last state received.
    public var state: QueryState? { query.state }
    /// The last final error.
    public var error: RPCError? { query.error }
    /// Set while the connection is lost.
    public var connectionError: QueryClientError? { query.connectionError }
    /// A page after the last one exists.
    public var hasNextPage: Bool { query.state?.hasNextPage ?? false }
    /// A page before the first one exists.
    public var hasPreviousPage: Bool { query.state?.hasPreviousPage ?? false }
    /// The next page is being fetched.
    public var isFetchingNextPage: Bool { query.state?.isFetchingNextPage ?? false }
    /// The previous page is being fetched.
    public var isFetchingPreviousPage: Bool { query.state?.isFetchingPreviousPage ?? false }
    /// The last next-page fetch failed.
    public var isFetchNextPageError: Bool { query.state?.isFetchNextPageError ?? false }
    /// The last previous-page fetch failed.
    public var isFetchPreviousPageError: Bool { query.state?.isFetchPreviousPageError ?? false }
    /// No data and no final error yet.
    public var isPending: Bool { query.isPending }
    /// The first load is under way.
    public var isLoading: Bool { query.isLoading }
    /// Any fetch is under way.
    public var isFetching: Bool { query.isFetching }
    /// A refetch of all pages is under way (not a page fetch).
    public var isRefetching: Bool { query.isRefetching && !isFetchingNextPage && !isFetchingPreviousPage }
    /// The last outcome was data.
    public var isSuccess: Bool { query.isSuccess }
    /// The last fetch failed.
    public var isError: Bool { query.isError }
    /// The data is stale.
    public var isStale: Bool { query.isStale }

    /// Subscribes and applies the first state.
    public func start() async throws(QueryClientError) { try await query.start() }

    /// Unsubscribes.
    public func stop() async { await query.stop() }

    /// Refetches every page.
    @discardableResult
    public func refetch() async throws(QueryClientError) -> QueryState { try await query.refetch() }

    /// Fetches the page after the last one; the settled state is applied and returned.
    @discardableResult
    public func fetchNextPage() async throws(QueryClientError) -> QueryState {
        guard let subscription = query.currentSubscription else { throw .notConnected }
        let settled = try await query.client.fetchNextPage(subscription)
        query.apply(settled)
        return settled
    }

    /// Fetches the page before the first one; the settled state is applied and returned.
    @discardableResult
    public func fetchPreviousPage() async throws(QueryClientError) -> QueryState {
        guard let subscription = query.currentSubscription else { throw .notConnected }
        let settled = try await query.client.fetchPreviousPage(subscription)
        query.apply(settled)
        return settled
    }
}
