// Engine tests of deduplication: concurrent subscribers and callers share one fetch, and a refetch
// either joins the fetch in flight or replaces it (cancelRefetch with data).

import QuerydCore
import QuerydJSON
import Testing

@Suite struct DedupeTests {
    @Test func B010_twoSubscribersAndACallerShareOneCall() {
        let h = EngineHarness()
        h.register("todos")
        let (a, replyA) = h.subscribe(key("todos"))
        let (b, replyB) = h.subscribe(key("todos"), connection: EngineHarness.otherClient)
        let caller = h.fetch(key("todos"))
        #expect(h.sends.count == 1)
        #expect(describe(replyA) == "pending/fetching" && describe(replyB) == "pending/fetching")
        h.answer(key("todos"), [1, 2])
        #expect(h.trace(of: a) == ["success/idle data=[1,2]"])
        #expect(h.trace(of: b) == ["success/idle data=[1,2]"])
        #expect(caller.value?.data == [1, 2])
        #expect(h.sends.count == 1)
    }

    @Test func B011_refetchDuringTheInitialFetchJoinsIt() {
        let h = EngineHarness()
        h.register("todos", cancellable: true)
        let (sub, _) = h.subscribe(key("todos"))
        let refetch = h.refetch(sub, cancelRefetch: true)
        #expect(h.sends.count == 1)
        #expect(h.cancels.isEmpty)
        h.answer(key("todos"), 1)
        #expect(refetch.value.map { describe($0) } == "success/idle data=1")
        #expect(h.trace(of: sub) == ["success/idle data=1"])
    }

    /// The engine differs from TanStack on one point: the replaced run's waiters move to the new run
    /// (TanStack rejects the first refetch's promise with a CancelledError); both get the newest data.
    @Test func B012_refetchDuringABackgroundRefetchReplacesIt() {
        let h = EngineHarness()
        h.register("todos", cancellable: true)
        let (sub, _) = h.subscribe(key("todos"))
        h.answer(key("todos"), 1)
        let first = h.refetch(sub)
        let replaced = h.sends[1]
        let second = h.refetch(sub, cancelRefetch: true)
        #expect(h.sends.count == 3)
        #expect(h.cancels == [replaced.attempt])
        #expect(h.sends[2].attemptNumber == 1)
        // The late answer of the replaced attempt is ignored.
        h.cache.attemptSucceeded(replaced.attempt, answer: ["data": 2])
        #expect(h.trace(of: sub) == ["success/idle data=1", "success/fetching data=1"])
        h.answer(key("todos"), 3)
        #expect(h.trace(of: sub) == ["success/idle data=1", "success/fetching data=1", "success/idle data=3"])
        #expect(first.value?.data == 3)
        #expect(second.value?.data == 3)
    }

    @Test func B012_refetchWithoutCancelRefetchJoinsTheBackgroundRefetch() {
        let h = EngineHarness()
        h.register("todos", cancellable: true)
        let (sub, _) = h.subscribe(key("todos"))
        h.answer(key("todos"), 1)
        let first = h.refetch(sub)
        let second = h.refetch(sub, cancelRefetch: false)
        #expect(h.sends.count == 2)
        #expect(h.cancels.isEmpty)
        h.answer(key("todos"), 2)
        #expect(first.value?.data == 2 && second.value?.data == 2)
    }

    @Test func B013_aSecondFetchOfAFetchingKeySharesTheRunAndItsStart() {
        let h = EngineHarness()
        h.register("todos")
        let (watcher, _) = h.subscribe(key("todos"), ["enabled": false])
        let first = h.fetch(key("todos"))
        let version = h.cache.query(key("todos"))?.version
        let second = h.fetch(key("todos"))
        #expect(h.cache.query(key("todos"))?.version == version)
        #expect(h.sends.count == 1)
        h.answer(key("todos"), "x")
        #expect(first.value?.data == "x" && second.value?.data == "x")
        #expect(h.trace(of: watcher) == ["pending/fetching", #"success/idle data="x""#])
    }

    @Test func aFetchWithStaleTimeJoinsTheFetchInFlightRatherThanStartingAnother() {
        let h = EngineHarness()
        h.register("todos")
        h.subscribe(key("todos"))
        let caller = h.fetch(key("todos"), ["staleTime": 60_000])
        let ensure = h.fetch(key("todos"), mode: .ensure)
        #expect(h.sends.count == 1)
        #expect(caller.results.isEmpty && ensure.results.isEmpty)
        h.answer(key("todos"), 1)
        #expect(caller.value?.data == 1 && ensure.value?.data == 1)
    }
}
