// Mutations through MutationObserver (needs the daemon's mutation support).

import QuerydClient
import QuerydJSON
import QuerydRPC
import Testing

@Suite(.timeLimit(.minutes(1))) struct MutationTests {
    struct Todo: Decodable, Equatable, Sendable {
        let id: Int
        let title: String
    }

    @Test @MainActor func aMutationRunsOnTheMutatorAndInvalidates() async throws {
        let daemon = try TestDaemon()
        let server = try await connectedClient(daemon)
        let app = try await connectedClient(daemon)
        let calls = Calls()
        try await server.registerFetcher(["todos"]) { key, _ in .data(.number(JSONNumber(await calls.record(key)))) }
        try await server.registerMutator(["todos", "add"]) { key, variables in
            #expect(key == ["todos", "add"])
            return ["id": 42, "title": variables["title"] ?? nil]
        }
        let list = try QueryObserver(client: app, key: ["todos"], as: Int.self)
        try await list.start()
        await waitUntil { list.data == 1 }

        let add = try MutationObserver(
            client: app, key: ["todos", "add"],
            options: MutationOptions(invalidate: [QueryFilter(json: ["todos"], exact: true)]), as: Todo.self)
        #expect(add.isIdle)
        let created = try await add.mutate(["title": "milk"])
        #expect(created == Todo(id: 42, title: "milk"))
        #expect(add.isSuccess)
        #expect(add.data == Todo(id: 42, title: "milk"))
        #expect(add.variables == ["title": "milk"])
        await waitUntil { list.data == 2 }

        add.reset()
        #expect(add.status == .idle)
        #expect(add.data == nil)
    }

    @Test @MainActor func aMutatorErrorIsReported() async throws {
        let daemon = try TestDaemon()
        let server = try await connectedClient(daemon)
        let app = try await connectedClient(daemon)
        let refusal = RPCError(RPCErrorCode(rawValue: 409), "Conflict", data: ["id": 1])
        try await server.registerMutator(["todos"]) { _, _ in throw refusal }
        let remove = try MutationObserver(client: app, key: ["todos", "remove"])
        await #expect(throws: QueryClientError.self) { try await remove.mutate(["id": 1]) }
        #expect(remove.isError)
        #expect(remove.error?.rpcError?.code == .mutationFailed)
        #expect(remove.error?.rpcError?.data == refusal.jsonValue)
    }
}

@Suite(.timeLimit(.minutes(1))) struct DefaultsClientTests {
    @Test func setQueryDefaultsSetMutationDefaultsAndGetDefaultsReachTheDaemon() async throws {
        let daemon = try TestDaemon()
        let server = try await connectedClient(daemon)
        let app = try await connectedClient(daemon)
        let refusal = RPCError(RPCErrorCode(rawValue: 503), "Busy")
        let calls = Calls()
        try await server.registerMutator(["saves"]) { key, _ in
            if await calls.record(key) == 1 { throw refusal }
            return "saved"
        }
        try await app.setQueryDefaults(["todos"], options: QueryOptions(staleTime: 60))
        try await app.setMutationDefaults(["saves"], options: MutationOptions(retry: .count(1, delay: 0)))
        let listing = try await app.getDefaults(for: ["todos", "1"])
        #expect(listing.queries.map(\.key) == [["todos"]])
        #expect(listing.queries.map(\.options) == [["staleTime": 60000]])
        #expect(listing.mutations.isEmpty)
        #expect(try await app.mutate(["saves", "a"]) == "saved")
        try await app.setQueryDefaults(["todos"], options: QueryOptions())
        try await app.setMutationDefaults(["saves"], options: MutationOptions())
        let emptied = try await app.getDefaults()
        #expect(emptied.queries.isEmpty && emptied.mutations.isEmpty)
    }
}
