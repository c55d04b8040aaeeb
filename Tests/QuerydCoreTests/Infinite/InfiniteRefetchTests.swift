// Engine tests of refetching an infinite query: every stored page again, in order, from the first
// stored page param and following the fresh pages' next params (whatever starts the refetch),
// a chain that ends early, failures and retries mid-refetch, and cancellation.

import QuerydCore
import QuerydJSON
import Testing

@Suite struct InfiniteRefetchTests {
    /// A subscription on `["feed"]` holding pages p1, p2, p3 (params 1, 2, 3; next n + 1).
    private func threePages(_ extra: [String: JSONValue] = [:]) -> (EngineHarness, SubscriptionID) {
        let h = EngineHarness()
        h.register("feed")
        let (sub, _) = h.subscribe(key("feed"), infiniteOptions(1, extra))
        h.loadNumberedPages(key("feed"), subscription: sub, from: 1, count: 3)
        #expect(describePages(h.lastPush(of: sub)) == #"pages ["p1","p2","p3"] params [1,2,3]"#)
        return (h, sub)
    }

    @Test func B120_aRefetchFetchesEveryPageInOrderFollowingTheFreshPagesNextParams() {
        let (h, sub) = threePages()
        let pushesBefore = h.pushes(of: sub).count
        let caller = h.refetch(sub)
        #expect(h.pageRequests(for: key("feed")).suffix(1) == ["1 forward"])
        let running = h.lastPush(of: sub)
        #expect(running?.isRefetching == true)
        #expect(describeFlags(running) == "next")
        // Each later param comes from the page just fetched, not from the stored params.
        h.answerPage(key("feed"), "q1", next: 10)
        #expect(h.pageRequests(for: key("feed")).suffix(2) == ["1 forward", "10 forward"])
        h.answerPage(key("feed"), "q10", next: 11)
        h.answerPage(key("feed"), "q11", next: 12)
        #expect(h.pageRequests(for: key("feed")).suffix(3) == ["1 forward", "10 forward", "11 forward"])
        #expect(h.sends.count == 6)
        // The old pages stay visible until the whole refetch is done: one push at its start, one at its end.
        #expect(h.pushes(of: sub).count == pushesBefore + 2)
        #expect(describePages(h.lastPush(of: sub)) == #"pages ["q1","q10","q11"] params [1,10,11]"#)
        #expect(describePages(caller.value) == #"pages ["q1","q10","q11"] params [1,10,11]"#)
        #expect(describeFlags(h.lastPush(of: sub)) == "next")
    }

    @Test func B120_whenTheChainEndsEarlyTheListGetsShorter() {
        let (h, sub) = threePages()
        h.refetch(sub)
        h.answerPage(key("feed"), "q1", next: 2)
        h.answerPage(key("feed"), "q2", next: nil)
        #expect(h.pageRequests(for: key("feed")).suffix(2) == ["1 forward", "2 forward"])
        #expect(h.sends.count == 5)
        #expect(describePages(h.lastPush(of: sub)) == #"pages ["q1","q2"] params [1,2]"#)
        #expect(describeFlags(h.lastPush(of: sub)) == "-")
    }

    @Test func B120_aNullNextParamAlsoEndsTheChain() {
        let (h, sub) = threePages()
        h.refetch(sub)
        h.answerWhole(key("feed"), ["data": "q1", "nextPageParam": nil])
        #expect(h.sends.count == 4)
        #expect(describePages(h.lastPush(of: sub)) == #"pages ["q1"] params [1]"#)
        #expect(h.lastPush(of: sub)?.fetchStatus == .idle)
    }

    @Test func B120_theRefetchStartsFromTheFirstStoredParamNotFromInitialPageParam() {
        let h = EngineHarness()
        h.register("feed")
        let (sub, _) = h.subscribe(key("feed"), infiniteOptions(1))
        h.answerPage(key("feed"), "p1", next: 2, previous: 0)
        h.fetchPage(.backward, sub)
        h.answerPage(key("feed"), "p0", next: 1, previous: -1)
        #expect(describePages(h.lastPush(of: sub)) == #"pages ["p0","p1"] params [0,1]"#)
        h.refetch(sub)
        h.answerPage(key("feed"), "r0", next: 1)
        h.answerPage(key("feed"), "r1", next: 2)
        #expect(h.pageRequests(for: key("feed")) == ["1 forward", "0 backward", "0 forward", "1 forward"])
        #expect(describePages(h.lastPush(of: sub)) == #"pages ["r0","r1"] params [0,1]"#)
    }

    @Test func invalidateByPrefixRefetchesEveryInfiniteQueryListInOrder() {
        let h = EngineHarness()
        h.register("feed")
        let (a, _) = h.subscribe(key("feed", "a"), infiniteOptions(1))
        h.loadNumberedPages(key("feed", "a"), subscription: a, from: 1, count: 2)
        let (b, _) = h.subscribe(key("feed", "b"), infiniteOptions(1))
        h.loadNumberedPages(key("feed", "b"), subscription: b, from: 1, count: 3)
        let matched = h.cache.invalidate(filter(["key": ["feed"]]), refetchType: .active)
        #expect(matched == 2)
        #expect(h.lastPush(of: a)?.isInvalidated == true)
        for (k, count) in [(key("feed", "a"), 2), (key("feed", "b"), 3)] {
            for n in 1...count { h.answerPage(k, .string("fresh\(n)"), next: .number(JSONNumber(n + 1))) }
        }
        #expect(h.pageRequests(for: key("feed", "a")) == ["1 forward", "2 forward", "1 forward", "2 forward"])
        #expect(h.pageRequests(for: key("feed", "b")).suffix(3) == ["1 forward", "2 forward", "3 forward"])
        #expect(describePages(h.lastPush(of: a)) == #"pages ["fresh1","fresh2"] params [1,2]"#)
        #expect(describePages(h.lastPush(of: b)) == #"pages ["fresh1","fresh2","fresh3"] params [1,2,3]"#)
        #expect(h.lastPush(of: b)?.isInvalidated == false)
    }

    @Test func aStaleQueryRefetchesEveryPageWhenAnotherSubscriberArrives() {
        let (h, _) = threePages()
        let (second, view) = h.subscribe(key("feed"), infiniteOptions(1))
        #expect(view.isRefetching)
        for n in 1...3 { h.answerPage(key("feed"), .string("s\(n)"), next: .number(JSONNumber(n + 1))) }
        #expect(h.pageRequests(for: key("feed")).suffix(3) == ["1 forward", "2 forward", "3 forward"])
        #expect(describePages(h.lastPush(of: second)) == #"pages ["s1","s2","s3"] params [1,2,3]"#)
    }

    @Test func pollingRefetchesEveryPage() {
        let (h, sub) = threePages(["refetchInterval": 1000])
        let sent = h.sends.count
        h.advance(999)
        #expect(h.sends.count == sent)
        h.advance(1)
        for n in 1...3 { h.answerPage(key("feed"), .string("i\(n)"), next: .number(JSONNumber(n + 1))) }
        #expect(h.pageRequests(for: key("feed")).dropFirst(sent) == ["1 forward", "2 forward", "3 forward"])
        #expect(describePages(h.lastPush(of: sub)) == #"pages ["i1","i2","i3"] params [1,2,3]"#)
    }

    @Test func regainingFocusRefetchesEveryPage() {
        let (h, sub) = threePages()
        let sent = h.sends.count
        h.cache.setFocused(false, connection: EngineHarness.client)
        #expect(h.sends.count == sent)
        h.cache.setFocused(true, connection: EngineHarness.client)
        for n in 1...3 { h.answerPage(key("feed"), .string("f\(n)"), next: .number(JSONNumber(n + 1))) }
        #expect(h.pageRequests(for: key("feed")).dropFirst(sent) == ["1 forward", "2 forward", "3 forward"])
        #expect(describePages(h.lastPush(of: sub)) == #"pages ["f1","f2","f3"] params [1,2,3]"#)
    }

    @Test func aFailureMidRefetchKeepsTheOldPagesAndReportsTheError() {
        let (h, sub) = threePages(["retry": 0])
        let caller = h.refetch(sub)
        h.answerPage(key("feed"), "q1", next: 2)
        h.fail(key("feed"))
        #expect(h.sends.count == 5)
        let view = h.lastPush(of: sub)
        #expect(view?.status == .error)
        #expect(view?.error?["data"] == EngineHarness.fetcherError)
        #expect(describePages(view) == #"pages ["p1","p2","p3"] params [1,2,3]"#)
        // A refetch error is neither a next- nor a previous-page error; the old links still hold.
        #expect(describeFlags(view) == "next")
        #expect(caller.value?.status == .error)
        h.fetchPage(.forward, sub)
        #expect(h.pageRequests(for: key("feed")).last == "4 forward")
    }

    @Test func B047_aRetryResumesAtTheFailedPage() {
        let h = EngineHarness()
        h.register("feed")
        let (sub, _) = h.subscribe(key("feed"), infiniteOptions(0, ["retry": 1, "retryDelay": 10]))
        h.loadNumberedPages(key("feed"), subscription: sub, from: 0, count: 3)
        let before = h.sends.count
        h.refetch(sub)
        h.answerPage(key("feed"), "r0", next: 1)
        h.answerPage(key("feed"), "r1", next: 2)
        h.fail(key("feed"))
        #expect(h.lastPush(of: sub)?.failureCount == 1)
        h.advance(9)
        #expect(h.sends.count == before + 3)
        h.advance(1)
        h.answerPage(key("feed"), "r2", next: 3)
        #expect(
            h.pageRequests(for: key("feed")).dropFirst(before) == ["0 forward", "1 forward", "2 forward", "2 forward"])
        #expect(h.sends.last?.attemptNumber == 2)
        #expect(describePages(h.lastPush(of: sub)) == #"pages ["r0","r1","r2"] params [0,1,2]"#)
        #expect(h.lastPush(of: sub)?.failureCount == 0)
    }

    @Test func B059_cancelWithoutRevertMidRefetchStopsAndKeepsTheOldPages() {
        let (h, sub) = threePages()
        let caller = h.refetch(sub)
        h.answerPage(key("feed"), "q1", next: 2)
        let inFlight = h.sends.last!
        h.cache.cancel(key: key("feed"), revert: false)
        #expect(h.cancels == [inFlight.attempt])
        let view = h.lastPush(of: sub)
        #expect(view?.status == .error)
        #expect(view?.error?["data"]?["code"] == -32003)
        #expect(describePages(view) == #"pages ["p1","p2","p3"] params [1,2,3]"#)
        #expect(caller.value?.status == .error)
        // The pages not yet fetched are not fetched; a late answer changes nothing.
        h.advance(60_000)
        #expect(h.sends.count == 5)
        h.cache.attemptSucceeded(inFlight.attempt, answer: ["data": "late", "nextPageParam": 3])
        #expect(describePages(h.cache.state(of: key("feed"))) == #"pages ["p1","p2","p3"] params [1,2,3]"#)
    }

    @Test func cancelWithRevertMidRefetchRestoresThePagesAndTheirLinks() {
        let (h, sub) = threePages()
        h.refetch(sub)
        h.answerPage(key("feed"), "q1", next: 2)
        h.cache.cancel(key: key("feed"), revert: true)
        let view = h.lastPush(of: sub)
        #expect(describe(view!) == #"success/idle data={"pageParams":[1,2,3],"pages":["p1","p2","p3"]}"#)
        #expect(describeFlags(view) == "next")
    }

    @Test func aRefetchGivesEachPageAFreshAttemptCountButCountsFailuresAcrossPages() {
        let (h, sub) = threePages(["retry": 1, "retryDelay": 10])
        let before = h.sends.count
        h.refetch(sub)
        h.fail(key("feed"))
        h.advance(10)
        h.answerPage(key("feed"), "q1", next: 2)
        #expect(h.sends.last?.attemptNumber == 1)
        h.fail(key("feed"))
        // One retry for the whole refetch (TanStack's retryer wraps all its pages): it is spent.
        #expect(h.pageRequests(for: key("feed")).dropFirst(before) == ["1 forward", "1 forward", "2 forward"])
        #expect(h.lastPush(of: sub)?.status == .error)
        #expect(h.lastPush(of: sub)?.failureCount == 2)
        #expect(describePages(h.lastPush(of: sub)) == #"pages ["p1","p2","p3"] params [1,2,3]"#)
    }
}
