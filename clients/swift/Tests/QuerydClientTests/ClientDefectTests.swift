// Issue 14, defect 4: refetch of an uncached key, refetchInterval, staleTime Infinity versus "static", and the
// default socket path with a relative $XDG_RUNTIME_DIR. Each failed before its fix.

import Foundation
import Glibc
import QuerydClient
import Testing

@Suite(.timeLimit(.minutes(1))) struct ClientDefectTests {
    /// The daemon answers `null` for a key it does not cache; the client threw invalidResponse.
    @Test func refetchOfAnUncachedKeyReturnsNil() async throws {
        let daemon = try TestDaemon()
        let client = try await connectedClient(daemon)
        #expect(try await client.refetch(["never", "cached"]) == nil)
        try await client.registerFetcher(["cached"]) { _, _ in .data(2) }
        try await client.set(["cached"], data: 1)
        #expect(try await client.refetch(["cached"])?.data == 2)
        await client.close()
    }

    /// The docs said the daemon rejects refetchInterval; it polls.
    @Test func refetchIntervalPolls() async throws {
        let daemon = try TestDaemon()
        let client = try await connectedClient(daemon)
        let calls = Calls()
        try await client.registerFetcher(["poll"]) { key, _ in .data(.number(JSONNumber(await calls.record(key)))) }
        let subscription = try await client.subscribe(["poll"], options: QueryOptions(refetchInterval: 0.02))
        let states = await collectStates(subscription) { $0.data == 3 }
        #expect(states.last?.data == 3)
        await client.close()
    }

    /// `.infinity` is TanStack's Infinity (invalidation refetches); `.static` is never refetched.
    @Test func infinityRefetchesOnInvalidationAndStaticDoesNot() async throws {
        let daemon = try TestDaemon()
        let client = try await connectedClient(daemon)
        let calls = Calls()
        try await client.registerFetcher(["stale"]) { key, _ in .data(.number(JSONNumber(await calls.record(key)))) }
        let infinite = try await client.subscribe(["stale", "infinity"], options: QueryOptions(staleTime: .infinity))
        let never = try await client.subscribe(["stale", "static"], options: QueryOptions(staleTime: .static))
        _ = await collectStates(infinite) { $0.isSuccess }
        _ = await collectStates(never) { $0.isSuccess }
        #expect(await calls.count == 2)

        #expect(try await client.invalidate(["stale"]) == 2)
        let refetched = await collectStates(infinite) { $0.isSuccess && !$0.isFetching && $0.dataUpdateCount == 2 }
        #expect(refetched.last?.isStale == false)
        try await client.ping()
        #expect(await calls.keys == [["stale", "infinity"], ["stale", "static"], ["stale", "infinity"]])
        #expect(try await client.state(["stale", "static"])?.dataUpdateCount == 1)
        await client.close()
    }
}

/// Environment-dependent cases run one at a time (they change this process's environment).
@Suite(.serialized) struct ClientSocketPathTests {
    /// `queryd serve` ignores a relative `$XDG_RUNTIME_DIR`; the client used it and missed the daemon.
    @Test func aRelativeRuntimeDirectoryIsIgnoredAsTheDaemonDoes() {
        let environment = ProcessInfo.processInfo.environment
        let saved = (environment["QUERYD_SOCKET"], environment["XDG_RUNTIME_DIR"])
        defer {
            restore("QUERYD_SOCKET", saved.0)
            restore("XDG_RUNTIME_DIR", saved.1)
        }
        unsetenv("QUERYD_SOCKET")
        setenv("XDG_RUNTIME_DIR", "run/user", 1)
        #expect(QueryClient.defaultSocketPath() == "/tmp/queryd-\(getuid()).sock")
        setenv("XDG_RUNTIME_DIR", "/run/user/7/", 1)
        #expect(QueryClient.defaultSocketPath() == "/run/user/7/queryd.sock")
    }

    @Test func theOrderIsQuerydSocketThenRuntimeDirThenTmp() {
        #expect(QueryClient.defaultSocketPath(environment: ["QUERYD_SOCKET": "/s", "XDG_RUNTIME_DIR": "/r"]) == "/s")
        #expect(
            QueryClient.defaultSocketPath(environment: ["QUERYD_SOCKET": "", "XDG_RUNTIME_DIR": "/r"])
                == "/r/queryd.sock")
        #expect(QueryClient.defaultSocketPath(environment: ["XDG_RUNTIME_DIR": ""]) == "/tmp/queryd-\(getuid()).sock")
    }

    /// `queryd serve --socket ""`, Python and Node treat an empty explicit path as unset; the client used it as is.
    @Test func anEmptyExplicitPathCountsAsUnset() {
        #expect(QueryClient(socketPath: "").socketPath == QueryClient.defaultSocketPath())
        #expect(QueryClient(socketPath: "/x.sock").socketPath == "/x.sock")
    }

    private func restore(_ name: String, _ value: String?) {
        if let value { setenv(name, value, 1) } else { unsetenv(name) }
    }
}
