// Engine tests of maxPages: a forward page drops pages from the front, a backward page drops them
// from the back, pages / pageParams / links stay aligned, and a refetch fetches only what is kept.

import QuerydCore
import QuerydJSON
import Testing

@Suite struct InfiniteMaxPagesTests {
    /// Answers the latest request for `["feed"]` with page `n`: `"p<n>"`, next n + 1, previous n - 1.
    private func answerNumbered(_ h: EngineHarness, _ n: Int) {
        h.answerPage(
            key("feed"), .string("p\(n)"), next: .number(JSONNumber(n + 1)), previous: .number(JSONNumber(n - 1)))
    }

    @Test func B119_forwardDropsTheFirstPageBackwardDropsTheLastAndARefetchMakesTwoCalls() {
        let h = EngineHarness()
        h.register("feed")
        let (sub, _) = h.subscribe(key("feed"), infiniteOptions(5, maxPages: 2))
        answerNumbered(h, 5)
        h.fetchPage(.forward, sub)
        answerNumbered(h, 6)
        #expect(describePages(h.lastPush(of: sub)) == #"pages ["p5","p6"] params [5,6]"#)
        h.fetchPage(.forward, sub)
        answerNumbered(h, 7)
        #expect(describePages(h.lastPush(of: sub)) == #"pages ["p6","p7"] params [6,7]"#)
        // The previous page of the kept first page (p6) is 5.
        #expect(describeFlags(h.lastPush(of: sub)) == "next previous")
        h.fetchPage(.backward, sub)
        answerNumbered(h, 5)
        #expect(describePages(h.lastPush(of: sub)) == #"pages ["p5","p6"] params [5,6]"#)
        // The next page of the kept last page (p6) is 7 again.
        #expect(describeFlags(h.lastPush(of: sub)) == "next previous")
        let before = h.sends.count
        h.refetch(sub)
        answerNumbered(h, 5)
        answerNumbered(h, 6)
        #expect(h.sends.count == before + 2)
        #expect(
            h.pageRequests(for: key("feed")) == [
                "5 forward", "6 forward", "7 forward", "5 backward", "5 forward", "6 forward",
            ])
        #expect(describePages(h.lastPush(of: sub)) == #"pages ["p5","p6"] params [5,6]"#)
    }

    @Test func backwardPagesDropFromTheBackAndTheNextLinkFollowsTheNewLastPage() {
        let h = EngineHarness()
        h.register("feed")
        let (sub, _) = h.subscribe(key("feed"), infiniteOptions(10, maxPages: 2))
        answerNumbered(h, 10)
        for _ in 0..<3 {
            h.fetchPage(.backward, sub)
            let param = h.sends.last!.page!.param.intValue!
            answerNumbered(h, param)
        }
        #expect(h.pageRequests(for: key("feed")) == ["10 forward", "9 backward", "8 backward", "7 backward"])
        #expect(describePages(h.lastPush(of: sub)) == #"pages ["p7","p8"] params [7,8]"#)
        h.fetchPage(.forward, sub)
        #expect(h.pageRequests(for: key("feed")).last == "9 forward")
        answerNumbered(h, 9)
        #expect(describePages(h.lastPush(of: sub)) == #"pages ["p8","p9"] params [8,9]"#)
    }

    @Test func maxPagesOneKeepsOnlyTheNewestPageAndItsOwnLinks() {
        let h = EngineHarness()
        h.register("feed")
        let (sub, _) = h.subscribe(key("feed"), infiniteOptions("a", maxPages: 1))
        h.answerPage(key("feed"), "A", next: "b")
        h.fetchPage(.forward, sub)
        h.answerPage(key("feed"), "B", next: nil, previous: "a")
        #expect(describePages(h.lastPush(of: sub)) == #"pages ["B"] params ["b"]"#)
        #expect(describeFlags(h.lastPush(of: sub)) == "previous")
        let caller = h.fetchPage(.forward, sub)
        #expect(describePages(caller.value) == #"pages ["B"] params ["b"]"#)
        #expect(h.sends.count == 2)
        h.fetchPage(.backward, sub)
        h.answerPage(key("feed"), "A", next: "b")
        #expect(describePages(h.lastPush(of: sub)) == #"pages ["A"] params ["a"]"#)
        #expect(describeFlags(h.lastPush(of: sub)) == "next")
    }

    @Test func aRefetchOfAFullListStopsAtMaxPagesEvenWhenMoreNextPagesExist() {
        let h = EngineHarness()
        h.register("feed")
        let (sub, _) = h.subscribe(key("feed"), infiniteOptions(1, maxPages: 3))
        h.loadNumberedPages(key("feed"), subscription: sub, from: 1, count: 5)
        #expect(describePages(h.lastPush(of: sub)) == #"pages ["p3","p4","p5"] params [3,4,5]"#)
        h.refetch(sub)
        for n in 3...5 { h.answerPage(key("feed"), .string("r\(n)"), next: .number(JSONNumber(n + 1))) }
        #expect(h.pageRequests(for: key("feed")).suffix(3) == ["3 forward", "4 forward", "5 forward"])
        #expect(h.sends.count == 8)
        #expect(describePages(h.lastPush(of: sub)) == #"pages ["r3","r4","r5"] params [3,4,5]"#)
    }

    @Test func maxPagesMustBeAPositiveInteger() {
        for bad: JSONValue in [0, -1, 1.5, "2", nil] {
            #expect(throws: OptionsError.self) {
                try QueryOptions(json: ["infinite": ["initialPageParam": 1, "maxPages": bad]])
            }
        }
        #expect(throws: OptionsError.self) { try QueryOptions(json: ["infinite": ["maxPages": 2]]) }
        #expect(throws: OptionsError.self) {
            try QueryOptions(json: ["infinite": ["initialPageParam": 1, "pages": 2]])
        }
        #expect(throws: OptionsError.self) { try QueryOptions(json: ["infinite": true]) }
        let parsed = try? QueryOptions(json: ["infinite": ["initialPageParam": nil, "maxPages": 3]])
        #expect(parsed?.infinite == InfiniteOptions(initialPageParam: nil, maxPages: 3))
    }
}
