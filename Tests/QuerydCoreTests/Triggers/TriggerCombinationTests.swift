// Refetch triggers in combination: polling across focus changes (B103, B106), polling and retries
// while offline (B110, B113), notifyOnChangeProps on dataUpdatedAt and on select projections (B096,
// B086), streamed chunks racing a replaced attempt or a cancel (B145), and `events.emit` edge cases.

import QuerydCore
import QuerydJSON
import Testing

@Suite struct TriggerCombinationTests {
    // MARK: - Polling and focus

    @Test func regainingFocusRefetchesStaleDataAndPollingRestartsFromThatFetch() {
        let h = EngineHarness()
        h.register("p")
        h.subscribe(key("p"), ["refetchInterval": 100])
        h.answer(key("p"), "v")
        h.advance(50)
        h.cache.setFocused(false, connection: EngineHarness.client)
        h.advance(to: 500)
        #expect(h.sendTimes(for: key("p")) == [0])
        h.cache.setFocused(true, connection: EngineHarness.client)
        h.advance(20)
        h.answer(key("p"), "w")
        h.advance(to: 700)
        #expect(h.sendTimes(for: key("p")) == [0, 500, 620])
    }

    @Test func withoutRefetchOnFocusPollingResumesOneIntervalAfterFocusReturns() {
        let h = EngineHarness()
        h.register("p")
        h.subscribe(key("p"), ["refetchInterval": 100, "refetchOnFocus": false])
        h.answer(key("p"), "v")
        h.cache.setFocused(false, connection: EngineHarness.client)
        h.advance(to: 550)
        h.cache.setFocused(true, connection: EngineHarness.client)
        #expect(h.sendTimes(for: key("p")) == [0])
        h.advance(to: 650)
        #expect(h.sendTimes(for: key("p")) == [0, 650])
    }

    @Test func focusOfOneConnectionDoesNotStopAnotherConnectionsPolling() {
        let h = EngineHarness()
        h.register("p")
        h.subscribe(key("p", "mine"), ["refetchInterval": 100])
        h.subscribe(key("p", "theirs"), ["refetchInterval": 100], connection: EngineHarness.otherClient)
        h.answer(key("p", "mine"), "v")
        h.answer(key("p", "theirs"), "v")
        h.cache.setFocused(false, connection: EngineHarness.client)
        h.advance(100)
        #expect(h.sendTimes(for: key("p", "mine")) == [0])
        #expect(h.sendTimes(for: key("p", "theirs")) == [0, 100])
    }

    /// A focus change must not touch the poll timer of a subscription that polls in the background:
    /// its period stays `refetchInterval` after the last query update, whatever the focus does.
    @Test func focusChangesDoNotDelayBackgroundPolling() {
        let h = EngineHarness()
        h.register("p")
        h.subscribe(
            key("p"), ["refetchInterval": 100, "refetchIntervalInBackground": true, "refetchOnFocus": false])
        h.answer(key("p"), "v")
        // A client toggling focus every 60 ms.
        for step in 1...3 {
            h.advance(to: Int64(step) * 60 - 30)
            h.cache.setFocused(false, connection: EngineHarness.client)
            h.advance(to: Int64(step) * 60)
            h.cache.setFocused(true, connection: EngineHarness.client)
        }
        #expect(h.sendTimes(for: key("p")) == [0, 100])
    }

    @Test func B104_noPollingWhenDisabledOrWithIntervalZeroOrFalse() {
        let h = EngineHarness()
        h.register("p")
        h.set(key("p", 1), "v")
        h.set(key("p", 2), "v")
        h.set(key("p", 3), "v")
        h.subscribe(key("p", 1), ["refetchInterval": 100, "enabled": false])
        h.subscribe(key("p", 2), ["refetchInterval": 0, "staleTime": 60000])
        h.subscribe(key("p", 3), ["refetchInterval": false, "staleTime": 60000])
        h.advance(1000)
        #expect(h.sends.isEmpty)
    }

    @Test func setOptionsStartsAndStopsPolling() {
        let h = EngineHarness()
        h.register("p")
        let (id, _) = h.subscribe(key("p"), ["staleTime": 60000])
        h.answer(key("p"), "v")
        _ = h.setOptions(id, ["staleTime": 60000, "refetchInterval": 100])
        h.advance(100)
        h.answer(key("p"), "w")
        _ = h.setOptions(id, ["staleTime": 60000, "refetchInterval": .null])
        h.advance(1000)
        #expect(h.sendTimes(for: key("p")) == [0, 100])
    }

    @Test func B107_focusRefetchesAfterABackgroundErrorUnlessStatic() {
        let h = EngineHarness()
        h.register("f")
        let (long, _) = h.subscribe(key("f", "long"), ["staleTime": "Infinity", "retry": 0])
        let (fixed, _) = h.subscribe(key("f", "static"), ["staleTime": "static", "retry": 0])
        h.answer(key("f", "long"), 1)
        h.answer(key("f", "static"), 1)
        h.refetch(long)
        h.refetch(fixed)
        h.fail(key("f", "long"))
        h.fail(key("f", "static"))
        #expect(h.trace(of: long).last == "error/idle data=1 error=-32001 failures=1 invalidated")
        h.cache.setFocused(false, connection: EngineHarness.client)
        h.cache.setFocused(true, connection: EngineHarness.client)
        #expect(h.sends.map(\.key.description).suffix(1) == [#"["f","long"]"#])
        #expect(h.sends.count == 5)
    }

    // MARK: - Offline

    @Test func aPollWhileOfflineIsPausedAndContinuesOnceOnReconnect() {
        let h = EngineHarness()
        h.register("o")
        let (id, _) = h.subscribe(key("o"), ["refetchInterval": 100])
        h.answer(key("o"), 1)
        h.cache.setOnline(false)
        h.advance(100)
        #expect(h.stateText(key("o")) == "success/paused data=1")
        h.advance(300)
        #expect(h.sendTimes(for: key("o")) == [0])
        h.cache.setOnline(true)
        #expect(h.sendTimes(for: key("o")) == [0, 400])
        #expect(h.sends.map(\.attemptNumber) == [1, 1])
        h.answer(key("o"), 2)
        #expect(
            h.trace(of: id) == [
                "success/idle data=1", "success/paused data=1", "success/fetching data=1", "success/idle data=2",
            ])
        #expect(h.pushes(of: id)[1].isPaused && !h.pushes(of: id)[1].isFetching)
    }

    @Test func aWaitingFetchSurvivesAnOfflineRetryPauseAndSettlesAfterReconnect() {
        let h = EngineHarness()
        h.register("r")
        let outcome = h.fetch(key("r"), ["retry": 1, "retryDelay": 10])
        h.fail(key("r"))
        h.cache.setOnline(false)
        h.advance(10)
        #expect(h.stateText(key("r")) == "pending/paused failures=1")
        h.advance(1000)
        #expect(outcome.results.isEmpty)
        #expect(h.sends.count == 1)
        h.cache.setOnline(true)
        #expect(h.sends.map(\.attemptNumber) == [1, 2])
        h.answer(key("r"), "ok")
        #expect(outcome.value.map { describe($0) } == "success/idle data=\"ok\"")
    }

    @Test func focusWhileOfflinePausesTheRefetch() {
        let h = EngineHarness()
        h.register("o")
        h.subscribe(key("o"))
        h.answer(key("o"), 1)
        h.cache.setOnline(false)
        h.cache.setFocused(false, connection: EngineHarness.client)
        h.cache.setFocused(true, connection: EngineHarness.client)
        #expect(h.stateText(key("o")) == "success/paused data=1")
        #expect(h.sends.count == 1)
        h.cache.setOnline(true)
        #expect(h.sends.count == 2)
    }

    @Test func reconnectSkipsDisabledSubscriptions() {
        let h = EngineHarness()
        h.register("o")
        h.set(key("o"), 1)
        h.subscribe(key("o"), ["enabled": false, "refetchOnReconnect": "always"])
        h.cache.setOnline(false)
        h.cache.setOnline(true)
        #expect(h.sends.isEmpty)
    }

    // MARK: - notifyOnChangeProps

    @Test func B096_notifyOnDataUpdatedAtPushesAnEqualRefetchButNotItsStart() {
        let h = EngineHarness()
        h.register("n")
        let (byTime, _) = h.subscribe(key("n"), ["notifyOnChangeProps": ["dataUpdatedAt"]])
        let (byData, _) = h.subscribe(key("n"), ["notifyOnChangeProps": ["data"]])
        let (all, _) = h.subscribe(key("n"), ["notifyOnChangeProps": "all"])
        h.answer(key("n"), [1])
        h.advance(100)
        h.refetch(byTime)
        h.advance(50)
        h.answer(key("n"), [1])
        #expect(h.pushTimes(of: byTime) == [0, 150])
        #expect(h.pushes(of: byTime).map(\.dataUpdatedAt) == [h.start, h.start + 150])
        #expect(h.trace(of: byTime) == ["success/idle data=[1]", "success/idle data=[1]"])
        #expect(h.pushTimes(of: byData) == [0])
        #expect(h.trace(of: all) == ["success/idle data=[1]", "success/fetching data=[1]", "success/idle data=[1]"])
    }

    @Test func notifyOnIsStaleOnlyPushesStalenessFlips() {
        let h = EngineHarness()
        h.register("n")
        let (id, _) = h.subscribe(key("n"), ["notifyOnChangeProps": ["isStale"], "staleTime": 100])
        h.answer(key("n"), 1)
        #expect(h.trace(of: id, stale: true) == ["success/idle data=1 fresh"])
        h.advance(100)
        h.refetch(id)
        h.answer(key("n"), 2)
        #expect(
            h.trace(of: id, stale: true) == [
                "success/idle data=1 fresh", "success/idle data=1 stale", "success/idle data=2 fresh",
            ])
        #expect(h.pushTimes(of: id) == [0, 100, 100])
    }

    @Test func B086_anUnchangedSelectProjectionIsNotADataChange() {
        let h = EngineHarness()
        h.register("n")
        let (id, _) = h.subscribe(key("n"), ["select": "/a", "notifyOnChangeProps": ["data"]])
        h.answer(key("n"), ["a": 1, "x": 1])
        h.refetch(id)
        h.answer(key("n"), ["a": 1, "x": 2])
        #expect(h.trace(of: id) == ["success/idle data=1"])
        h.refetch(id)
        h.answer(key("n"), ["a": 2, "x": 2])
        #expect(h.trace(of: id) == ["success/idle data=1", "success/idle data=2"])
    }

    @Test func anEmptyNotifyOnChangePropsListIsNeverNotified() {
        let h = EngineHarness()
        h.register("n")
        let (id, _) = h.subscribe(key("n"), ["notifyOnChangeProps": []])
        h.answer(key("n"), 1)
        h.set(key("n"), 2)
        #expect(h.pushes(of: id).isEmpty)
        #expect(h.setOptions(id, nil).map { describe($0) } == "success/idle data=2")
    }

    /// `version` is a state field, and it changes with every change of the query's state: listing it
    /// must notify on every change (or the name must be refused), never silence the subscription.
    @Test func notifyOnVersionIsNotSilent() {
        let h = EngineHarness()
        h.register("n")
        guard (try? QueryOptions(json: ["notifyOnChangeProps": ["version"]])) != nil else { return }
        let (id, _) = h.subscribe(key("n"), ["notifyOnChangeProps": ["version"]])
        h.answer(key("n"), 1)
        #expect(h.trace(of: id) == ["success/idle data=1"])
    }

    @Test func unknownNotifyOnChangePropsNamesAreRejected() {
        do {
            _ = try QueryOptions(json: ["notifyOnChangeProps": ["data", "nope"]])
            Issue.record("an unknown state field was accepted")
        } catch {
            #expect(error.field == "options.notifyOnChangeProps")
            #expect(error.reason == "\"nope\" is not a state field")
        }
    }

    // MARK: - Streaming

    @Test func progressFromAReplacedAttemptIsIgnored() {
        let h = EngineHarness()
        h.register("s")
        let (id, _) = h.subscribe(key("s"))
        h.answer(key("s"), [0])
        h.refetch(id)
        let replaced = h.sends[1].attempt
        h.refetch(id, cancelRefetch: true)
        #expect(h.cancels == [replaced])
        h.cache.attemptProgressed(replaced, data: ["late"])
        #expect(h.stateText(key("s")) == "success/fetching data=[0]")
        h.cache.attemptProgressed(h.sends[2].attempt, data: [1])
        h.answer(key("s"), [1, 2])
        #expect(h.trace(of: id).suffix(2) == ["success/fetching data=[1]", "success/idle data=[1,2]"])
    }

    @Test func chunksOfARefetchReplaceTheDataAndCountAsUpdates() {
        let h = EngineHarness()
        h.register("s")
        let (id, _) = h.subscribe(key("s"))
        h.answer(key("s"), ["old"])
        h.refetch(id)
        h.advance(10)
        h.cache.attemptProgressed(h.sends[1].attempt, data: ["a"])
        #expect(h.trace(of: id).last == "success/fetching data=[\"a\"]")
        #expect(h.pushes(of: id).last?.dataUpdatedAt == h.start + 10)
        #expect(h.pushes(of: id).last?.dataUpdateCount == 2)
        h.answer(key("s"), ["a", "b"])
        #expect(h.pushes(of: id).last?.dataUpdateCount == 3)
    }

    @Test func B145_cancelWithRevertKeepsTheChunksReceived() {
        let h = EngineHarness()
        h.register("s")
        let (id, _) = h.subscribe(key("s"))
        h.cache.attemptProgressed(h.sends[0].attempt, data: [0])
        h.cache.cancel(key: key("s"), revert: true)
        #expect(h.stateText(key("s")) == "success/idle data=[0]")
        #expect(h.trace(of: id) == ["success/fetching data=[0]", "success/idle data=[0]"])
    }

    @Test func aFailedStreamKeepsItsLastChunkAsData() {
        let h = EngineHarness()
        h.register("s")
        let (id, _) = h.subscribe(key("s"), ["retry": 0])
        h.cache.attemptProgressed(h.sends[0].attempt, data: [0])
        h.fail(key("s"))
        #expect(
            h.trace(of: id) == ["success/fetching data=[0]", "error/idle data=[0] error=-32001 failures=1 invalidated"])
    }

    @Test func anAbandonedNonCancellableStreamKeepsFillingTheCache() {
        let h = EngineHarness()
        h.register("s")
        let (id, _) = h.subscribe(key("s"))
        h.unsubscribe(id)
        h.cache.attemptProgressed(h.sends[0].attempt, data: [0])
        #expect(h.stateText(key("s")) == "success/fetching data=[0]")
        h.answer(key("s"), [0, 1])
        #expect(h.stateText(key("s")) == "success/idle data=[0,1]")
        #expect(h.cancels.isEmpty)
    }

    // MARK: - events.emit

    @Test func emitRefetchesFreshDataAndPausesWhileOffline() {
        let h = EngineHarness()
        h.register("e")
        h.subscribe(key("e", 2), ["refetchOn": ["saved"], "staleTime": 60000])
        h.subscribe(key("e", 1), ["refetchOn": ["saved", "other"], "staleTime": 60000])
        h.answer(key("e", 2), 1)
        h.answer(key("e", 1), 1)
        #expect(h.cache.emit("saved") == 2)
        #expect(h.sends.map(\.key.description) == [#"["e",2]"#, #"["e",1]"#, #"["e",1]"#, #"["e",2]"#])
        h.answer(key("e", 1), 2)
        h.answer(key("e", 2), 2)
        h.cache.setOnline(false)
        #expect(h.cache.emit("other") == 1)
        #expect(h.stateText(key("e", 1)) == "success/paused data=2")
        #expect(h.sends.count == 4)
        #expect(h.cache.emit("nobody") == 0)
    }
}
