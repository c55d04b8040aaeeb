// `cache.dehydrate` / `cache.hydrate` on the manual clock: what a snapshot keeps (B138), how a
// hydration merges queries (B139, B140) and notifies subscribers, how a hydrated paused mutation
// waits for a mutator and the network (B141), and refusals that write nothing.

import QuerydCore
import QuerydJSON
import Testing

@Suite struct HydrationTests {
    private func snapshot(_ h: MutationHarness, _ filter: JSONValue? = nil, includePending: Bool = false) -> JSONValue {
        CacheSnapshot.dehydrate(h.mutations, filter: QuerydCoreTests.filter(filter), includePending: includePending)
    }

    private func keys(_ snapshot: JSONValue, _ member: String) -> [JSONValue] {
        snapshot[member]?.arrayValue?.compactMap { $0["key"] } ?? []
    }

    @Test func B138_dehydrateKeepsSuccessfulQueriesAndPausedMutations() {
        let h = MutationHarness()
        h.engine.register("e")
        h.engine.set(key("ok"), ["a"])
        h.engine.fetch(key("e", "failed"))
        h.engine.fail(key("e", "failed"))
        h.engine.fetch(key("e", "pending"))
        h.registerMutator("m")
        h.run(key("m", "running"), variables: 1)
        h.mutations.setOnline(false)
        h.run(key("m", "paused"), variables: 2, ["scope": "s", "meta": ["n": 1], "invalidate": [["key": ["ok"]]]])
        let plain = snapshot(h)
        #expect(plain["version"] == 1)
        #expect(keys(plain, "queries") == [["ok"]])
        #expect(keys(plain, "mutations") == [["m", "paused"]])
        #expect(
            plain["queries"]?[0] == [
                "key": ["ok"], "dehydratedAt": .number(JSONNumber(h.engine.start)),
                "state": [
                    "data": ["a"], "dataUpdateCount": 1, "dataUpdatedAt": .number(JSONNumber(h.engine.start)),
                    "error": nil, "errorUpdateCount": 0, "errorUpdatedAt": 0, "failureCount": 0, "failureReason": nil,
                    "fetchStatus": "idle", "isInvalidated": false, "status": "success",
                ],
            ])
        #expect(
            plain["mutations"]?[0] == [
                "key": ["m", "paused"],
                "state": [
                    "status": "pending", "isPaused": true, "variables": 2,
                    "submittedAt": .number(JSONNumber(h.engine.start)), "failureCount": 0, "failureReason": nil,
                ],
                "options": ["scope": "s", "meta": ["n": 1], "invalidate": [["key": ["ok"]]]],
            ])
        #expect(keys(snapshot(h, includePending: true), "queries") == [["e", "pending"], ["ok"]])
        #expect(keys(snapshot(h, ["key": ["e"]], includePending: true), "queries") == [["e", "pending"]])
    }

    @Test func B139_hydrateIntoAnEmptyCacheRestoresStateIdle() throws {
        let source = MutationHarness()
        source.engine.register("t")
        source.engine.set(key("t"), ["x"])
        source.engine.advance(1000)
        source.engine.set(key("t"), ["x", "y"])
        source.engine.fetch(key("t"), ["staleTime": 0])  // fetching when dehydrated
        let taken = snapshot(source)
        #expect(taken["queries"]?[0]?["state"]?["fetchStatus"] == "fetching")

        let target = MutationHarness()
        target.engine.advance(5000)
        let merged = try CacheSnapshot.hydrate(taken, into: target.mutations)
        #expect(merged == .init(queries: 1, mutations: 0))
        let state = try #require(target.cache.state(of: key("t")))
        #expect(describe(state) == #"success/idle data=["x","y"]"#)
        #expect(state.dataUpdatedAt == source.engine.start + 1000)
        #expect(state.dataUpdateCount == 2)
        #expect(state.isFetched)
        // The default gcTime counts from the hydration.
        target.engine.advance(300_000 - 1)
        #expect(target.cache.state(of: key("t")) != nil)
        target.engine.advance(1)
        #expect(target.cache.state(of: key("t")) == nil)
    }

    @Test func B140_onlyNewerDataOverwritesAndSubscribersSeeIt() throws {
        let h = MutationHarness()
        h.engine.register("n")
        h.engine.set(key("n", "older"), ["cached"])
        h.engine.set(key("n", "newer"), ["cached"])
        let (sub, _) = h.engine.subscribe(key("n", "older"), ["staleTime": 60_000])
        let fetching = h.engine.fetch(key("n", "newer"), ["staleTime": 0])
        let at = h.engine.start
        func entry(_ name: JSONValue, _ data: JSONValue, _ time: Int64) -> JSONValue {
            [
                "key": ["n", name],
                "state": ["data": data, "dataUpdatedAt": .number(JSONNumber(time)), "dataUpdateCount": 5],
            ]
        }
        let merged = try CacheSnapshot.hydrate(
            [
                "version": 1,
                "queries": [
                    entry("older", ["snap"], at + 1), entry("newer", ["old snap"], at), entry("fresh", ["new"], at),
                ],
            ], into: h.mutations)
        #expect(merged == .init(queries: 2, mutations: 0))
        #expect(h.engine.trace(of: sub) == [#"success/idle data=["snap"]"#])
        #expect(h.cache.state(of: key("n", "older"))?.dataUpdateCount == 5)
        // Not newer: left alone, and its fetch goes on.
        #expect(describe(h.cache.state(of: key("n", "newer"))!) == #"success/fetching data=["cached"]"#)
        h.engine.answer(key("n", "newer"), ["server"])
        #expect(fetching.value.map { describe($0) } == #"success/idle data=["server"]"#)
        #expect(describe(h.cache.state(of: key("n", "fresh"))!) == #"success/idle data=["new"]"#)
    }

    @Test func B141_aHydratedMutationWaitsForAMutatorAndTheNetwork() throws {
        let source = MutationHarness()
        source.mutations.setOnline(false)
        source.run(
            key("todo", "add"), variables: "milk", ["meta": "m", "setData": [["key": ["last"], "fromResult": ""]]])
        let taken = snapshot(source)

        let h = MutationHarness()
        let (sub, _) = h.mutations.subscribe(connection: EngineHarness.client, filter: MutationFilter())
        #expect(try CacheSnapshot.hydrate(taken, into: h.mutations) == .init(queries: 0, mutations: 1))
        #expect(h.trace(of: sub) == ["1:pending paused"])
        h.advance(60_000)
        #expect(h.sends.isEmpty)  // no mutator: it waits rather than failing
        h.mutations.setOnline(false)
        h.registerMutator("todo")
        #expect(h.sends.isEmpty)  // offline
        h.mutations.setOnline(true)
        #expect(h.sentVariables == ["milk"])
        h.answer("milk", data: "done")
        #expect(h.trace(of: sub) == ["1:pending paused", "1:pending", #"1:success data="done""#])
        #expect(h.mutations.state(of: MutationID(1))?.meta == "m")
        #expect(h.cache.state(of: key("last"))?.data == "done")
    }

    @Test func aBadSnapshotIsRefusedWhole() {
        let h = MutationHarness()
        let good: JSONValue = ["key": ["a"], "state": ["data": 1, "dataUpdatedAt": 5]]
        for (bad, field) in [
            (["version": 2, "queries": [good]], "snapshot.version"),
            (["queries": [good]], "snapshot.version"),
            (
                ["version": 1, "queries": [good, ["key": ["b"], "state": ["status": "success"]]]],
                "snapshot.queries[1].state.data"
            ),
            (
                ["version": 1, "queries": [good, ["key": ["b"], "state": ["status": "done"]]]],
                "snapshot.queries[1].state.status"
            ),
            (["version": 1, "queries": [good], "extra": 1], "snapshot.extra"),
            (
                [
                    "version": 1, "queries": [good],
                    "mutations": [["key": ["m"], "state": [:], "options": ["retry": "x"]]],
                ],
                "snapshot.mutations[0].options.retry"
            ),
            (
                ["version": 1, "mutations": [["key": ["m"], "state": [:], "options": ["optimistic": []]]]],
                "snapshot.mutations[0].options.optimistic"
            ),
        ] as [(JSONValue, String)] {
            #expect(throws: OptionsError.self) { try CacheSnapshot.hydrate(bad, into: h.mutations) }
            do {
                _ = try CacheSnapshot.hydrate(bad, into: h.mutations)
            } catch {
                #expect(error.field == field, "\(bad)")
            }
        }
        #expect(h.cache.state(of: key("a")) == nil)
        #expect(h.mutations.list(MutationFilter()).isEmpty)
    }
}

extension HydrationTests {
    @Test(.timeLimit(.minutes(1))) func manyHydratedMutationsCostOnePassEach() throws {
        let h = MutationHarness()
        let entry: JSONValue = ["key": ["bulk"], "state": ["variables": 1]]
        let count = 20_000
        let snapshot: JSONValue = ["version": 1, "mutations": .array(Array(repeating: entry, count: count))]
        #expect(try CacheSnapshot.hydrate(snapshot, into: h.mutations).mutations == count)
        #expect(h.mutations.statistics.pending == count)
        h.registerMutator("bulk")
        #expect(h.sends.count == count)
    }
}
