// Engine tests of page fetches meeting other fetches of the same query (TanStack's cancelRefetch
// rules), and of failing page fetches with and without retries.

import QuerydCore
import QuerydJSON
import Testing

@Suite struct InfiniteConcurrencyTests {
    /// A subscription on `["feed"]` holding page p1 (param 1, next 2).
    private func onePage(_ extra: [String: JSONValue] = [:]) -> (EngineHarness, SubscriptionID) {
        let h = EngineHarness()
        h.register("feed", cancellable: true)
        let (sub, _) = h.subscribe(key("feed"), infiniteOptions(1, extra))
        h.answerPage(key("feed"), "p1", next: 2)
        return (h, sub)
    }

    @Test func B122_fetchNextPageCancelsARunningRefetchAndAppendsOneCopy() {
        let (h, sub) = onePage()
        let refetcher = h.refetch(sub)
        let refetch = h.sends.last!
        let pager = h.fetchPage(.forward, sub)
        #expect(h.cancels == [refetch.attempt])
        #expect(h.pageRequests(for: key("feed")) == ["1 forward", "1 forward", "2 forward"])
        #expect(describeFlags(h.lastPush(of: sub)) == "next fetchingNext")
        // The refetch's late answer is ignored.
        h.cache.attemptSucceeded(refetch.attempt, answer: ["data": "stale", "nextPageParam": 2])
        #expect(describePages(h.cache.state(of: key("feed"))) == #"pages ["p1"] params [1]"#)
        h.answerPage(key("feed"), "p2", next: 3)
        #expect(describePages(h.lastPush(of: sub)) == #"pages ["p1","p2"] params [1,2]"#)
        // Both callers get the settled state (the refetch's waiter moved to the page fetch).
        #expect(describePages(pager.value) == #"pages ["p1","p2"] params [1,2]"#)
        #expect(describePages(refetcher.value) == #"pages ["p1","p2"] params [1,2]"#)
    }

    @Test func B122_withCancelRefetchFalseFetchNextPageJoinsTheRunningRefetch() {
        let (h, sub) = onePage()
        h.refetch(sub)
        let pager = h.fetchPage(.forward, sub, cancelRefetch: false)
        #expect(h.cancels.isEmpty)
        #expect(h.pageRequests(for: key("feed")) == ["1 forward", "1 forward"])
        #expect(describeFlags(h.lastPush(of: sub)) == "next")
        h.answerPage(key("feed"), "q1", next: 2)
        #expect(h.sends.count == 2)
        #expect(describePages(pager.value) == #"pages ["q1"] params [1]"#)
        #expect(describePages(h.lastPush(of: sub)) == #"pages ["q1"] params [1]"#)
    }

    @Test func aSecondFetchNextPageReplacesTheFirstAndTheNewPageIsAppendedOnce() {
        let (h, sub) = onePage()
        let first = h.fetchPage(.forward, sub)
        let replaced = h.sends.last!
        let second = h.fetchPage(.forward, sub)
        #expect(h.cancels == [replaced.attempt])
        #expect(h.pageRequests(for: key("feed")) == ["1 forward", "2 forward", "2 forward"])
        h.cache.attemptSucceeded(replaced.attempt, answer: ["data": "p2 (late)", "nextPageParam": 3])
        h.answerPage(key("feed"), "p2", next: 3)
        #expect(describePages(h.lastPush(of: sub)) == #"pages ["p1","p2"] params [1,2]"#)
        #expect(describePages(first.value) == #"pages ["p1","p2"] params [1,2]"#)
        #expect(describePages(second.value) == #"pages ["p1","p2"] params [1,2]"#)
    }

    @Test func withCancelRefetchFalseASecondFetchNextPageJoinsTheFirst() {
        let (h, sub) = onePage()
        let first = h.fetchPage(.forward, sub)
        let second = h.fetchPage(.forward, sub, cancelRefetch: false)
        #expect(h.cancels.isEmpty)
        h.answerPage(key("feed"), "p2", next: 3)
        #expect(h.sends.count == 2)
        #expect(describePages(first.value) == #"pages ["p1","p2"] params [1,2]"#)
        #expect(second.value == first.value)
    }

    @Test func fetchPreviousPageDuringFetchNextPageReplacesIt() {
        let h = EngineHarness()
        h.register("feed")
        let (sub, _) = h.subscribe(key("feed"), infiniteOptions(1))
        h.answerPage(key("feed"), "p1", next: 2, previous: 0)
        h.fetchPage(.forward, sub)
        h.fetchPage(.backward, sub)
        #expect(h.pageRequests(for: key("feed")) == ["1 forward", "2 forward", "0 backward"])
        #expect(describeFlags(h.lastPush(of: sub)) == "next previous fetchingPrevious")
        h.answerPage(key("feed"), "p0")
        #expect(describePages(h.lastPush(of: sub)) == #"pages ["p0","p1"] params [0,1]"#)
    }

    @Test func aPageCallDuringTheFirstLoadJoinsItEvenWithCancelRefetch() {
        let h = EngineHarness()
        h.register("feed")
        let (sub, _) = h.subscribe(key("feed"), infiniteOptions(1))
        let pager = h.fetchPage(.forward, sub)
        #expect(h.cancels.isEmpty)
        #expect(h.sends.count == 1)
        h.answerPage(key("feed"), "p1", next: 2)
        #expect(describePages(pager.value) == #"pages ["p1"] params [1]"#)
    }

    @Test func invalidateDuringAPageFetchReplacesItWithARefetchOfTheStoredPages() {
        let (h, sub) = onePage()
        let pager = h.fetchPage(.forward, sub)
        let page = h.sends.last!
        _ = h.cache.invalidate(filter(["key": ["feed"]]), refetchType: .active)
        #expect(h.cancels == [page.attempt])
        #expect(h.pageRequests(for: key("feed")) == ["1 forward", "2 forward", "1 forward"])
        #expect(describeFlags(h.lastPush(of: sub)) == "next")
        h.answerPage(key("feed"), "q1", next: 2)
        #expect(describePages(pager.value) == #"pages ["q1"] params [1]"#)
    }

    @Test func noNextPageWhileARefetchRunsAnswersAtOnceWithoutCancellingIt() {
        let h = EngineHarness()
        h.register("feed")
        let (sub, _) = h.subscribe(key("feed"), infiniteOptions(1))
        h.answerPage(key("feed"), "p1")
        h.refetch(sub)
        let pager = h.fetchPage(.forward, sub)
        #expect(pager.value?.fetchStatus == .fetching)
        #expect(h.cancels.isEmpty)
        #expect(h.sends.count == 2)
    }

    @Test func B123_aFailingNextPageKeepsThePagesAndSetsIsFetchNextPageError() {
        let (h, sub) = onePage(["retry": 0])
        let pager = h.fetchPage(.forward, sub)
        h.fail(key("feed"))
        let view = h.lastPush(of: sub)
        #expect(view?.status == .error)
        #expect(describePages(view) == #"pages ["p1"] params [1]"#)
        #expect(describeFlags(view) == "next nextError")
        // The caller gets the error state, not an RPC error.
        #expect(pager.value?.status == .error)
        #expect(describeFlags(pager.value) == "next nextError")
        // The flag stays until the next fetch starts.
        h.refetch(sub)
        #expect(describeFlags(h.lastPush(of: sub)) == "next")
    }

    @Test func B123_aFailingPreviousPageSetsIsFetchPreviousPageError() {
        let h = EngineHarness()
        h.register("feed")
        let (sub, _) = h.subscribe(key("feed"), infiniteOptions(1, ["retry": 0]))
        h.answerPage(key("feed"), "p1", previous: 0)
        h.fetchPage(.backward, sub)
        h.fail(key("feed"))
        #expect(describeFlags(h.lastPush(of: sub)) == "previous previousError")
        #expect(describePages(h.lastPush(of: sub)) == #"pages ["p1"] params [1]"#)
    }

    @Test func B123_withRetryOnlyTheFailingPageIsRetried() {
        let (h, sub) = onePage(["retry": 2, "retryDelay": 100])
        h.fetchPage(.forward, sub)
        h.fail(key("feed"))
        #expect(h.lastPush(of: sub)?.failureCount == 1)
        #expect(describeFlags(h.lastPush(of: sub)) == "next fetchingNext")
        h.advance(100)
        h.fail(key("feed"))
        h.advance(100)
        h.answerPage(key("feed"), "p2", next: 3)
        #expect(h.pageRequests(for: key("feed")) == ["1 forward", "2 forward", "2 forward", "2 forward"])
        #expect(h.sends.map(\.attemptNumber) == [1, 1, 2, 3])
        #expect(describePages(h.lastPush(of: sub)) == #"pages ["p1","p2"] params [1,2]"#)
        #expect(h.lastPush(of: sub)?.failureCount == 0)
    }

    @Test func cancellingAPageFetchRevertsToThePagesBeforeIt() {
        let (h, sub) = onePage()
        let pager = h.fetchPage(.forward, sub)
        h.cache.cancel(key: key("feed"), revert: true)
        #expect(describe(h.lastPush(of: sub)!) == #"success/idle data={"pageParams":[1],"pages":["p1"]}"#)
        #expect(describeFlags(h.lastPush(of: sub)) == "next")
        #expect(describePages(pager.value) == #"pages ["p1"] params [1]"#)
    }

    @Test func thePageFetchRunsAfterTheLastSubscriberLeavesWhenACallerWaits() {
        let (h, sub) = onePage()
        let pager = h.fetchPage(.forward, key: key("feed"))
        h.unsubscribe(sub)
        #expect(h.cancels.isEmpty)
        h.answerPage(key("feed"), "p2")
        #expect(describePages(pager.value) == #"pages ["p1","p2"] params [1,2]"#)
    }
}
