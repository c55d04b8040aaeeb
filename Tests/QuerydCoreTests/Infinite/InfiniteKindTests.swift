// Engine tests of what keeps an infinite query one: a key is infinite or ordinary for its whole
// life (a mismatch is -32602 and leaves the cache untouched), the data shape it accepts from
// initialData and query.set, and select on its data.

import QuerydCore
import QuerydJSON
import Testing

@Suite struct InfiniteKindTests {
    /// What must not change when a call is refused: the query's view and every effect so far.
    private func snapshot(_ h: EngineHarness, _ k: QueryKey) -> (QueryResult?, Int, QueryCache.Statistics) {
        (h.cache.state(of: k), h.effects.count, h.cache.statistics)
    }

    private func expectUntouched(
        _ h: EngineHarness, _ k: QueryKey, _ before: (QueryResult?, Int, QueryCache.Statistics),
        sourceLocation: SourceLocation = #_sourceLocation
    ) {
        #expect(h.cache.state(of: k) == before.0, sourceLocation: sourceLocation)
        #expect(h.effects.count == before.1, sourceLocation: sourceLocation)
        #expect(h.cache.statistics == before.2, sourceLocation: sourceLocation)
    }

    private func expectKindMismatch(
        _ failure: CacheFailure?, sourceLocation: SourceLocation = #_sourceLocation
    ) {
        #expect(failure?.code == -32602, sourceLocation: sourceLocation)
        #expect(failure?.data?["field"] == "options.infinite", sourceLocation: sourceLocation)
    }

    @Test func anOrdinaryQueryRefusesInfiniteUse() {
        let h = EngineHarness()
        h.register("k")
        h.subscribe(key("k"))
        h.answer(key("k"), "plain")
        let before = snapshot(h, key("k"))
        if case .failure(let failure) = h.trySubscribe(key("k"), infiniteOptions(1)) {
            expectKindMismatch(failure)
        } else {
            Issue.record("an infinite subscribe to an ordinary query was accepted")
        }
        expectKindMismatch(h.fetch(key("k"), infiniteOptions(1)).failure)
        #expect(throws: CacheFailure.self) { try h.cache.prefetch(key: key("k"), options: options(infiniteOptions(1))) }
        expectKindMismatch(h.fetchPage(.forward, key: key("k")).failure)
        expectKindMismatch(h.fetchPage(.backward, key: key("k")).failure)
        expectUntouched(h, key("k"), before)
        #expect(h.cache.state(of: key("k"))?.infinite == nil)
    }

    @Test func anInfiniteQueryRefusesOrdinaryUse() {
        let h = EngineHarness()
        h.register("k")
        let (sub, _) = h.subscribe(key("k"), infiniteOptions(1))
        h.answerPage(key("k"), "p1", next: 2)
        let before = snapshot(h, key("k"))
        if case .failure(let failure) = h.trySubscribe(key("k"), nil) {
            expectKindMismatch(failure)
        } else {
            Issue.record("an ordinary subscribe to an infinite query was accepted")
        }
        expectKindMismatch(h.fetch(key("k")).failure)
        expectKindMismatch(h.fetch(key("k"), mode: .ensure).failure)
        #expect(throws: CacheFailure.self) { try h.cache.prefetch(key: key("k"), options: QueryOptions()) }
        #expect(throws: CacheFailure.self) {
            try h.cache.setOptions(sub, connection: EngineHarness.client, key: nil, options: QueryOptions())
        }
        expectUntouched(h, key("k"), before)
        // The subscription kept its options: the next page still works.
        h.fetchPage(.forward, sub)
        #expect(h.pageRequests(for: key("k")).last == "2 forward")
    }

    @Test func switchingASubscriptionOntoAKeyOfTheOtherKindIsRefusedAndChangesNothing() {
        let h = EngineHarness()
        h.register("k")
        h.set(key("k", "plain"), "x")
        h.subscribe(key("k", "plain"))
        let (sub, _) = h.subscribe(key("k", "paged"), infiniteOptions(1))
        h.answerPage(key("k", "paged"), "p1")
        let before = snapshot(h, key("k", "plain"))
        #expect(throws: CacheFailure.self) {
            try h.cache.setOptions(sub, connection: EngineHarness.client, key: key("k", "plain"), options: nil)
        }
        expectUntouched(h, key("k", "plain"), before)
        #expect(describePages(h.lastPush(of: sub)) == #"pages ["p1"] params [1]"#)
    }

    @Test func dataWrittenBeforeTheFirstInfiniteUseMustHaveThePagesShape() {
        let h = EngineHarness()
        h.register("k")
        h.set(key("k", "bad"), ["pages": ["a"], "pageParams": [1, 2]])
        let before = snapshot(h, key("k", "bad"))
        if case .success = h.trySubscribe(key("k", "bad"), infiniteOptions(1)) {
            Issue.record("misaligned pages were accepted as an infinite query's data")
        }
        expectUntouched(h, key("k", "bad"), before)
        h.set(key("k", "good"), pagesData(["a", "b"], [1, 2]))
        let (sub, view) = h.subscribe(key("k", "good"), infiniteOptions(1, ["staleTime": "Infinity"]))
        #expect(describePages(view) == #"pages ["a","b"] params [1,2]"#)
        // Pages written by hand carry no links: no next or previous page until a refetch.
        #expect(describeFlags(view) == "-")
        h.refetch(sub)
        h.answerPage(key("k", "good"), "A", next: 2)
        h.answerPage(key("k", "good"), "B", next: 3)
        #expect(h.pageRequests(for: key("k", "good")) == ["1 forward", "2 forward"])
        #expect(describeFlags(h.lastPush(of: sub)) == "next")
    }

    @Test func initialDataOfANewInfiniteQueryMustHaveThePagesShape() {
        let h = EngineHarness()
        h.register("k")
        if case .success = h.trySubscribe(key("k"), infiniteOptions(1, ["initialData": "flat"])) {
            Issue.record("flat initialData was accepted for an infinite query")
        }
        #expect(h.cache.query(key("k")) == nil)
        #expect(h.effects.isEmpty)
        let (_, view) = h.subscribe(
            key("k"), infiniteOptions(1, ["initialData": pagesData(["seed"], [1]), "staleTime": 1000]))
        #expect(describePages(view) == #"pages ["seed"] params [1]"#)
        #expect(h.sends.isEmpty)
    }

    @Test func initialDataMustHaveThePagesShapeAlsoWhenTheInfiniteQueryExistsWithoutData() {
        let h = EngineHarness()
        // No fetcher: the first subscription's load waits, so the query exists without data.
        let (first, _) = h.subscribe(key("k"), infiniteOptions(1))
        let before = snapshot(h, key("k"))
        if case .success = h.trySubscribe(key("k"), infiniteOptions(1, ["initialData": "flat"])) {
            Issue.record("flat initialData was accepted for an existing infinite query")
        }
        expectUntouched(h, key("k"), before)
        #expect(h.lastPush(of: first)?.data == nil)
    }

    @Test func querySetWithThePagesShapeKeepsTheLinksWhileThePageCountIsUnchanged() {
        let h = EngineHarness()
        h.register("k")
        let (sub, _) = h.subscribe(key("k"), infiniteOptions(1))
        h.answerPage(key("k"), ["a"], next: 2, previous: 0)
        h.fetchPage(.forward, sub)
        h.answerPage(key("k"), ["b"], next: 3)
        let edited = h.set(key("k"), pagesData([["a", "edited"], ["b"]], [1, 2]))
        #expect(describePages(edited) == #"pages [["a","edited"],["b"]] params [1,2]"#)
        #expect(describeFlags(edited) == "next previous")
        h.fetchPage(.forward, sub)
        #expect(h.pageRequests(for: key("k")).last == "3 forward")
        h.answerPage(key("k"), ["c"])
        // A write that changes the page count drops the links (nothing known about the new pages).
        let shorter = h.set(key("k"), pagesData([["a"]], [1]))
        #expect(describeFlags(shorter) == "-")
        let caller = h.fetchPage(.forward, sub)
        #expect(describePages(caller.value) == #"pages [["a"]] params [1]"#)
        #expect(h.sends.count == 3)
    }

    @Test func querySetWithoutThePagesShapeIsRefusedAndChangesNothing() {
        let h = EngineHarness()
        h.register("k")
        let (sub, _) = h.subscribe(key("k"), infiniteOptions(1))
        h.answerPage(key("k"), "p1", next: 2)
        let before = snapshot(h, key("k"))
        let writes: [QueryWrite] = [
            .data("flat"), .data(["pages": ["a"]]), .data(pagesData(["a"], [1, 2])),
            .mergePatch(["pageParams": [1, 2]]), .mergePatch(["pages": nil]),
        ]
        for write in writes {
            do {
                _ = try h.cache.set(key: key("k"), write, updatedAt: nil)
                Issue.record("query.set \(write) was accepted on an infinite query")
            } catch {
                expectKindMismatch(error)
            }
        }
        expectUntouched(h, key("k"), before)
        let patched = try? h.cache.set(key: key("k"), .mergePatch(["pages": ["P1"]]), updatedAt: nil)
        #expect(describePages(patched) == #"pages ["P1"] params [1]"#)
        #expect(describeFlags(patched) == "next")
        #expect(describePages(h.lastPush(of: sub)) == #"pages ["P1"] params [1]"#)
    }

    @Test func selectProjectsTheRawPagesWhileTheFlagsComeFromTheStoredLinks() {
        let h = EngineHarness()
        h.register("k")
        let (sub, _) = h.subscribe(key("k"), infiniteOptions(1, ["select": "/pages/0/items"]))
        h.answerPage(key("k"), ["items": [1, 2, 3]], next: 2)
        let view = h.lastPush(of: sub)
        #expect(view?.data == [1, 2, 3])
        #expect(describeFlags(view) == "next")
        #expect(describePages(h.cache.state(of: key("k"))) == #"pages [{"items":[1,2,3]}] params [1]"#)
        let (whole, _) = h.subscribe(key("k"), infiniteOptions(1, ["select": "/pageParams"]))
        h.answerPage(key("k"), ["items": [4]], next: 2)
        #expect(h.lastPush(of: whole)?.data == [1])
        #expect(h.lastPush(of: sub)?.data == [4])
    }

    @Test func theVersionGrowsWithEveryPageFetchStartAndEnd() {
        let h = EngineHarness()
        h.register("k")
        let (sub, _) = h.subscribe(key("k"), infiniteOptions(1))
        h.answerPage(key("k"), "p1", next: 2, previous: 0)
        var versions = [h.lastPush(of: sub)!.version]
        h.fetchPage(.forward, sub)
        versions.append(h.lastPush(of: sub)!.version)
        h.answerPage(key("k"), "p2", next: 3)
        versions.append(h.lastPush(of: sub)!.version)
        h.fetchPage(.backward, sub)
        versions.append(h.lastPush(of: sub)!.version)
        #expect(versions.count == 4)
        #expect(zip(versions, versions.dropFirst()).allSatisfy { $0 < $1 })
        #expect(h.cache.query(key("k"))?.version == versions.last)
        #expect(h.cache.query(key("k"))?.state.data?["pages"] == ["p1", "p2"])
    }

    @Test func anUnusedInfiniteQueryIsCollectedAndTheKeyStartsAfresh() {
        let h = EngineHarness()
        h.register("k")
        let (sub, _) = h.subscribe(key("k"), infiniteOptions(1, ["gcTime": 1000]))
        h.loadNumberedPages(key("k"), subscription: sub, from: 1, count: 2)
        h.unsubscribe(sub)
        h.advance(999)
        #expect(h.cache.query(key("k")) != nil)
        h.advance(1)
        #expect(h.cache.query(key("k")) == nil)
        // A new infinite subscription loads only the first page again, from initialPageParam.
        let (again, _) = h.subscribe(key("k"), infiniteOptions(1))
        #expect(h.pageRequests(for: key("k")) == ["1 forward", "2 forward", "1 forward"])
        h.answerPage(key("k"), "fresh")
        #expect(describePages(h.lastPush(of: again)) == #"pages ["fresh"] params [1]"#)
        h.unsubscribe(again)
        h.advance(300_000)
        // Once collected the key may be used as an ordinary query.
        if case .failure(let failure) = h.trySubscribe(key("k"), nil) {
            Issue.record("an ordinary subscribe after gc was refused: \(failure)")
        }
    }

    @Test func removeKeepsTheKindAndResetReloadsTheFirstPage() {
        let h = EngineHarness()
        h.register("k")
        let (sub, _) = h.subscribe(key("k"), infiniteOptions(1))
        h.loadNumberedPages(key("k"), subscription: sub, from: 1, count: 2)
        #expect(h.cache.removeQueries(filter(["key": ["k"]])) == 1)
        #expect(h.lastPush(of: sub)?.data == nil)
        if case .success = h.trySubscribe(key("k"), nil) {
            Issue.record("an ordinary subscribe to a removed-but-subscribed infinite query was accepted")
        }
        h.set(key("k"), pagesData(["a", "b"], [7, 8]))
        #expect(h.cache.resetQueries(filter(["key": ["k"]])) == 1)
        #expect(h.pageRequests(for: key("k")).last == "1 forward")
        h.answerPage(key("k"), "p1")
        #expect(describePages(h.lastPush(of: sub)) == #"pages ["p1"] params [1]"#)
    }
}
