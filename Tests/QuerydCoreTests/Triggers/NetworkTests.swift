// network.setOnline on the core: offline pauses fetches (B109, B110, B113), reconnect continues them
// and refetches stale subscriptions that allow refetchOnReconnect; a paused fetch nobody wants is dropped (B054).

import QuerydCore
import QuerydJSON
import Testing

@Suite struct NetworkTests {
    @Test func B109_offlineSubscribeIsPausedUntilOnline() {
        let h = EngineHarness()
        h.register("n")
        h.cache.setOnline(false)
        let (id, view) = h.subscribe(key("n"))
        #expect(describe(view) == "pending/paused")
        #expect(!view.isLoading)
        #expect(h.sends.isEmpty)
        h.cache.setOnline(true)
        #expect(h.sends.count == 1)
        h.answer(key("n"), 1)
        #expect(h.trace(of: id) == ["pending/fetching", "success/idle data=1"])
    }

    @Test func B110_offlineRefetchKeepsDataAndContinuesWithOneCall() {
        let h = EngineHarness()
        h.register("n")
        let (id, _) = h.subscribe(key("n"))
        h.answer(key("n"), 1)
        h.cache.setOnline(false)
        h.refetch(id)
        #expect(h.stateText(key("n")) == "success/paused data=1")
        #expect(h.sends.count == 1)
        h.cache.setOnline(true)
        #expect(h.sends.count == 2)
        h.answer(key("n"), 2)
        #expect(h.stateText(key("n")) == "success/idle data=2")
    }

    @Test func B113_anAttemptInFlightContinuesButItsRetryWaitsForTheNetwork() {
        let h = EngineHarness()
        h.register("n")
        h.subscribe(key("n"), ["retryDelay": 10])
        h.cache.setOnline(false)
        h.fail(key("n"))
        h.advance(10)
        #expect(h.sends.count == 1)
        #expect(h.stateText(key("n")) == "pending/paused failures=1")
        h.cache.setOnline(true)
        #expect(h.sends.count == 2)
        #expect(h.sends[1].attemptNumber == 2)
    }

    @Test func reconnectRefetchesStaleSubscriptionsThatAllowIt() {
        let h = EngineHarness()
        h.register("a")
        h.subscribe(key("a", 1))
        h.subscribe(key("a", 2), ["refetchOnReconnect": false])
        h.subscribe(key("a", 3), ["staleTime": 60000])
        h.subscribe(key("a", 4), ["staleTime": 60000, "refetchOnReconnect": "always"])
        for n in 1...4 { h.answer(key("a", .number(JSONNumber(n))), "v") }
        #expect(h.sends.count == 4)
        h.cache.setOnline(false)
        h.cache.setOnline(true)
        #expect(
            h.sends.map(\.key).map(\.description) == [
                #"["a",1]"#, #"["a",2]"#, #"["a",3]"#, #"["a",4]"#, #"["a",1]"#, #"["a",4]"#,
            ])
    }

    @Test func B054_aPausedFetchNobodyWantsIsDroppedAndNeverSent() {
        let h = EngineHarness()
        h.register("n")
        h.cache.setOnline(false)
        let (id, _) = h.subscribe(key("n"))
        h.unsubscribe(id)
        #expect(h.stateText(key("n")) == "pending/idle")
        h.cache.setOnline(true)
        #expect(h.sends.isEmpty)
    }

    @Test func B111_networkModeAlwaysFetchesOfflineAndDoesNotRefetchOnReconnect() {
        let h = EngineHarness()
        h.register("n")
        h.cache.setOnline(false)
        let (id, view) = h.subscribe(key("n"), ["networkMode": "always", "retryDelay": 10])
        #expect(describe(view) == "pending/fetching")
        h.fail(key("n"))
        h.advance(10)
        #expect(h.sends.map(\.attemptNumber) == [1, 2])
        h.answer(key("n"), 1)
        h.cache.setOnline(true)
        #expect(h.sends.count == 2)
        #expect(h.trace(of: id) == ["pending/fetching failures=1", "success/idle data=1"])
    }

    @Test func B112_offlineFirstMakesTheFirstAttemptThenPausesRetriesUntilOnline() {
        let h = EngineHarness()
        h.register("n")
        h.cache.setOnline(false)
        let (id, view) = h.subscribe(key("n"), ["networkMode": "offlineFirst", "retryDelay": 10])
        #expect(describe(view) == "pending/fetching")
        h.fail(key("n"))
        h.advance(10)
        #expect(h.sends.count == 1)
        #expect(h.stateText(key("n")) == "pending/paused failures=1")
        h.cache.setOnline(true)
        #expect(h.sends.map(\.attemptNumber) == [1, 2])
        h.answer(key("n"), 1)
        #expect(
            h.trace(of: id) == [
                "pending/fetching failures=1", "pending/paused failures=1", "pending/fetching failures=1",
                "success/idle data=1",
            ])
    }

    @Test func networkModeOnlineIsTheDefaultAndAnExplicitRefetchOnReconnectWinsOverAlways() {
        let h = EngineHarness()
        h.register("n")
        h.subscribe(key("n", 1), ["networkMode": "online"])
        h.subscribe(key("n", 2), ["networkMode": "always", "refetchOnReconnect": true])
        h.answer(key("n", 1), 1)
        h.answer(key("n", 2), 2)
        h.cache.setOnline(false)
        h.fetch(key("n", 1))
        #expect(h.stateText(key("n", 1)) == "success/paused data=1")
        h.cache.setOnline(true)
        #expect(h.sends.map(\.key) == [key("n", 1), key("n", 2), key("n", 1), key("n", 2)])
    }
}
