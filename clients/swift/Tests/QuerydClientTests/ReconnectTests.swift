// Connection loss: calls fail, events are reported, and the client reconnects and re-registers by itself.

import QuerydClient
import QuerydJSON
import QuerydRPC
import Testing

@Suite(.timeLimit(.minutes(1))) struct ReconnectTests {
    @Test @MainActor func observersRecoverAfterTheDaemonRestarts() async throws {
        let daemon = try TestDaemon()
        let server = try await connectedClient(daemon)
        let viewer = try await connectedClient(daemon)
        let calls = Calls()
        try await server.registerFetcher(["clock"]) { key, _ in .data(.number(JSONNumber(await calls.record(key)))) }
        let observer = try QueryObserver(client: viewer, key: ["clock"], as: Int.self)
        try await observer.start()
        await waitUntil { observer.data == 1 }

        let events = await viewer.connectionEvents()
        try daemon.restart()
        var seen: [ConnectionEvent] = []
        for await event in events {
            seen.append(event)
            if event == .reconnected { break }
        }
        // Disconnected, then one reconnecting event per attempt (numbered from 1), then reconnected.
        guard case .disconnected(.connectionLost)? = seen.first, seen.count >= 3 else {
            Issue.record("expected a disconnected event first, saw \(seen)")
            return
        }
        for (index, event) in seen.dropFirst().dropLast().enumerated() {
            guard case .reconnecting(let attempt, let delay) = event else {
                Issue.record("expected reconnecting events, saw \(seen)")
                return
            }
            #expect(attempt == index + 1 && delay > 0 && delay <= ReconnectPolicy.standard.maxDelay)
        }

        // The new daemon has no data: the re-subscription fetches again through the re-registered fetcher.
        await waitUntil { observer.data == 2 && observer.isSuccess }
        #expect(observer.connectionError == nil)
        #expect(try await viewer.fetch(["clock"], options: QueryOptions(staleTime: 60)).data == 2)
        #expect(await calls.count == 2)
    }

    /// Without reconnecting, even an idempotent call fails (with reconnects it waits: see ResilienceTests).
    @Test func callsInFlightFailWhenTheDaemonGoes() async throws {
        let daemon = try TestDaemon()
        let server = try await connectedClient(daemon)
        let reader = QueryClient(socketPath: daemon.socketPath, reconnect: .disabled)
        try await reader.connect()
        let gate = Gate()
        try await server.registerFetcher(["slow"]) { _, _ in
            await gate.pass()
            return .data(1)
        }
        async let waiting = reader.fetch(["slow"])
        await gate.waitForArrival()
        daemon.stop()
        do {
            _ = try await waiting
            Issue.record("the fetch should have failed")
        } catch {
            // SIGTERM answers in-flight requests with -32003 before closing; a lost connection is also fine.
            switch error as? QueryClientError {
            case .server(let rpc)?: #expect(rpc.code == .cancelledByServer)
            case .connectionLost?: break
            default: Issue.record("unexpected \(error)")
            }
        }
        await gate.open()
        await reader.close()
        await server.close()
    }
}
