// Waiting helpers without sleeps: Observation-driven waits, stream collectors, a gate and a call recorder.

import Observation
import QuerydClient
import QuerydJSON

/// Waits until `condition` (reading @Observable properties on the main actor) holds, re-checking after each
/// change Observation reports. The test's time limit bounds the wait.
@MainActor
func waitUntil(_ condition: @MainActor () -> Bool) async {
    while !condition() {
        await withCheckedContinuation { (continuation: CheckedContinuation<Void, Never>) in
            withObservationTracking {
                _ = condition()
            } onChange: {
                continuation.resume()
            }
        }
        await Task.yield()
    }
}

/// Reads a subscription's stream until `stop` accepts a state; returns every state seen, in order.
func collectStates(
    _ subscription: QuerySubscription, until stop: (QueryState) -> Bool
) async -> [QueryState] {
    var seen: [QueryState] = []
    for await event in subscription.events {
        guard case .state(let state) = event else { continue }
        seen.append(state)
        if stop(state) { break }
    }
    return seen
}

/// A latch the fetcher waits on until the test opens it; also reports when the first waiter arrived.
actor Gate {
    private var isOpen = false
    private var waiters: [CheckedContinuation<Void, Never>] = []
    private var arrivalWaiters: [CheckedContinuation<Void, Never>] = []
    private(set) var arrivals = 0

    /// Blocks until ``open()``.
    func pass() async {
        arrivals += 1
        arrivalWaiters.forEach { $0.resume() }
        arrivalWaiters.removeAll()
        if isOpen { return }
        await withCheckedContinuation { waiters.append($0) }
    }

    /// Returns once at least one caller reached ``pass()``.
    func waitForArrival() async {
        if arrivals > 0 { return }
        await withCheckedContinuation { arrivalWaiters.append($0) }
    }

    /// Lets every waiter (and later caller) through.
    func open() {
        isOpen = true
        waiters.forEach { $0.resume() }
        waiters.removeAll()
    }
}

/// Records the calls a fetcher or mutator received.
actor Calls {
    private(set) var keys: [JSONValue] = []
    private(set) var pageParams: [JSONValue?] = []

    /// Records one call and returns how many there have been.
    func record(_ key: JSONValue, pageParam: JSONValue? = nil) -> Int {
        keys.append(key)
        pageParams.append(pageParam)
        return keys.count
    }

    /// How many calls there were.
    var count: Int { keys.count }
}

/// A connected client for `daemon`.
func connectedClient(_ daemon: TestDaemon) async throws -> QueryClient {
    let client = QueryClient(socketPath: daemon.socketPath)
    try await client.connect()
    return client
}
