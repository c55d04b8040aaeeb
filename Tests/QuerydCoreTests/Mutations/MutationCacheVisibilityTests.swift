// `mutations.clear` and the `meta` option: what clearing does to settled, paused and running
// mutations (their callers, subscribers and optimistic writes), and meta echoed in the state.

import QuerydCore
import QuerydJSON
import Testing

@Suite struct MutationCacheVisibilityTests {
    @Test func clearForgetsSettledCancelsPausedAndLeavesRunningOnes() {
        let h = MutationHarness()
        h.registerMutator("m")
        _ = try? h.cache.set(key: key("todos"), .data(["a"]), updatedAt: nil)
        let (done, _) = h.run(key("m"), variables: 1)
        h.answer(1, data: "one")
        let (running, runningOutcome) = h.run(key("m"), variables: 2)
        h.mutations.setOnline(false)
        let (sub, _) = h.mutations.subscribe(connection: EngineHarness.client, filter: MutationFilter())
        let (paused, pausedOutcome) = h.run(
            key("m"), variables: 3, ["optimistic": [["key": ["todos"], "data": ["a", "b"]]]])
        #expect(h.cache.state(of: key("todos"))?.data == ["a", "b"])
        #expect(h.mutations.clear() == 2)
        #expect(h.stateText(done) == "absent")
        #expect(h.stateText(paused) == "absent")
        #expect(h.stateText(running) == "2:pending")
        // The paused one's caller is answered -32003 "cleared", its optimistic write rolled back,
        // and its subscriber saw it settle before it left.
        #expect(pausedOutcome.failure?.code == -32003)
        #expect(pausedOutcome.failure?.data?["reason"] == "cleared")
        #expect(h.cache.state(of: key("todos"))?.data == ["a"])
        #expect(h.trace(of: sub) == ["3:pending paused", "3:error error=0"])  // error=0: no mutator error inside
        #expect(h.sentVariables == [1, 2])
        h.answer(2, data: "two")
        #expect(runningOutcome.data == "two")
        #expect(h.mutations.clear() == 1)
        #expect(h.mutations.list(MutationFilter()).isEmpty)
    }

    @Test func clearingPausedMutationsOfAScopeStartsNoneOfThem() {
        let h = MutationHarness()
        h.registerMutator("s")
        h.mutations.setOnline(false)
        h.run(key("s"), variables: 1, ["scope": "x"])
        h.run(key("s"), variables: 2, ["scope": "x"])
        #expect(h.mutations.clear() == 2)
        h.mutations.setOnline(true)
        #expect(h.sends.isEmpty)
    }

    @Test func metaIsEchoedInTheStateAndAbsentWithoutIt() {
        let h = MutationHarness()
        h.registerMutator("m")
        let (tagged, _) = h.run(key("m"), variables: 1, ["meta": ["source": "form", "n": 2]])
        let (plain, _) = h.run(key("m"), variables: 2)
        #expect(tagged.flatMap { h.mutations.state(of: $0) }?.jsonValue["meta"] == ["source": "form", "n": 2])
        #expect(plain.flatMap { h.mutations.state(of: $0) }?.jsonValue["meta"] == nil)
    }
}

extension MutationCacheVisibilityTests {
    @Test(.timeLimit(.minutes(1))) func clearingManyPausedMutationsIsOnePass() throws {
        let h = MutationHarness()
        h.mutations.setOnline(false)
        let count = 20_000
        for index in 0..<count { h.run(key("m"), variables: .number(JSONNumber(index))) }
        #expect(h.mutations.clear() == count)
        #expect(h.mutations.statistics.mutations == 0)
    }
}
