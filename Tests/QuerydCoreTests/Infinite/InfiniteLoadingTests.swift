// Engine tests of loading an infinite query: the first page, fetchNextPage appending,
// fetchPreviousPage prepending, the no-op when there is no such page, the first page loaded by a
// page call on a query without data, and how a fetcher's answer is read.

import QuerydCore
import QuerydJSON
import Testing

@Suite struct InfiniteLoadingTests {
    @Test func B115_theFirstSubscribeMakesOneCallWithTheInitialPageParam() {
        let h = EngineHarness()
        h.register("feed")
        let (sub, first) = h.subscribe(key("feed"), infiniteOptions(1))
        #expect(describe(first) == "pending/fetching")
        #expect(describeFlags(first) == "-")
        #expect(h.pageRequests(for: key("feed")) == ["1 forward"])
        h.answerPage(key("feed"), "p1", next: 2)
        #expect(h.trace(of: sub).count == 1)
        #expect(describePages(h.lastPush(of: sub)) == #"pages ["p1"] params [1]"#)
        #expect(h.lastPush(of: sub)?.status == .success)
        #expect(describeFlags(h.lastPush(of: sub)) == "next")
        #expect(h.sends.count == 1)
    }

    @Test func B115_aNullInitialPageParamIsSentAndStored() {
        let h = EngineHarness()
        h.register("feed")
        let (sub, _) = h.subscribe(key("feed"), infiniteOptions(nil))
        #expect(h.pageRequests(for: key("feed")) == ["null forward"])
        h.answerPage(key("feed"), "first", next: "cursor-b")
        #expect(describePages(h.lastPush(of: sub)) == #"pages ["first"] params [null]"#)
        h.fetchPage(.forward, sub)
        #expect(h.pageRequests(for: key("feed")) == ["null forward", #""cursor-b" forward"#])
    }

    @Test func B116_fetchNextPageAppendsAndShowsIsFetchingNextPageNotRefetching() {
        let h = EngineHarness()
        h.register("feed")
        let (sub, _) = h.subscribe(key("feed"), infiniteOptions(1))
        h.answerPage(key("feed"), "p1", next: 2)
        let caller = h.fetchPage(.forward, sub)
        #expect(caller.results.isEmpty)
        let running = h.lastPush(of: sub)
        #expect(describe(running!) == #"success/fetching data={"pageParams":[1],"pages":["p1"]}"#)
        #expect(describeFlags(running) == "next fetchingNext")
        #expect(running?.isRefetching == false)
        #expect(running?.isFetching == true)
        #expect(h.pageRequests(for: key("feed")) == ["1 forward", "2 forward"])
        h.answerPage(key("feed"), "p2", next: 3)
        #expect(describePages(h.lastPush(of: sub)) == #"pages ["p1","p2"] params [1,2]"#)
        #expect(describeFlags(h.lastPush(of: sub)) == "next")
        #expect(describePages(caller.value) == #"pages ["p1","p2"] params [1,2]"#)
        #expect(caller.value?.fetchStatus == .idle)
        #expect(h.trace(of: sub).count == 3)
    }

    @Test func B116_cursorParamsOfAnyJSONTypeAreSentBackAsGiven() {
        let h = EngineHarness()
        h.register("feed")
        let (sub, _) = h.subscribe(key("feed"), infiniteOptions(["cursor": nil]))
        h.answerPage(key("feed"), ["a", "b"], next: ["cursor": "c2", "n": 2])
        h.fetchPage(.forward, sub)
        h.answerPage(key("feed"), ["c"], next: ["cursor": "c3", "n": 3])
        #expect(
            h.pageRequests(for: key("feed")) == [
                #"{"cursor":null} forward"#, #"{"cursor":"c2","n":2} forward"#,
            ])
        #expect(
            describePages(h.lastPush(of: sub))
                == #"pages [["a","b"],["c"]] params [{"cursor":null},{"cursor":"c2","n":2}]"#)
    }

    /// Loads one page answered with exactly `answer`, then checks that it has no next page and
    /// that fetchNextPage (by subscription and by key) answers at once without a fetch or a change.
    private func expectNoNextPage(after answer: JSONValue, sourceLocation: SourceLocation = #_sourceLocation) {
        let h = EngineHarness()
        h.register("feed")
        let (sub, _) = h.subscribe(key("feed"), infiniteOptions(1))
        h.answerWhole(key("feed"), answer)
        let before = h.lastPush(of: sub)
        #expect(describeFlags(before) == "-", sourceLocation: sourceLocation)
        let versionBefore = h.cache.query(key("feed"))?.version
        let caller = h.fetchPage(.forward, sub)
        // Answered at once with the current state; nothing is sent and nothing changes.
        #expect(caller.value == before, sourceLocation: sourceLocation)
        #expect(h.sends.count == 1, sourceLocation: sourceLocation)
        #expect(h.pushes(of: sub).count == 1, sourceLocation: sourceLocation)
        #expect(h.cache.query(key("feed"))?.version == versionBefore, sourceLocation: sourceLocation)
        let byKey = h.fetchPage(.forward, key: key("feed"))
        #expect(describePages(byKey.value) == #"pages ["only"] params [1]"#, sourceLocation: sourceLocation)
        #expect(h.sends.count == 1, sourceLocation: sourceLocation)
    }

    @Test func B117_anAbsentNextParamMeansNoNextPageAndFetchNextPageIsANoOp() {
        expectNoNextPage(after: ["data": "only"])
    }

    @Test func B117_aNullNextParamMeansNoNextPageAndFetchNextPageIsANoOp() {
        expectNoNextPage(after: ["data": "only", "nextPageParam": nil])
    }

    @Test func aNullPreviousParamMeansNoPreviousPage() {
        let h = EngineHarness()
        h.register("feed")
        let (sub, _) = h.subscribe(key("feed"), infiniteOptions(1))
        h.answerWhole(key("feed"), ["data": "only", "previousPageParam": nil])
        #expect(describeFlags(h.lastPush(of: sub)) == "-")
        let caller = h.fetchPage(.backward, sub)
        #expect(describePages(caller.value) == #"pages ["only"] params [1]"#)
        #expect(h.sends.count == 1)
    }

    @Test func B118_fetchPreviousPagePrependsWithDirectionBackward() {
        let h = EngineHarness()
        h.register("feed")
        let (sub, _) = h.subscribe(key("feed"), infiniteOptions(5))
        h.answerPage(key("feed"), "p5", next: 6, previous: 4)
        #expect(describeFlags(h.lastPush(of: sub)) == "next previous")
        let caller = h.fetchPage(.backward, sub)
        #expect(describeFlags(h.lastPush(of: sub)) == "next previous fetchingPrevious")
        #expect(h.lastPush(of: sub)?.isRefetching == false)
        #expect(h.pageRequests(for: key("feed")) == ["5 forward", "4 backward"])
        h.answerPage(key("feed"), "p4", next: 5)
        #expect(describePages(h.lastPush(of: sub)) == #"pages ["p4","p5"] params [4,5]"#)
        // The first page (p4) gave no previous param: no previous page any more.
        #expect(describeFlags(h.lastPush(of: sub)) == "next")
        #expect(describePages(caller.value) == #"pages ["p4","p5"] params [4,5]"#)
    }

    @Test func B118_withoutPreviousParamsThereIsNoPreviousPageAndTheCallIsANoOp() {
        let h = EngineHarness()
        h.register("feed")
        let (sub, _) = h.subscribe(key("feed"), infiniteOptions(1))
        h.answerPage(key("feed"), "p1", next: 2)
        #expect(h.lastPush(of: sub)?.infinite?.hasPreviousPage == false)
        let caller = h.fetchPage(.backward, sub)
        #expect(describePages(caller.value) == #"pages ["p1"] params [1]"#)
        #expect(h.sends.count == 1)
    }

    @Test func B121_fetchNextPageWithoutDataLoadsTheFirstPage() {
        let h = EngineHarness()
        h.register("feed")
        let (sub, first) = h.subscribe(key("feed"), infiniteOptions(1, ["enabled": false]))
        #expect(describe(first) == "pending/idle")
        #expect(h.sends.isEmpty)
        let caller = h.fetchPage(.forward, sub)
        #expect(h.pageRequests(for: key("feed")) == ["1 forward"])
        h.answerPage(key("feed"), "p1", next: 2)
        #expect(describePages(caller.value) == #"pages ["p1"] params [1]"#)
        #expect(describePages(h.lastPush(of: sub)) == #"pages ["p1"] params [1]"#)
    }

    @Test func B121_fetchPreviousPageWithoutDataAlsoLoadsTheFirstPageForward() {
        let h = EngineHarness()
        h.register("feed")
        let (sub, _) = h.subscribe(key("feed"), infiniteOptions(10, ["enabled": false]))
        h.fetchPage(.backward, sub)
        #expect(h.pageRequests(for: key("feed")) == ["10 forward"])
        h.answerPage(key("feed"), "p10", previous: 9)
        #expect(describePages(h.lastPush(of: sub)) == #"pages ["p10"] params [10]"#)
        #expect(describeFlags(h.lastPush(of: sub)) == "previous")
    }

    @Test func B121_whileTheFirstPageLoadsForFetchNextPageIsFetchingNextPageIsShown() {
        // TanStack sets fetchMeta.fetchMore.direction for any fetchNextPage call, also one that
        // loads the first page, so isFetchingNextPage is true while it runs.
        let h = EngineHarness()
        h.register("feed")
        let (sub, _) = h.subscribe(key("feed"), infiniteOptions(1, ["enabled": false]))
        h.fetchPage(.forward, sub)
        #expect(describeFlags(h.lastPush(of: sub)) == "fetchingNext")
    }

    @Test func anEmptyPageListLoadsTheFirstPageOnFetchNextPage() {
        let h = EngineHarness()
        h.register("feed")
        h.set(key("feed"), pagesData([], []))
        let (sub, first) = h.subscribe(key("feed"), infiniteOptions(1, ["staleTime": "Infinity"]))
        #expect(describePages(first) == "pages [] params []")
        #expect(describeFlags(first) == "-")
        h.fetchPage(.forward, sub)
        #expect(h.pageRequests(for: key("feed")) == ["1 forward"])
        h.answerPage(key("feed"), "p1")
        #expect(describePages(h.lastPush(of: sub)) == #"pages ["p1"] params [1]"#)
    }

    @Test func anAnswerWithoutDataFailsTheAttemptAndExtraMembersAreIgnored() {
        let h = EngineHarness()
        h.register("feed")
        let (sub, _) = h.subscribe(key("feed"), infiniteOptions(1, ["retry": 0]))
        h.answerWhole(key("feed"), ["nextPageParam": 2])
        #expect(h.lastPush(of: sub)?.status == .error)
        #expect(h.lastPush(of: sub)?.data == nil)
        h.refetch(sub)
        h.answerWhole(key("feed"), ["data": "p1", "nextPageParam": 2, "extra": true])
        #expect(describePages(h.lastPush(of: sub)) == #"pages ["p1"] params [1]"#)
        #expect(describeFlags(h.lastPush(of: sub)) == "next")
    }

    @Test func pageFetchesByKeyUseTheQuerysLastOptionsAndAnswerTheQueryState() {
        let h = EngineHarness()
        h.register("feed")
        let loaded = h.fetch(key("feed"), infiniteOptions(1))
        h.answerPage(key("feed"), "p1", next: 2, previous: 0)
        #expect(describePages(loaded.value) == #"pages ["p1"] params [1]"#)
        #expect(describeFlags(loaded.value) == "next previous")
        let next = h.fetchPage(.forward, key: key("feed"))
        h.answerPage(key("feed"), "p2")
        let previous = h.fetchPage(.backward, key: key("feed"))
        h.answerPage(key("feed"), "p0")
        #expect(h.pageRequests(for: key("feed")) == ["1 forward", "2 forward", "0 backward"])
        #expect(describePages(next.value) == #"pages ["p1","p2"] params [1,2]"#)
        #expect(describePages(previous.value) == #"pages ["p0","p1","p2"] params [0,1,2]"#)
        #expect(describeFlags(previous.value) == "-")
        let absent = h.fetchPage(.forward, key: key("nothing"))
        #expect(absent.results.isEmpty)
    }
}
