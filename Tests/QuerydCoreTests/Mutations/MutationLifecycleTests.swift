// The mutation lifecycle: pending then success/error, retries with their delays and
// failureCount, no mutator, a mutator disconnecting mid-attempt, attempt timeouts, and the
// `mutation.changed` pushes a mutation subscription gets.

import QuerydCore
import QuerydJSON
import Testing

@Suite struct MutationLifecycleTests {
    @Test func B126_pendingThenSuccessWithTheMutatorsData() {
        let h = MutationHarness()
        h.registerMutator("todos")
        let (sub, _) = h.mutations.subscribe(connection: EngineHarness.client, filter: MutationFilter())
        let (id, outcome) = h.run(key("todos", "add"), variables: ["title": "x"])
        #expect(h.sends.count == 1)
        #expect(h.sends[0].key == key("todos", "add") && h.sends[0].attemptNumber == 1)
        #expect(h.sends[0].variables == ["title": "x"])
        let pending = h.mutations.state(of: id!)!
        #expect(pending.status == .pending && pending.submittedAt == h.engine.start && pending.version == 1)
        h.answer(["title": "x"], data: ["id": 7])
        #expect(outcome.data == ["id": 7])
        #expect(h.trace(of: sub) == ["1:pending", #"1:success data={"id":7}"#])
        #expect(h.mutations.state(of: id!)?.version == 2)
    }

    @Test func B127_retryOneFailsTwiceWithFailureCountTwo() {
        let h = MutationHarness()
        h.registerMutator("m")
        let (sub, _) = h.mutations.subscribe(connection: EngineHarness.client, filter: MutationFilter())
        let (_, outcome) = h.run(key("m"), variables: 1, ["retry": 1, "retryDelay": 500])
        h.reject(1)
        #expect(h.trace(of: sub) == ["1:pending", "1:pending failures=1"])
        h.advance(499)
        #expect(h.sends.count == 1)
        h.advance(1)
        #expect(h.sends.map(\.attemptNumber) == [1, 2])
        h.reject(1)
        #expect(h.trace(of: sub).last == "1:error failures=2 error=9")
        #expect(outcome.failure?.code == -32007)
        #expect(outcome.failure?.data == MutationHarness.mutatorError)
    }

    @Test func B133_noMutatorFailsTheAttempt() {
        let h = MutationHarness()
        let (_, outcome) = h.run(key("orphan"), variables: 1)
        #expect(h.sends.isEmpty)
        #expect(outcome.failure?.data == ["code": -32002, "message": "No mutator", "data": ["key": ["orphan"]]])
    }

    @Test func aMutatorThatDisconnectsFailsTheAttemptAndTheRetryGoesElsewhere() {
        let h = MutationHarness()
        h.registerMutator("m", connection: ConnectionID(300))
        let (_, outcome) = h.run(key("m"), variables: "v", ["retry": 1, "retryDelay": 0])
        #expect(h.sends.map(\.connection) == [ConnectionID(300)])
        h.registerMutator("m", connection: ConnectionID(301))
        h.mutations.connectionClosed(ConnectionID(300))
        #expect(h.mutations.state(of: MutationID(1))?.failureReason?["data"]?["message"] == "Mutator disconnected")
        h.advance(0)
        #expect(h.sends.map(\.connection) == [ConnectionID(300), ConnectionID(301)])
        h.answer("v", data: "done")
        #expect(outcome.data == "done")
    }

    @Test func anAttemptTimeoutCancelsTheRequestAndCountsAsAFailure() {
        let h = MutationHarness()
        h.registerMutator("t")
        let (_, outcome) = h.run(key("t"), variables: 1, ["timeout": 1000])
        h.advance(1000)
        #expect(h.cancels == [h.sends[0].attempt])
        #expect(outcome.failure?.data == ["code": -32004, "message": "Timeout"])
        // The late answer is ignored.
        h.answer(1, data: "late")
        #expect(outcome.results.count == 1)
    }

    @Test func aStatusFilterPushesTheChangeThatLeavesIt() {
        let h = MutationHarness()
        h.registerMutator("m")
        let (sub, initial) = h.mutations.subscribe(
            connection: EngineHarness.client, filter: try! MutationFilter(json: ["status": "pending"]))
        #expect(initial.isEmpty)
        h.run(key("m"), variables: 1)
        h.run(key("m"), variables: 2)
        h.answer(1, data: nil)
        #expect(h.trace(of: sub) == ["1:pending", "2:pending", "1:success data=null"])
        #expect(h.mutations.list(try! MutationFilter(json: ["status": "pending"])).map(\.id) == [MutationID(2)])
        #expect(h.mutations.statistics.pending == 1)
    }

    @Test func settledMutationsAreKeptForTheirGcTime() {
        let h = MutationHarness()
        h.registerMutator("m")
        let (id, _) = h.run(key("m"), variables: 1, ["gcTime": 1000])
        h.answer(1, data: 1)
        h.advance(999)
        #expect(h.mutations.state(of: id!) != nil)
        h.advance(1)
        #expect(h.mutations.state(of: id!) == nil)
    }
}
