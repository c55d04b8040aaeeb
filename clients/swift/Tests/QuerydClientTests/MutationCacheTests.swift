// The mutation cache and snapshots through the Swift client against the real daemon: mutation
// `meta`, `mutations.list` pages, `mutations.clear`, `cache.dehydrate` and `cache.hydrate`.

import QuerydClient
import QuerydJSON
import Testing

@Suite(.timeLimit(.minutes(1))) struct MutationCacheTests {
    @Test func metaPagesAndClear() async throws {
        let daemon = try TestDaemon()
        let client = try await connectedClient(daemon)
        try await client.registerMutator(["todos"]) { _, variables in variables }
        for index in 1...3 {
            _ = try await client.mutate(
                ["todos", "add"], variables: .number(JSONNumber(index)), options: MutationOptions(meta: "form"))
        }
        let first = try await client.listMutations(cursor: nil, limit: 2)
        #expect(first.mutations.map { $0["variables"] } == [1, 2])
        #expect(first.mutations.map { $0["meta"] } == ["form", "form"])
        let cursor = try #require(first.nextCursor)
        let last = try await client.listMutations(cursor: cursor, limit: 2)
        #expect(last.mutations.map { $0["variables"] } == [3])
        #expect(last.nextCursor == nil)
        #expect(try await client.clearMutations() == 3)
        #expect(try await client.listMutations(cursor: nil).mutations.isEmpty)
    }

    @Test func aSnapshotMovesBetweenDaemons() async throws {
        let source = try TestDaemon()
        let from = try await connectedClient(source)
        _ = try await from.set(["todos"], data: ["buy milk"])
        let snapshot = try await from.dehydrate()
        #expect(snapshot["version"] == 1)
        #expect(snapshot["queries"]?[0]?["state"]?["data"] == ["buy milk"])

        let target = try TestDaemon()
        let into = try await connectedClient(target)
        let merged = try await into.hydrate(snapshot)
        #expect(merged.queries == 1 && merged.mutations == 0)
        #expect(try await into.state(["todos"])?.data == ["buy milk"])
        #expect(try await into.hydrate(snapshot).queries == 0)
    }
}
