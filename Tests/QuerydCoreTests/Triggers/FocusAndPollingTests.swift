// client.setFocused and refetchInterval on the core (B100–B106): focus is per connection; polling
// restarts on every query update (period = interval + fetch time) and stops when unfocused.

import QuerydCore
import QuerydJSON
import Testing

@Suite struct FocusAndPollingTests {
    @Test func B106_regainingFocusRefetchesStaleSubscriptionsOfThatConnectionOnly() {
        let h = EngineHarness()
        h.register("f")
        h.subscribe(key("f", "stale"))
        h.subscribe(key("f", "fresh"), ["staleTime": 60000])
        h.subscribe(key("f", "always"), ["staleTime": 60000, "refetchOnFocus": "always"])
        h.subscribe(key("f", "static"), ["staleTime": "static", "refetchOnFocus": "always"])
        h.subscribe(key("f", "other"), connection: EngineHarness.otherClient)
        for name in ["stale", "fresh", "always", "static", "other"] { h.answer(key("f", .string(name)), 1) }
        h.cache.setFocused(false, connection: EngineHarness.client)
        h.cache.setFocused(true, connection: EngineHarness.client)
        let refetched = h.sends.dropFirst(5).map(\.key.description)
        #expect(refetched == [#"["f","stale"]"#, #"["f","always"]"#])
    }

    @Test func B100_pollingPeriodIsIntervalPlusFetchTime() {
        let h = EngineHarness()
        h.register("p")
        h.subscribe(key("p"), ["refetchInterval": 1000])
        // Each fetch takes 300 ms; the next poll is due 1000 ms after it settles.
        for _ in 0..<3 {
            h.advance(300)
            h.answer(key("p"), "v")
            h.advance(1000)
        }
        #expect(h.sendTimes(for: key("p")) == [0, 1300, 2600, 3900])
    }

    @Test func B101_aWriteRestartsThePollTimer() {
        let h = EngineHarness()
        h.register("p")
        h.subscribe(key("p"), ["refetchInterval": 1000])
        h.answer(key("p"), "v")
        h.advance(800)
        h.set(key("p"), "w")
        h.advance(1000)
        #expect(h.sendTimes(for: key("p")) == [0, 1800])
    }

    @Test func B103_noPollingWhileUnfocusedUnlessInBackground() {
        let h = EngineHarness()
        h.register("p")
        h.subscribe(key("p", 1), ["refetchInterval": 100])
        h.subscribe(key("p", 2), ["refetchInterval": 100, "refetchIntervalInBackground": true])
        h.answer(key("p", 1), "v")
        h.answer(key("p", 2), "v")
        h.cache.setFocused(false, connection: EngineHarness.client)
        h.advance(100)
        #expect(h.sendTimes(for: key("p", 1)) == [0])
        #expect(h.sendTimes(for: key("p", 2)) == [0, 100])
    }

    @Test func B102_pollingStopsAtUnsubscribe() {
        let h = EngineHarness()
        h.register("p")
        let (id, _) = h.subscribe(key("p"), ["refetchInterval": 100])
        h.answer(key("p"), "v")
        h.unsubscribe(id)
        h.advance(1000)
        #expect(h.sendTimes(for: key("p")) == [0])
    }

    @Test func B105_aPollDuringAFetchJoinsIt() {
        let h = EngineHarness()
        h.register("p")
        let (id, _) = h.subscribe(key("p"), ["refetchInterval": 100])
        h.answer(key("p"), "v")
        h.refetch(id)
        h.advance(100)
        #expect(h.sendTimes(for: key("p")) == [0, 0])
    }
}
