// Optimistic writes: subscribers see them at once, an in-flight fetch of the key is cancelled
// (its late answer cannot overwrite them), a failure restores the exact previous state, a success
// keeps them; overlapping mutations on one key undo only their own writes.

import QuerydCore
import QuerydJSON
import Testing

@Suite struct OptimisticTests {
    @Test func B135_optimisticWriteThenRollbackRestoresTheExactState() {
        let h = MutationHarness()
        h.engine.register("todos", cancellable: true)
        h.registerMutator("todos")
        let (sub, _) = h.engine.subscribe(key("todos"))
        h.advance(5)
        h.engine.answer(key("todos"), ["a"])
        let before = h.cache.state(of: key("todos"))!
        h.advance(100)
        // A background refetch is in flight when the mutation starts.
        h.engine.refetch(sub)
        let refetch = h.engine.sends.last!
        let (id, outcome) = h.run(
            key("todos", "add"), variables: "b", ["optimistic": [["key": ["todos"], "data": ["a", "b"]]]])
        #expect(h.engine.cancels == [refetch.attempt])
        #expect(h.engine.trace(of: sub).suffix(2) == [#"success/idle data=["a"]"#, #"success/idle data=["a","b"]"#])
        #expect(h.cache.state(of: key("todos"))?.dataUpdatedAt == before.dataUpdatedAt + 100)
        #expect(h.sends.map(\.key) == [key("todos", "add")])
        // The cancelled fetch's late answer is ignored.
        h.cache.attemptSucceeded(refetch.attempt, answer: ["data": ["server"]])
        #expect(h.engine.stateText(key("todos")) == #"success/idle data=["a","b"]"#)
        h.advance(50)
        h.reject("b")
        let after = h.cache.state(of: key("todos"))!
        #expect(after.data == before.data)
        #expect(after.dataUpdatedAt == before.dataUpdatedAt)
        #expect(after.dataUpdateCount == before.dataUpdateCount)
        #expect(after.status == before.status)
        #expect(after.error == nil)
        #expect(after.isInvalidated == before.isInvalidated)
        #expect(after.fetchStatus == .idle)
        #expect(h.engine.trace(of: sub).last == #"success/idle data=["a"]"#)
        #expect(outcome.failure == CacheFailure(code: -32007, message: "Mutation failed", data: h.mutatorErrorObject))
        #expect(h.stateText(id) == "\(id!):error failures=1 error=9")
    }

    @Test func rollbackOfAWriteToAnEmptyQueryGoesBackToPending() {
        let h = MutationHarness()
        h.registerMutator("m")
        let (sub, _) = h.engine.subscribe(key("n"), ["enabled": false])
        h.run(key("m"), variables: 1, ["optimistic": [["key": ["n"], "mergePatch": ["x": 1]]]])
        #expect(h.engine.trace(of: sub) == [#"success/idle data={"x":1}"#])
        h.reject(1)
        #expect(h.engine.trace(of: sub) == [#"success/idle data={"x":1}"#, "pending/idle"])
        let state = h.cache.state(of: key("n"))!
        #expect(state.data == nil && state.dataUpdatedAt == 0 && state.dataUpdateCount == 0)
    }

    @Test func successKeepsTheWriteAndWritesTheResult() {
        let h = MutationHarness()
        h.registerMutator("todo")
        h.engine.set(key("todo", 1), ["title": "old", "done": false])
        let (id, outcome) = h.run(
            key("todo", "edit"), variables: ["id": 1],
            [
                "optimistic": [["key": ["todo", 1], "mergePatch": ["done": true]]],
                "setData": [
                    ["key": ["todo", 1], "fromResult": "/todo"], ["key": ["count"], "fromResult": "/count"],
                ],
            ])
        #expect(h.engine.stateText(key("todo", 1)) == #"success/idle data={"done":true,"title":"old"}"#)
        h.advance(10)
        h.answer(["id": 1], data: ["todo": ["title": "old", "done": true, "rev": 2], "count": 7])
        #expect(outcome.data == ["todo": ["title": "old", "done": true, "rev": 2], "count": 7])
        #expect(h.engine.stateText(key("todo", 1)) == #"success/idle data={"done":true,"rev":2,"title":"old"}"#)
        #expect(h.cache.state(of: key("todo", 1))?.dataUpdateCount == 3)
        #expect(h.engine.stateText(key("count")) == "success/idle data=7")
        #expect(h.stateText(id).hasPrefix("\(id!):success data="))
    }

    @Test func overlappingMutationsUndoOnlyTheirOwnWrite() {
        let h = MutationHarness()
        h.registerMutator("list")
        h.engine.set(key("list"), ["a": 1])
        let base = h.cache.state(of: key("list"))!
        h.advance(10)
        h.run(key("list"), variables: "first", ["optimistic": [["key": ["list"], "mergePatch": ["b": 2]]]])
        h.advance(10)
        h.run(key("list"), variables: "second", ["optimistic": [["key": ["list"], "mergePatch": ["c": 3]]]])
        #expect(h.engine.stateText(key("list")) == #"success/idle data={"a":1,"b":2,"c":3}"#)
        h.reject("first")
        // The second write is re-applied on the base, with its own time.
        let state = h.cache.state(of: key("list"))!
        #expect(state.data == ["a": 1, "c": 3])
        #expect(state.dataUpdatedAt == base.dataUpdatedAt + 20)
        #expect(state.dataUpdateCount == base.dataUpdateCount + 1)
        h.reject("second")
        let restored = h.cache.state(of: key("list"))!
        #expect(restored.data == base.data && restored.dataUpdatedAt == base.dataUpdatedAt)
        #expect(restored.dataUpdateCount == base.dataUpdateCount)
    }

    @Test func aNewerWriteBySomeoneElseIsNotRolledBack() {
        let h = MutationHarness()
        h.registerMutator("k")
        h.engine.set(key("k"), 1)
        h.run(key("k"), variables: "v", ["optimistic": [["key": ["k"], "data": 2]]])
        h.engine.set(key("k"), 3)
        h.reject("v")
        #expect(h.engine.stateText(key("k")) == "success/idle data=3")
    }

    @Test func anOptimisticWriteThatDoesNotFitSubmitsNothing() {
        let h = MutationHarness()
        h.registerMutator("p")
        h.engine.register("pages")
        h.engine.subscribe(key("pages"), ["infinite": ["initialPageParam": 0]])
        h.engine.answer(key("pages"), "p0")
        h.engine.set(key("plain"), 1)
        do {
            try h.mutations.run(
                connection: EngineHarness.client, key: key("p"), variables: nil,
                options: MutationOptions(json: [
                    "optimistic": [["key": ["plain"], "data": 2], ["key": ["pages"], "data": "not pages"]]
                ]),
                waiter: WaiterToken(1))
            Issue.record("the write to an infinite query should have been refused")
        } catch {
            #expect((error as? CacheFailure)?.code == -32602)
        }
        #expect(h.engine.stateText(key("plain")) == "success/idle data=1")
        #expect(h.sends.isEmpty)
        #expect(h.mutations.list(MutationFilter()).isEmpty)
    }
}

extension MutationHarness {
    /// The -32007 error's data: the mutator's error object.
    var mutatorErrorObject: JSONValue { Self.mutatorError }
}
