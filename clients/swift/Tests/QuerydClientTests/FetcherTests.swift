// Fetcher registration and serving, dedupe across clients, and error propagation, against the real daemon.

import QuerydClient
import QuerydJSON
import QuerydRPC
import Testing

@Suite(.timeLimit(.minutes(1))) struct FetcherTests {
    @Test func aRegisteredFetcherServesAnotherClient() async throws {
        let daemon = try TestDaemon()
        let server = try await connectedClient(daemon)
        let reader = try await connectedClient(daemon)
        let calls = Calls()
        try await server.registerFetcher(["todos"]) { key, pageParam in
            let count = await calls.record(key, pageParam: pageParam)
            return .data(["key": key, "call": .number(JSONNumber(count))])
        }

        let key: JSONKey = ["todos", 7]
        let state = try await reader.fetch(key)
        #expect(state.status == .success)
        #expect(state.fetchStatus == .idle)
        #expect(state.key == ["todos", 7])
        #expect(state.data == ["key": ["todos", 7], "call": 1])
        #expect(await calls.keys == [["todos", 7]])
        #expect(await calls.pageParams == [nil])

        let fresh = try await reader.fetch(key, options: QueryOptions(staleTime: 60))
        #expect(fresh.data == state.data)
        #expect(await calls.count == 1)
        #expect(try await reader.get(key)?.data == ["key": ["todos", 7], "call": 1])
        #expect(try await reader.get(key, as: Served.self) == Served(call: 1))
        #expect(try await reader.get(JSONKey(["todos", 8])) == nil)
    }

    @Test func daemonIDNamesTheRegistrationTheDaemonHolds() async throws {
        let daemon = try TestDaemon()
        let server = try await connectedClient(daemon)
        let first = try await server.registerFetcher(["a"]) { _, _ in .data(1) }
        let second = try await server.registerFetcher(["b"]) { _, _ in .data(2) }
        let firstID = try #require(await server.daemonID(of: first))
        let secondID = try #require(await server.daemonID(of: second))
        #expect(firstID != secondID)
        // The daemon knows the id: unregistering by it succeeds, and a second time it is unknown.
        _ = try await server.call("fetcher.unregister", ["fetcher": .number(JSONNumber(firstID))])
        await #expect(throws: QueryClientError.self) {
            _ = try await server.call("fetcher.unregister", ["fetcher": .number(JSONNumber(firstID))])
        }
        try await server.unregisterFetcher(second)
        #expect(await server.daemonID(of: second) == nil)
    }

    @Test func twoClientsShareOneFetch() async throws {
        let daemon = try TestDaemon()
        let server = try await connectedClient(daemon)
        let first = try await connectedClient(daemon)
        let second = try await connectedClient(daemon)
        let calls = Calls()
        let gate = Gate()
        try await server.registerFetcher(["shared"]) { key, _ in
            _ = await calls.record(key)
            await gate.pass()
            return .data("v1")
        }

        async let fetched = first.fetch(["shared"])
        await gate.waitForArrival()
        let subscription = try await second.subscribe(["shared"])
        #expect(subscription.initialState.status == .pending)
        #expect(subscription.initialState.fetchStatus == .fetching)
        #expect(subscription.initialState.isLoading)
        await gate.open()

        #expect(try await fetched.data == "v1")
        let states = await collectStates(subscription) { $0.isSuccess }
        #expect(states.map(\.status) == [.pending, .success])
        #expect(states.last?.data == "v1")
        #expect(states.last?.fetchStatus == .idle)
        #expect(await calls.count == 1)
    }

    @Test func aFetcherErrorReachesTheCallerWrapped() async throws {
        let daemon = try TestDaemon()
        let server = try await connectedClient(daemon)
        let reader = try await connectedClient(daemon)
        let upstream = RPCError(RPCErrorCode(rawValue: 503), "Upstream unavailable", data: ["retryAfterMs": 2000])
        try await server.registerFetcher(["broken"]) { _, _ in throw upstream }

        do {
            _ = try await reader.fetch(["broken"])
            Issue.record("the fetch should have failed")
        } catch {
            #expect(error.rpcError?.code == .fetchFailed)
            #expect(error.rpcError?.data == upstream.jsonValue)
        }
        let state = try #require(try await reader.state(["broken"]))
        #expect(state.status == .error)
        #expect(state.error == RPCError(.fetchFailed, "Fetch failed", data: upstream.jsonValue))
        #expect(state.failureCount == 1)
    }

    @Test @MainActor func anObserverShowsAFetcherError() async throws {
        let daemon = try TestDaemon()
        let server = try await connectedClient(daemon)
        let viewer = try await connectedClient(daemon)
        try await server.registerFetcher(["broken"]) { _, _ in throw OddError() }

        let observer = try QueryObserver(client: viewer, key: ["broken"], options: QueryOptions(retry: .never))
        try await observer.start()
        await waitUntil { observer.isError }
        #expect(observer.status == .error)
        #expect(observer.data == nil)
        #expect(observer.error?.code == .fetchFailed)
        #expect(observer.error?.data == ["code": -32000, "message": "odd failure", "data": ["type": "OddError"]])
        #expect(!observer.isFetching)
    }

    struct Served: Decodable, Equatable {
        let call: Int
    }

    struct OddError: Error, CustomStringConvertible {
        var description: String { "odd failure" }
    }
}
