// Subscriptions and Observation-based observers: pushes, invalidation by prefix, refetch.

import QuerydClient
import QuerydJSON
import Testing

@Suite(.timeLimit(.minutes(1))) struct SubscriptionTests {
    struct Profile: Decodable, Equatable, Sendable {
        let name: String
    }

    @Test @MainActor func anObserverFollowsPushes() async throws {
        let daemon = try TestDaemon()
        let server = try await connectedClient(daemon)
        let viewer = try await connectedClient(daemon)
        let writer = try await connectedClient(daemon)
        try await server.registerFetcher(["profile"]) { _, _ in .data(["name": "Ada"]) }

        let observer = try QueryObserver(client: viewer, key: ["profile"], as: Profile.self)
        #expect(observer.isPending)
        #expect(observer.state == nil)
        try await observer.start()
        await waitUntil { observer.isSuccess }
        #expect(observer.data == Profile(name: "Ada"))
        #expect(observer.state?.dataUpdateCount == 1)
        #expect(!observer.isLoading)

        try await writer.set(["profile"], data: ["name": "Grace"])
        await waitUntil { observer.data == Profile(name: "Grace") }
        #expect(observer.state?.dataUpdateCount == 2)
        #expect(observer.isSuccess)

        try await writer.set(["profile"], mergePatch: ["name": "Hopper"])
        await waitUntil { observer.data == Profile(name: "Hopper") }
        await observer.stop()
        try await writer.set(["profile"], data: ["name": "Later"])
        try await viewer.ping()
        #expect(observer.data == Profile(name: "Hopper"))
    }

    @Test func pushesArriveInOrderOnTheStream() async throws {
        let daemon = try TestDaemon()
        let viewer = try await connectedClient(daemon)
        let writer = try await connectedClient(daemon)
        try await writer.set(["counter"], data: 0)
        let subscription = try await viewer.subscribe(["counter"], options: QueryOptions(staleTime: .infinity))
        #expect(subscription.initialState.data == 0)
        for value in 1...5 { try await writer.set(["counter"], data: .number(JSONNumber(value))) }
        let states = await collectStates(subscription) { $0.data == 5 }
        #expect(states.map(\.data) == [0, 1, 2, 3, 4, 5])
        #expect(states.map(\.version) == states.map(\.version).sorted())
        await viewer.unsubscribe(subscription)
    }

    @Test func invalidatingAPrefixRefetchesOnlyMatchingActiveQueries() async throws {
        let daemon = try TestDaemon()
        let server = try await connectedClient(daemon)
        let viewer = try await connectedClient(daemon)
        let calls = Calls()
        let serve: FetcherHandler = { key, _ in
            let count = await calls.record(key)
            return .data(["key": key, "call": .number(JSONNumber(count))])
        }
        try await server.registerFetcher(["todos"], fetch: serve)
        try await server.registerFetcher(["users"], fetch: serve)

        let todo1 = try await viewer.subscribe(JSONKey(["todos", 1]))
        let todo2 = try await viewer.subscribe(JSONKey(["todos", 2]))
        let user1 = try await viewer.subscribe(JSONKey(["users", 1]))
        for subscription in [todo1, todo2, user1] { _ = await collectStates(subscription) { $0.isSuccess } }
        #expect(await calls.count == 3)

        #expect(try await viewer.invalidate(["todos"]) == 2)
        let after1 = await collectStates(todo1) { $0.isSuccess && !$0.isFetching }
        let after2 = await collectStates(todo2) { $0.isSuccess && !$0.isFetching }
        #expect(after1.first?.isInvalidated == true)
        #expect(after1.last?.isInvalidated == false)
        #expect(after2.last?.isInvalidated == false)
        let keys = await calls.keys.map(\.encodedString)
        #expect(keys.count == 5)
        #expect(keys.filter { $0 == #"["todos",1]"# }.count == 2)
        #expect(keys.filter { $0 == #"["todos",2]"# }.count == 2)
        #expect(keys.filter { $0 == #"["users",1]"# }.count == 1)
        #expect(try await viewer.state(JSONKey(["users", 1]))?.isInvalidated == false)
    }

    @Test @MainActor func refetchRunsTheFetcherAgain() async throws {
        let daemon = try TestDaemon()
        let server = try await connectedClient(daemon)
        let viewer = try await connectedClient(daemon)
        let calls = Calls()
        try await server.registerFetcher(["n"]) { key, _ in .data(.number(JSONNumber(await calls.record(key)))) }
        let observer = try QueryObserver(client: viewer, key: ["n"], as: Int.self)
        try await observer.start()
        await waitUntil { observer.data == 1 }
        let settled = try await observer.refetch()
        #expect(settled.data == 2)
        #expect(observer.data == 2)
        #expect(!observer.isRefetching)
    }
}
