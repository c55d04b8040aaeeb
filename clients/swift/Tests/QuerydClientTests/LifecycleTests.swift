// Lifecycle triggers (events.emit, client.setFocused, network.setOnline), an observer switching keys, and a
// streaming fetcher's fetch.progress chunks.

import QuerydClient
import Testing

@Suite(.timeLimit(.minutes(1))) struct LifecycleTests {
    @Test func emitFocusAndOnlineRefetchTheSubscribedQuery() async throws {
        let daemon = try TestDaemon()
        let client = try await connectedClient(daemon)
        let calls = Calls()
        try await client.registerFetcher(["t"]) { key, _ in .data(.number(JSONNumber(await calls.record(key)))) }
        let options = QueryOptions(
            staleTime: 60, refetchOnFocus: .always, refetchOnReconnect: .always, refetchOn: ["saved"])
        let subscription = try await client.subscribe(["t"], options: options)
        _ = await collectStates(subscription) { $0.data == 1 && !$0.isFetching }

        #expect(try await client.emit("saved") == 1)
        #expect(try await client.emit("nobody-listens") == 0)
        _ = await collectStates(subscription) { $0.data == 2 && !$0.isFetching }
        try await client.setFocused(false)
        try await client.setFocused(true)
        _ = await collectStates(subscription) { $0.data == 3 && !$0.isFetching }
        try await client.setOnline(false)
        try await client.setOnline(true)
        _ = await collectStates(subscription) { $0.data == 4 && !$0.isFetching }
        #expect(await calls.count == 4)
        await client.close()
    }

    @Test @MainActor func anObserverSwitchesKeys() async throws {
        let daemon = try TestDaemon()
        let server = try await connectedClient(daemon)
        let viewer = try await connectedClient(daemon)
        try await server.registerFetcher(["user"]) { key, _ in .data(.number(JSONNumber((key[1]?.intValue ?? 0) * 10)))
        }
        let observer = try QueryObserver(client: viewer, key: JSONKey(["user", 1]), as: Int.self)
        try await observer.start()
        await waitUntil { observer.data == 10 }

        try await observer.setOptions(QueryOptions(), key: JSONKey(["user", 2]))
        await waitUntil { observer.data == 20 }
        #expect(observer.key == ["user", 2] && observer.state?.key == ["user", 2])
        try await server.set(JSONKey(["user", 1]), data: 99)
        try await viewer.ping()
        #expect(observer.data == 20)
        await observer.stop()
    }

    @Test @MainActor func aStreamingFetcherShowsChunksBeforeItsAnswer() async throws {
        let daemon = try TestDaemon()
        let server = try await connectedClient(daemon)
        let viewer = try await connectedClient(daemon)
        let gate = Gate()
        try await server.registerFetcher(
            ["log"],
            serve: { request in
                #expect(request.attempt == 1 && request.key == ["log"])
                await request.progress(["line 1"])
                await gate.pass()
                return .data(["line 1", "line 2"])
            })
        let observer = try QueryObserver(client: viewer, key: ["log"], as: [String].self)
        try await observer.start()
        await waitUntil { observer.data == ["line 1"] }
        #expect(observer.isFetching && observer.isRefetching && !observer.isLoading && observer.isSuccess)
        await gate.open()
        await waitUntil { observer.data == ["line 1", "line 2"] && !observer.isFetching }
        await observer.stop()
    }
}
