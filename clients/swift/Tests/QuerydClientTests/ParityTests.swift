// Issue 16 through the Swift client against the daemon: cancelRefetch on the filter methods,
// queries.setData, query.set with ifVersion (-32009), and counts, once and watched.

import QuerydClient
import QuerydJSON
import QuerydRPC
import Testing

@Suite(.timeLimit(.minutes(1))) struct ParityTests {
    @Test func cancelRefetchFalseJoinsTheFetchInFlight() async throws {
        let daemon = try TestDaemon()
        let server = try await connectedClient(daemon)
        let client = try await connectedClient(daemon)
        let calls = Calls()
        let (release, opener) = AsyncStream.makeStream(of: Void.self)
        try await server.registerFetcher(["cr"]) { key, _ in
            let count = await calls.record(key)
            for await _ in release { break }
            return .data(.number(JSONNumber(count)))
        }
        try await client.set(["cr"], data: 0)
        try await client.prefetch(["cr"])
        let filter = QueryFilter(json: ["cr"])
        #expect(try await client.queries(.refetch, filter, cancelRefetch: false) == 1)
        #expect(try await client.invalidate(filter, refetchType: "all", cancelRefetch: false) == 1)
        opener.yield()
        opener.finish()
        // The running fetch was joined, not replaced: it is the one call, and its answer is the data.
        var fresh = QueryOptions()
        fresh.staleTime = 60
        #expect(try await client.fetch(["cr"], options: fresh).data == 1)
        #expect(await calls.count == 1)
    }

    @Test func setDataAndCompareAndSet() async throws {
        let daemon = try TestDaemon()
        let client = try await connectedClient(daemon)
        try await client.set(["sd", "1"], data: ["n": 1])
        try await client.set(["sd", "2"], data: ["n": 2])
        #expect(try await client.setData(QueryFilter(json: ["sd"]), mergePatch: ["done": true]) == 2)
        #expect(try await client.state(["sd", "2"])?.data == ["n": 2, "done": true])
        let created = try await client.set(["cas"], data: 1, ifVersion: 0)
        do {
            try await client.set(["cas"], data: 2, ifVersion: 0)
            Issue.record("a conflicting compare-and-set was written")
        } catch {
            #expect(error.code == .versionConflict)
            #expect(error.rpcError?.data?["version"]?.intValue == Int(created.version))
        }
        #expect(try await client.set(["cas"], data: 3, ifVersion: Int(created.version)).data == 3)
    }

    @Test func countsOnceAndWatched() async throws {
        let daemon = try TestDaemon()
        let server = try await connectedClient(daemon)
        let client = try await connectedClient(daemon)
        let (release, opener) = AsyncStream.makeStream(of: Void.self)
        try await server.registerFetcher(["cnt"]) { _, _ in
            for await _ in release { break }
            return .data(1)
        }
        #expect(try await client.count(QueryFilter(json: ["cnt"])) == 0)
        #expect(try await client.mutationCount(["status": "pending"]) == 0)
        var fetching = QueryFilter(json: ["cnt"])
        fetching.fetchStatus = "fetching"
        let watch = try await client.watchCount(fetching)
        var counts = watch.counts.makeAsyncIterator()
        #expect(await counts.next() == 0)
        try await client.prefetch(["cnt", "1"])
        #expect(await counts.next() == 1)
        opener.yield()
        opener.finish()
        #expect(await counts.next() == 0)
        try await client.unwatchCount(watch)
        #expect(await counts.next() == nil)
        let mutations = try await client.watchMutationCount(["status": "pending"])
        var mutationCounts = mutations.counts.makeAsyncIterator()
        #expect(await mutationCounts.next() == 0)
        try await client.unwatchCount(mutations)
    }
}
