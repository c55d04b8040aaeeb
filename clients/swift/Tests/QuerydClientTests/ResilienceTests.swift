// Resilience: waiting for a daemon that is starting, jittered backoff, and idempotent calls that were in
// flight when the daemon restarted being sent again instead of failing.

import QuerydClient
import Testing

@Suite(.timeLimit(.minutes(1))) struct ResilienceTests {
    @Test func connectWaitsForADaemonThatIsStarting() async throws {
        let daemon = try TestDaemon()
        daemon.stop()
        let client = QueryClient(socketPath: daemon.socketPath)
        let connecting = Task { try await client.connect(waitingUpTo: 20) }
        try await Task.sleep(nanoseconds: 200_000_000)
        try daemon.restart()
        try await connecting.value
        #expect(await client.isConnected)
        #expect(await client.server?.version != nil)
        await client.close()
    }

    @Test func connectWithoutWaitingFailsAtOnce() async {
        let client = QueryClient(socketPath: "/tmp/qd-nobody-\(UInt32.random(in: 0...UInt32.max)).sock")
        await #expect(throws: QueryClientError.self) { try await client.connect() }
        #expect(await !client.isConnected)
    }

    @Test func delaysDoubleUpToTheCapLessTheirJitter() {
        let policy = ReconnectPolicy(initialDelay: 0.05, maxDelay: 1, jitter: 0.5)
        #expect(policy.delay(afterFailedAttempts: 0, random: 0) == 0.05)
        #expect(policy.delay(afterFailedAttempts: 3, random: 0) == 0.4)
        #expect(policy.delay(afterFailedAttempts: 10, random: 0) == 1)
        #expect(policy.delay(afterFailedAttempts: 10, random: 1) == 0.5)
        #expect(ReconnectPolicy(jitter: 0).delay(afterFailedAttempts: 1) == 0.1)
    }

    /// The daemon answers the waiting fetch -32003 "shutdown" when it stops; the client asks the new daemon,
    /// whose fetch reaches the re-registered fetcher.
    @Test func aFetchInFlightIsSentAgainAfterTheDaemonRestarts() async throws {
        let daemon = try TestDaemon()
        let server = try await connectedClient(daemon)
        let reader = try await connectedClient(daemon)
        let calls = Calls()
        let gate = Gate()
        try await server.registerFetcher(["slow"]) { key, _ in
            let call = await calls.record(key)
            if call == 1 { await gate.pass() }
            return .data(.number(JSONNumber(call)))
        }
        let waiting = Task { try await reader.fetch(["slow"]) }
        await gate.waitForArrival()
        try daemon.restart()
        #expect(try await waiting.value.data == 2)
        #expect(await calls.count == 2)
        await gate.open()
        await reader.close()
        await server.close()
    }

    @Test func aCallWaitingForTheReconnectCanBeCancelled() async throws {
        let daemon = try TestDaemon()
        let server = try await connectedClient(daemon)
        let reader = try await connectedClient(daemon)
        let gate = Gate()
        try await server.registerFetcher(["slow"]) { _, _ in
            await gate.pass()
            return .data(1)
        }
        let waiting = Task { try await reader.fetch(["slow"]) }
        await gate.waitForArrival()
        daemon.stop()
        let events = await reader.connectionEvents()
        for await event in events {
            if case .reconnecting = event { break }
        }
        waiting.cancel()
        await #expect(throws: QueryClientError.server(RPCError(.requestCancelled))) { _ = try await waiting.value }
        await gate.open()
        await reader.close()
        await server.close()
    }

    @Test func aCallThatIsNotIdempotentFailsWhenTheDaemonGoes() async throws {
        let daemon = try TestDaemon()
        let mutator = try await connectedClient(daemon)
        let runner = try await connectedClient(daemon)
        let gate = Gate()
        try await mutator.registerMutator(["save"]) { _, _ in
            await gate.pass()
            return true
        }
        let waiting = Task { try await runner.mutate(["save"]) }
        await gate.waitForArrival()
        try daemon.restart()
        await #expect(throws: QueryClientError.self) { _ = try await waiting.value }
        await gate.open()
        await runner.close()
        await mutator.close()
    }
}
