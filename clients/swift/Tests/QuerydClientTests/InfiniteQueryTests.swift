// Infinite queries through InfiniteQueryObserver (needs the daemon's infinite-query support).

import Foundation
import QuerydClient
import QuerydJSON
import Testing

@Suite(.timeLimit(.minutes(1))) struct InfiniteQueryTests {
    /// Pages 0...3: page n holds ["item-n"]; next is n+1 below 3, previous is n-1 above 0.
    static let pages: FetcherHandler = { _, pageParam in
        let page = pageParam?.intValue ?? 0
        return .page(
            [.string("item-\(page)")],
            next: page < 3 ? .number(JSONNumber(page + 1)) : nil,
            previous: page > 0 ? .number(JSONNumber(page - 1)) : nil)
    }

    @Test @MainActor func pagesGrowInBothDirections() async throws {
        let daemon = try TestDaemon()
        let server = try await connectedClient(daemon)
        let viewer = try await connectedClient(daemon)
        try await server.registerFetcher(["feed"], fetch: InfiniteQueryTests.pages)

        let feed = try InfiniteQueryObserver(
            client: viewer, key: ["feed"], options: QueryOptions(infinite: InfiniteOptions(initialPageParam: 1)),
            pageType: [String].self)
        try await feed.start()
        await waitUntil { feed.isSuccess }
        #expect(feed.pages == [["item-1"]])
        #expect(feed.pageParams == [1])
        #expect(feed.hasNextPage)
        #expect(feed.hasPreviousPage)

        try await feed.fetchNextPage()
        #expect(feed.pages == [["item-1"], ["item-2"]])
        #expect(!feed.isFetchingNextPage)

        try await feed.fetchPreviousPage()
        #expect(feed.pages == [["item-0"], ["item-1"], ["item-2"]])
        #expect(feed.pageParams == [0, 1, 2])
        #expect(!feed.hasPreviousPage)

        try await feed.fetchNextPage()
        #expect(feed.pages.last == ["item-3"])
        #expect(!feed.hasNextPage)
        #expect(feed.isSuccess)
    }

    @Test func pageParamsReachTheFetcher() async throws {
        let daemon = try TestDaemon()
        let server = try await connectedClient(daemon)
        let viewer = try await connectedClient(daemon)
        let calls = Calls()
        try await server.registerFetcher(["feed"]) { key, pageParam in
            _ = await calls.record(key, pageParam: pageParam)
            return try await InfiniteQueryTests.pages(key, pageParam)
        }
        let options = QueryOptions(infinite: InfiniteOptions(initialPageParam: 0, maxPages: 2))
        let first = try await viewer.fetch(["feed"], options: options)
        #expect(first.data == ["pages": [["item-0"]], "pageParams": [0]])
        let subscription = try await viewer.subscribe(["feed"], options: options.with(staleTime: .infinity))
        try await viewer.fetchNextPage(subscription)
        let third = try await viewer.fetchNextPage(subscription)
        #expect(third.data == ["pages": [["item-1"], ["item-2"]], "pageParams": [1, 2]])
        #expect(await calls.pageParams == [0, 1, 2])
    }
}

extension QueryOptions {
    /// A copy with another staleTime.
    func with(staleTime: StaleTime) -> QueryOptions {
        var copy = self
        copy.staleTime = staleTime
        return copy
    }
}
