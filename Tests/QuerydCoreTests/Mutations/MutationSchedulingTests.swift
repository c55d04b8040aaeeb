// Scopes, the network state, and invalidation after success, including the postponed
// invalidation of a key another pending mutation wrote optimistically (beating TanStack's B137).

import QuerydCore
import QuerydJSON
import Testing

@Suite struct MutationSchedulingTests {
    @Test func B130_mutationsOfOneScopeRunOneAfterAnother() {
        let h = MutationHarness()
        h.registerMutator("s")
        let (sub, _) = h.mutations.subscribe(connection: EngineHarness.client, filter: MutationFilter())
        h.run(key("s"), variables: 1, ["scope": "x"])
        h.run(key("s"), variables: 2, ["scope": "x"])
        h.run(key("s"), variables: 3)
        h.run(key("s"), variables: 4, ["scope": "x"])
        #expect(h.sentVariables == [1, 3])
        #expect(h.trace(of: sub) == ["1:pending", "2:pending paused", "3:pending", "4:pending paused"])
        h.reject(1)
        #expect(h.sentVariables == [1, 3, 2])
        h.answer(2, data: "two")
        #expect(h.sentVariables == [1, 3, 2, 4])
        #expect(
            h.trace(of: sub).suffix(4) == [
                "1:error failures=1 error=9", "2:pending", #"2:success data="two""#, "4:pending",
            ])
    }

    @Test func B131_offlineMutationsPauseAndResumeInSubmissionOrder() {
        let h = MutationHarness()
        h.registerMutator("o")
        h.mutations.setOnline(false)
        let (sub, _) = h.mutations.subscribe(connection: EngineHarness.client, filter: MutationFilter())
        h.run(key("o"), variables: "a", ["scope": "q"])
        h.run(key("o"), variables: "b")
        h.run(key("o"), variables: "c", ["scope": "q"])
        h.run(key("o"), variables: "d")
        #expect(h.sends.isEmpty)
        #expect(h.mutations.list(MutationFilter()).map(\.isPaused) == [true, true, true, true])
        h.mutations.setOnline(true)
        #expect(h.sentVariables == ["a", "b", "d"])
        #expect(h.trace(of: sub).suffix(3) == ["1:pending", "2:pending", "4:pending"])
        h.answer("a", data: 1)
        #expect(h.sentVariables == ["a", "b", "d", "c"])
    }

    @Test func B114_reconnectResumesPausedMutationsBeforeQueriesRefetch() {
        let h = MutationHarness()
        h.engine.register("t")
        h.registerMutator("t")
        h.engine.subscribe(key("t", "list"))
        h.engine.subscribe(key("t", "other"))
        h.engine.answer(key("t", "list"), 1)
        h.engine.answer(key("t", "other"), 1)
        h.cache.setOnline(false)
        h.engine.fetch(key("t", "new"))
        h.run(key("t", "add"), variables: "a", ["scope": "s"])
        h.run(key("t", "add"), variables: "b", ["scope": "s"])
        h.cache.setOnline(true)
        // Mutations first; the paused fetch and the reconnect refetches wait for both to settle.
        #expect(h.sentVariables == ["a"])
        #expect(h.engine.sends.count == 2)
        h.advance(50)
        h.answer("a", data: 1)
        #expect(h.sentVariables == ["a", "b"])
        #expect(h.engine.sends.count == 2)
        h.reject("b")
        #expect(
            h.engine.sends.map(\.key) == [
                key("t", "list"), key("t", "other"), key("t", "new"), key("t", "list"), key("t", "other"),
            ])
        #expect(h.engine.sendTimes(for: key("t", "new")) == [50])
    }

    @Test func reconnectWithoutPausedMutationsRefetchesAtOnceAndOfflineAgainDropsTheWait() {
        let h = MutationHarness()
        h.engine.register("t")
        h.registerMutator("t")
        h.engine.subscribe(key("t", "list"))
        h.engine.answer(key("t", "list"), 1)
        h.cache.setOnline(false)
        h.cache.setOnline(true)
        #expect(h.engine.sends.count == 2)
        h.engine.answer(key("t", "list"), 2)
        h.cache.setOnline(false)
        h.run(key("t", "add"), variables: "a")
        h.cache.setOnline(true)
        h.cache.setOnline(false)
        h.answer("a", data: 1)
        #expect(h.engine.sends.count == 2)
        h.cache.setOnline(true)
        #expect(h.engine.sends.count == 3)
    }

    @Test func networkModeAlwaysRunsMutationsOfflineAndOfflineFirstOnlyTheFirstAttempt() {
        let h = MutationHarness()
        h.registerMutator("m")
        h.cache.setOnline(false)
        let (always, _) = h.run(key("m"), variables: "a", ["networkMode": "always", "retry": 1, "retryDelay": 10])
        let (first, _) = h.run(
            key("m"), variables: "f", ["networkMode": "offlineFirst", "retry": 1, "retryDelay": 10])
        let (online, _) = h.run(key("m"), variables: "o")
        #expect(h.sentVariables == ["a", "f"])
        h.reject("a")
        h.reject("f")
        h.advance(10)
        #expect(h.sentVariables == ["a", "f", "a"])
        #expect(h.stateText(always) == "1:pending failures=1")
        #expect(h.stateText(first) == "2:pending paused failures=1")
        #expect(h.stateText(online) == "3:pending paused")
        h.cache.setOnline(true)
        #expect(h.sentVariables == ["a", "f", "a", "f", "o"])
    }

    @Test func B113_anAttemptInFlightGoesOnOfflineButItsRetryPauses() {
        let h = MutationHarness()
        h.registerMutator("r")
        let (id, outcome) = h.run(key("r"), variables: 1, ["retry": 1, "retryDelay": 100])
        h.mutations.setOnline(false)
        h.reject(1)
        h.advance(100)
        #expect(h.sends.count == 1)
        #expect(h.stateText(id) == "1:pending paused failures=1")
        h.mutations.setOnline(true)
        #expect(h.sends.map(\.attemptNumber) == [1, 2])
        h.answer(1, data: "ok")
        #expect(outcome.data == "ok")
    }

    @Test func invalidateOnSuccessRefetchesActiveQueriesOnly() {
        let h = MutationHarness()
        h.engine.register("todos")
        h.registerMutator("todos")
        let (active, _) = h.engine.subscribe(key("todos", "list"))
        h.engine.answer(key("todos", "list"), ["a"])
        h.engine.fetch(key("todos", "other"))
        h.engine.answer(key("todos", "other"), 1)
        let (_, outcome) = h.run(key("todos", "add"), variables: "b", ["invalidate": [["key": ["todos"]]]])
        #expect(h.engine.sends.count == 2)
        h.answer("b", data: nil)
        #expect(outcome.data == .null)
        #expect(h.engine.sends.map(\.key) == [key("todos", "list"), key("todos", "other"), key("todos", "list")])
        #expect(
            h.engine.trace(of: active).suffix(2) == [
                #"success/idle data=["a"] invalidated"#, #"success/fetching data=["a"] invalidated"#,
            ])
        #expect(h.cache.state(of: key("todos", "other"))?.isInvalidated == true)
        h.engine.answer(key("todos", "list"), ["a", "b"])
        #expect(h.engine.trace(of: active).last == #"success/idle data=["a","b"]"#)
    }

    @Test func B137_invalidationWaitsForAnotherPendingOptimisticMutationOfTheKey() {
        let h = MutationHarness()
        h.engine.register("todos")
        h.registerMutator("todos")
        let (sub, _) = h.engine.subscribe(key("todos"))
        h.engine.answer(key("todos"), ["a"])
        let options: (JSONValue) -> JSONValue = { list in
            ["optimistic": [["key": ["todos"], "data": list]], "invalidate": [["key": ["todos"]]]]
        }
        h.run(key("todos", "add"), variables: "b", options(["a", "b"]))
        h.run(key("todos", "add"), variables: "c", options(["a", "b", "c"]))
        h.answer("b", data: nil)
        // The first success does not refetch: the second's optimistic list stays on screen.
        #expect(h.engine.sends.count == 1)
        #expect(h.engine.trace(of: sub).last == #"success/idle data=["a","b","c"]"#)
        h.answer("c", data: nil)
        #expect(h.engine.sends.count == 2)
        #expect(h.engine.trace(of: sub).last == #"success/fetching data=["a","b","c"] invalidated"#)
        h.engine.answer(key("todos"), ["a", "b", "c"])
        #expect(h.engine.trace(of: sub).last == #"success/idle data=["a","b","c"]"#)
    }

    @Test func aPostponedInvalidationRunsWhenTheOtherMutationFails() {
        let h = MutationHarness()
        h.engine.register("k")
        h.registerMutator("k")
        let (sub, _) = h.engine.subscribe(key("k"))
        h.engine.answer(key("k"), 0)
        h.run(key("k"), variables: "plain", ["invalidate": [["key": ["k"]]]])
        h.run(key("k"), variables: "opt", ["optimistic": [["key": ["k"], "data": 5]]])
        h.answer("plain", data: nil)
        #expect(h.engine.sends.count == 1)
        h.reject("opt")
        #expect(h.engine.sends.count == 2)
        #expect(
            h.engine.trace(of: sub).suffix(2) == [
                "success/idle data=0 invalidated", "success/fetching data=0 invalidated",
            ])
    }
}
