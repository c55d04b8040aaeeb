// Engine tests of `attemptSettled`: an attempt answered with data fetched elsewhere keeps that
// data's `dataUpdatedAt`, so its staleness counts from the original fetch; an infinite query takes
// a whole list (pages and links) that way only when it loads its whole list and has no page yet.

import QuerydCore
import QuerydJSON
import Testing

@Suite struct SettledElsewhereTests {
    @Test func anAttemptSettledElsewhereKeepsItsDataUpdatedAtAndGoesStaleOnThatClock() {
        let h = EngineHarness()
        h.register("s")
        h.advance(1_000)
        let (sub, _) = h.subscribe(key("s"), ["staleTime": 500])
        let request = h.latestRequest(for: key("s"))!
        #expect(h.cache.fetchOptions(forAttempt: request.attempt)?.staleTime == .milliseconds(500))
        // Fetched elsewhere 200 ms ago (at clock time now - 200).
        let fetchedAt = h.clock.now - 200
        h.cache.attemptSettled(request.attempt, data: 7, updatedAt: fetchedAt)
        #expect(h.cache.state(of: key("s"))?.dataUpdatedAt == fetchedAt)
        #expect(h.trace(of: sub, stale: true) == ["success/idle data=7 fresh"])
        // Stale 500 ms after the original fetch: 300 ms from now, not 500.
        h.advance(299)
        #expect(h.pushes(of: sub).count == 1)
        h.advance(1)
        #expect(h.trace(of: sub, stale: true) == ["success/idle data=7 fresh", "success/idle data=7 stale"])
        // The attempt is over: a second settle (or a late fetcher answer) changes nothing.
        h.cache.attemptSettled(request.attempt, data: 8, updatedAt: h.clock.now)
        #expect(h.cache.fetchOptions(forAttempt: request.attempt) == nil)
        #expect(h.cache.state(of: key("s"))?.data == 7)
        #expect(h.sends.count == 1)
    }

    @Test func anInfiniteQuerysFirstPageAttemptTakesAWholeListFetchedElsewhereWithItsLinks() {
        let h = EngineHarness()
        h.register("feed")
        h.advance(1_000)
        let (sub, _) = h.subscribe(key("feed"), infiniteOptions(0, ["staleTime": 500]))
        let first = h.latestRequest(for: key("feed"))!
        #expect(h.cache.fetchOptions(forAttempt: first.attempt)?.staleTime == .milliseconds(500))
        // Something that is not pages is refused, and the attempt goes on.
        #expect(!h.cache.attemptSettled(first.attempt, data: 7, updatedAt: h.clock.now))
        #expect(h.cache.isCurrentAttempt(first.attempt))
        let fetchedAt = h.clock.now - 200
        let links = [PageLinks(next: 1, previous: nil), PageLinks(next: 2, previous: nil)]
        #expect(
            h.cache.attemptSettled(
                first.attempt, data: pagesData(["p0", "p1"], [0, 1]), updatedAt: fetchedAt, pageLinks: links))
        let view = h.cache.state(of: key("feed"))
        #expect(describePages(view) == #"pages ["p0","p1"] params [0,1]"#)
        #expect(describeFlags(view) == "next")
        #expect(view?.dataUpdatedAt == fetchedAt)
        #expect(h.cache.state(of: key("feed"))?.fetchStatus == .idle)

        // A next page extends the node's own pages: only its fetcher answers it.
        h.fetchPage(.forward, sub)
        let next = h.latestRequest(for: key("feed"))!
        #expect(h.pageRequests(for: key("feed")) == ["0 forward", "2 forward"])
        #expect(h.cache.fetchOptions(forAttempt: next.attempt) == nil)
        #expect(!h.cache.attemptSettled(next.attempt, data: pagesData(["x"], [9]), updatedAt: h.clock.now))
        h.answerPage(key("feed"), "p2", next: 3)
        #expect(describePages(h.lastPush(of: sub)) == #"pages ["p0","p1","p2"] params [0,1,2]"#)

        // A refetch's first page may take a whole list; its later pages may not.
        h.refetch(sub)
        #expect(h.cache.fetchOptions(forAttempt: h.latestRequest(for: key("feed"))!.attempt) != nil)
        h.answerPage(key("feed"), "q0", next: 1)
        #expect(h.pageRequests(for: key("feed")).suffix(1) == ["1 forward"])
        #expect(h.cache.fetchOptions(forAttempt: h.latestRequest(for: key("feed"))!.attempt) == nil)
    }

    @Test func aWholeListFetchedElsewhereIsCutToTheFetchsMaxPagesKeepingTheFirstPages() {
        let h = EngineHarness()
        h.register("feed")
        let (sub, _) = h.subscribe(key("feed"), infiniteOptions(0, maxPages: 2))
        let request = h.latestRequest(for: key("feed"))!
        let links = [1, 2, 3].map { PageLinks(next: .number(JSONNumber($0)), previous: nil) }
        #expect(
            h.cache.attemptSettled(
                request.attempt, data: pagesData(["p0", "p1", "p2"], [0, 1, 2]), updatedAt: h.clock.now,
                pageLinks: links))
        #expect(describePages(h.lastPush(of: sub)) == #"pages ["p0","p1"] params [0,1]"#)
        // The kept pages keep their own links: the next page is 2.
        h.fetchPage(.forward, sub)
        #expect(h.pageRequests(for: key("feed")) == ["0 forward", "2 forward"])
        #expect(h.sends.count == 2)
    }
}
