// Engine tests of retries: the default backoff at exact virtual times, counts and caps, the
// imperative no-retry default, and retries stopped (and revived) when subscribers leave.

import QuerydCore
import QuerydJSON
import Testing

@Suite struct RetryTests {
    /// The error state a failing fetcher leaves, as stored: the fetcher's error wrapped in -32001.
    static let storedError: JSONValue = ["code": -32001, "message": "Fetch failed", "data": EngineHarness.fetcherError]

    /// Fails the retries of `key` (attempts 2, 3, ...) at the given times, checking that none starts
    /// earlier; the first attempt must already have been sent and failed.
    private func failRetries(_ h: EngineHarness, _ key: QueryKey, at times: [Int64]) {
        for (index, time) in times.enumerated() {
            let attempt = index + 2
            h.advance(to: time - 1)
            #expect(h.sends(for: key).count == attempt - 1, "attempt \(attempt) started before \(time) ms")
            h.advance(to: time)
            #expect(h.sends(for: key).count == attempt, "attempt \(attempt) did not start at \(time) ms")
            h.fail(key)
        }
    }

    @Test func B038_defaultRetryBacksOffAt1000_2000_4000AndFailsWithCount4() {
        let h = EngineHarness()
        h.register("r")
        let (sub, reply) = h.subscribe(key("r"))
        #expect(describe(reply) == "pending/fetching")
        h.fail(key("r"))
        failRetries(h, key("r"), at: [1000, 3000, 7000])
        #expect(h.sendTimes(for: key("r")) == [0, 1000, 3000, 7000])
        #expect(h.sends.map(\.attemptNumber) == [1, 2, 3, 4])
        #expect(
            h.trace(of: sub) == [
                "pending/fetching failures=1", "pending/fetching failures=2", "pending/fetching failures=3",
                "error/idle error=-32001 failures=4 invalidated",
            ])
        let pushes = h.pushes(of: sub)
        #expect(pushes.dropLast().allSatisfy { $0.failureReason == Self.storedError && $0.error == nil })
        #expect(pushes.last?.error == Self.storedError)
        #expect(pushes.last?.errorUpdateCount == 1)
        #expect(pushes.last?.errorUpdatedAt == h.start + 7000)
        h.advance(100_000)
        #expect(h.sends.count == 4)
    }

    @Test func B039_fixedRetryDelay() {
        let h = EngineHarness()
        h.register("r")
        let (sub, _) = h.subscribe(key("r"), ["retry": 1, "retryDelay": 10])
        h.fail(key("r"))
        failRetries(h, key("r"), at: [10])
        #expect(h.sendTimes(for: key("r")) == [0, 10])
        #expect(h.trace(of: sub) == ["pending/fetching failures=1", "error/idle error=-32001 failures=2 invalidated"])
    }

    @Test func B040_fetchPrefetchAndEnsureDoNotRetryByDefault() {
        let h = EngineHarness()
        h.register("r")
        let fetched = h.fetch(key("r", "fetch"))
        h.fail(key("r", "fetch"))
        #expect(
            fetched.failure == CacheFailure(code: -32001, message: "Fetch failed", data: EngineHarness.fetcherError))

        let ensured = h.fetch(key("r", "ensure"), mode: .ensure)
        h.fail(key("r", "ensure"))
        #expect(ensured.failure?.code == -32001)

        try! h.cache.prefetch(key: key("r", "prefetch"), options: QueryOptions())
        h.fail(key("r", "prefetch"))
        #expect(h.stateText(key("r", "prefetch")) == "error/idle error=-32001 failures=1 invalidated")

        h.advance(100_000)
        #expect(h.sends.count == 3)
    }

    @Test func B041_theBackoffIsCappedAt30Seconds() {
        let h = EngineHarness()
        h.register("r")
        h.subscribe(key("r"), ["retry": 7])
        h.fail(key("r"))
        failRetries(h, key("r"), at: [1000, 3000, 7000, 15000, 31000, 61000, 91000])
        #expect(h.sendTimes(for: key("r")) == [0, 1000, 3000, 7000, 15000, 31000, 61000, 91000])
        #expect(h.stateText(key("r")) == "error/idle error=-32001 failures=8 invalidated")
    }

    @Test func retryTrueRetriesUntilSuccess() {
        let h = EngineHarness()
        h.register("r")
        let (sub, _) = h.subscribe(key("r"), ["retry": true, "retryDelay": 5])
        for attempt in 1...20 {
            #expect(h.sends.count == attempt)
            h.fail(key("r"))
            h.advance(5)
        }
        h.answer(key("r"), 1)
        #expect(h.trace(of: sub).last == "success/idle data=1")
        #expect(h.pushes(of: sub).last?.failureCount == 0)
    }

    @Test func B042_lastUnsubscribeDuringAnAttemptStopsFurtherRetries() {
        let h = EngineHarness()
        h.register("r", cancellable: false)
        let (sub, _) = h.subscribe(key("r"), ["retry": 10, "retryDelay": 50])
        h.fail(key("r"))
        h.advance(to: 60)
        #expect(h.sends.count == 2)
        h.unsubscribe(sub)
        #expect(h.cancels.isEmpty)
        h.advance(to: 70)
        h.fail(key("r"))
        #expect(h.stateText(key("r")) == "error/idle error=-32001 failures=2 invalidated")
        h.advance(10_000)
        #expect(h.sends.count == 2)
    }

    @Test func B042_lastUnsubscribeDuringTheRetryDelayEndsInErrorAtTheDelay() {
        let h = EngineHarness()
        h.register("r", cancellable: false)
        let (sub, _) = h.subscribe(key("r"), ["retry": 10, "retryDelay": 50])
        h.fail(key("r"))
        h.advance(to: 10)
        h.unsubscribe(sub)
        #expect(h.stateText(key("r")) == "pending/fetching failures=1")
        h.advance(to: 50)
        #expect(h.stateText(key("r")) == "error/idle error=-32001 failures=2 invalidated")
        h.advance(10_000)
        #expect(h.sends.count == 1)
    }

    @Test func B043_subscribingAgainDuringTheDelayRevivesTheRetries() {
        let h = EngineHarness()
        h.register("r", cancellable: false)
        let (first, _) = h.subscribe(key("r"), ["retry": 10, "retryDelay": 50])
        h.fail(key("r"))
        h.advance(to: 10)
        h.unsubscribe(first)
        h.advance(to: 20)
        let (second, reply) = h.subscribe(key("r"), ["retry": 10, "retryDelay": 50])
        #expect(describe(reply) == "pending/fetching failures=1")
        #expect(h.sends.count == 1)
        h.advance(to: 50)
        #expect(h.sendTimes(for: key("r")) == [0, 50])
        h.answer(key("r"), 1)
        #expect(h.trace(of: second) == ["success/idle data=1"])
    }

    /// retryOnMount is not an option here; TanStack's default (true) applies: a subscriber to a
    /// query in error without data fetches it again.
    @Test func B044_subscribingToAnErrorWithoutDataFetchesAgain() {
        let h = EngineHarness()
        h.register("r")
        h.fetch(key("r"))
        h.fail(key("r"))
        #expect(h.stateText(key("r")) == "error/idle error=-32001 failures=1 invalidated")
        let (_, reply) = h.subscribe(key("r"))
        #expect(describe(reply) == "pending/fetching invalidated")
        #expect(reply.error == nil && reply.failureReason == nil)
        #expect(h.sends.count == 2)
    }

    @Test func B045_aNewFetchResetsTheFailureCountAndReason() {
        let h = EngineHarness()
        h.register("r")
        let (sub, _) = h.subscribe(key("r"), ["retry": 1, "retryDelay": 10])
        h.answer(key("r"), 1)
        h.refetch(sub)
        h.fail(key("r"))
        h.advance(10)
        h.fail(key("r"))
        #expect(h.trace(of: sub).last == "error/idle data=1 error=-32001 failures=2 invalidated")
        h.refetch(sub)
        let restarted = h.pushes(of: sub).last
        #expect(restarted.map { describe($0) } == "error/fetching data=1 error=-32001 invalidated")
        #expect(restarted?.failureCount == 0 && restarted?.failureReason == nil)
        #expect(restarted?.isRefetching == true)
    }
}
