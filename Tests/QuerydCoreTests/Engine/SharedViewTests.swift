// Engine tests of shared views: subscriptions that see a query the same way share one pushed view,
// and what each is pushed (values, versions, order) is what its own view would be. A subscription
// with `select: ""` (the whole data) takes the per-subscription path and sees the same thing, so
// it is the reference the shared path is checked against.

import QuerydCore
import QuerydJSON
import Testing

@Suite struct SharedViewTests {
    /// Asserts that two subscriptions were pushed the same views, with the same versions and bytes.
    static func expectSamePushes(_ h: EngineHarness, _ a: SubscriptionID, _ b: SubscriptionID) {
        let left = h.pushes(of: a)
        let right = h.pushes(of: b)
        #expect(left.count == right.count)
        for (x, y) in zip(left, right) {
            #expect(x == y)
            #expect(x.version == y.version)
            #expect(x.jsonValue == y.jsonValue)
        }
    }

    @Test func sharedAndOwnViewsPushTheSameSequence() {
        let h = EngineHarness()
        h.register("s")
        let (shared, _) = h.subscribe(key("s"), ["staleTime": 100, "retry": 0])
        let (own, _) = h.subscribe(key("s"), ["staleTime": 100, "retry": 0, "select": ""])
        h.answer(key("s"), ["a": 1])
        h.advance(100)
        h.set(key("s"), ["a": 2])
        h.advance(100)
        _ = h.refetch(shared)
        h.fail(key("s"))
        _ = h.refetch(own)
        h.answer(key("s"), ["a": 3])
        h.advance(100)
        let trace = h.trace(of: shared, stale: true)
        #expect(trace.contains("success/idle data={\"a\":1} stale"))
        #expect(trace.contains("success/idle data={\"a\":2} stale"))
        #expect(trace.contains("error/idle data={\"a\":2} error=-32001 failures=1 invalidated stale"))
        #expect(trace.last == "success/idle data={\"a\":3} stale")
        SharedViewTests.expectSamePushes(h, shared, own)
        let versions = h.pushes(of: shared).map(\.version)
        #expect(versions == versions.sorted() && Set(versions).count == versions.count)
    }

    @Test func subscriptionsWithDifferentStaleTimesSeeTheirOwnIsStale() {
        let h = EngineHarness()
        h.set(key("k"), 1)
        let (a, _) = h.subscribe(key("k"), ["staleTime": 100, "refetchOnSubscribe": "never"])
        let (b, _) = h.subscribe(key("k"), ["staleTime": 100, "refetchOnSubscribe": "never"])
        let (c, _) = h.subscribe(key("k"), ["refetchOnSubscribe": "never"])
        let (d, _) = h.subscribe(key("k"), ["staleTime": 100, "select": ""])
        h.set(key("k"), 2)
        #expect(h.trace(of: a, stale: true) == ["success/idle data=2 fresh"])
        #expect(h.trace(of: c, stale: true) == ["success/idle data=2 stale"])
        let version = h.pushes(of: a)[0].version
        #expect(h.pushes(of: c)[0].version == version)
        // Both stale timers fire at 100 ms: the first flip takes a new version, the second shows it too.
        h.advance(100)
        #expect(h.trace(of: a, stale: true) == ["success/idle data=2 fresh", "success/idle data=2 stale"])
        #expect(h.pushes(of: a).map(\.version) == [version, version + 1])
        #expect(h.pushes(of: b).map(\.version) == [version, version + 1])
        #expect(h.pushes(of: c).count == 1)
        SharedViewTests.expectSamePushes(h, a, b)
        SharedViewTests.expectSamePushes(h, a, d)
        // Pushes keep subscription order within one change.
        #expect(h.allPushes.prefix(4).map(\.0) == [a, b, c, d])
    }

    @Test func selectAndPlaceholderSubscriptionsKeepTheirOwnViews() {
        let h = EngineHarness()
        h.register("p")
        let (plain, _) = h.subscribe(key("p"))
        let (selected, _) = h.subscribe(key("p"), ["select": "/x"])
        let (placeholder, first) = h.subscribe(key("p"), ["placeholderData": 0])
        #expect(describe(first) == "success/fetching data=0 placeholder")
        h.answer(key("p"), ["x": 1, "y": 2])
        #expect(h.pushes(of: plain).last?.data == ["x": 1, "y": 2])
        #expect(h.pushes(of: selected).last?.data == 1)
        #expect(h.pushes(of: placeholder).last?.data == ["x": 1, "y": 2])
        #expect(h.pushes(of: placeholder).last?.isPlaceholderData == false)
        h.set(key("p"), ["y": 3])
        #expect(h.pushes(of: plain).last?.status == .success)
        #expect(h.pushes(of: selected).last?.status == .error)
        #expect(h.pushes(of: selected).last?.data == 1)
        SharedViewTests.expectSamePushes(h, plain, placeholder)
    }

    @Test func notifyOnChangePropsStillFiltersASharedView() {
        let h = EngineHarness()
        h.set(key("n"), 1)
        let (dataOnly, _) = h.subscribe(key("n"), ["notifyOnChangeProps": ["data"], "staleTime": "Infinity"])
        let (all, _) = h.subscribe(key("n"), ["staleTime": "Infinity"])
        h.set(key("n"), 1, updatedAt: h.clock.now + 5)
        #expect(h.pushes(of: dataOnly).isEmpty)
        #expect(h.pushes(of: all).count == 1)
        h.set(key("n"), 2)
        #expect(h.pushes(of: dataOnly).map(\.data) == [2])
        #expect(h.pushes(of: all).map(\.data) == [1, 2])
    }

    /// Subscriptions that see the shared view, one after another with alike and different options
    /// and last views, are each pushed what their own view gives: a publish repeats the outcome of
    /// the subscription before only when it was last sent the same view with the same staleTime and
    /// `enabled`. Each is checked against a subscription with the same options and `select: ""`.
    @Test func eachOfManySharedSubscriptionsGetsItsOwnOutcome() {
        let h = EngineHarness()
        h.set(key("m"), 1)
        let variants: [(plain: JSONValue, own: JSONValue)] = [
            (
                ["staleTime": 100, "refetchOnSubscribe": "never"],
                ["staleTime": 100, "refetchOnSubscribe": "never", "select": ""]
            ),
            (["refetchOnSubscribe": "never"], ["refetchOnSubscribe": "never", "select": ""]),
            (["staleTime": 100, "enabled": false], ["staleTime": 100, "enabled": false, "select": ""]),
            (
                ["staleTime": 100, "refetchOnSubscribe": "never"],
                ["staleTime": 100, "refetchOnSubscribe": "never", "select": ""]
            ),
        ]
        var pairs: [(plain: SubscriptionID, own: SubscriptionID)] = []
        for round in 0..<2 {
            for variant in variants {
                let (plain, _) = h.subscribe(key("m"), variant.plain)
                let (own, _) = h.subscribe(key("m"), variant.own)
                pairs.append((plain, own))
            }
            // The second round's subscriptions were last sent another view than the first round's.
            if round == 0 { h.set(key("m"), 2) }
        }
        h.advance(50)
        h.set(key("m"), 3)
        h.advance(100)
        h.set(key("m"), 3, updatedAt: h.clock.now)
        h.set(key("m"), 4)
        for (plain, own) in pairs { SharedViewTests.expectSamePushes(h, plain, own) }
        #expect(
            h.trace(of: pairs[0].plain, stale: true).suffix(3) == [
                "success/idle data=3 stale", "success/idle data=3 fresh", "success/idle data=4 fresh",
            ])
        #expect(h.trace(of: pairs[1].plain, stale: true).last == "success/idle data=4 stale")
    }
}
