// Protocol 2's push modes against the real daemon: patch pushes rebuilt into full data, meta states
// without data, and echo: false leaving out the connection's own writes.

import QuerydClient
import QuerydJSON
import Testing

@Suite(.timeLimit(.minutes(1))) struct PushModeDaemonTests {
    @Test func patchAndMetaPushesFromTheDaemon() async throws {
        let daemon = try TestDaemon()
        let writer = try await connectedClient(daemon)
        let reader = try await connectedClient(daemon)
        let key = ["push-modes"]
        _ = try await writer.set(key, data: ["a": 1, "b": ["c": 2]])
        let patched = try await reader.subscribe(key, options: QueryOptions(push: .patch))
        let meta = try await reader.subscribe(key, options: QueryOptions(push: .meta))
        #expect(patched.initialState.data == ["a": 1, "b": ["c": 2]])
        #expect(meta.initialState.data == nil)
        #expect(meta.initialState.dataVersion == patched.initialState.dataVersion)

        _ = try await writer.set(key, mergePatch: ["b": ["c": 3]])
        let rebuilt = await collectStates(patched) { $0.data == ["a": 1, "b": ["c": 3]] }
        let metaStates = await collectStates(meta) { $0.dataVersion != meta.initialState.dataVersion }
        #expect(rebuilt.last?.data == ["a": 1, "b": ["c": 3]])
        #expect(metaStates.last?.data == nil)
        #expect(metaStates.last?.dataVersion == rebuilt.last?.dataVersion)
        await reader.close()
        await writer.close()
    }

    @Test func echoFalseLeavesOutTheConnectionsOwnWrites() async throws {
        let daemon = try TestDaemon()
        let writer = try await connectedClient(daemon)
        let reader = try await connectedClient(daemon)
        let key = ["echo"]
        _ = try await writer.set(key, data: 0)
        let quiet = try await reader.subscribe(key, options: QueryOptions(push: .patch, echo: false))
        _ = try await reader.set(key, data: ["own": true])
        _ = try await writer.set(key, data: ["other": true])
        let seen = await collectStates(quiet) { $0.data == ["other": true] }
        #expect(seen.map { $0.data } == [0, ["other": true]])
        await reader.close()
        await writer.close()
    }
}
