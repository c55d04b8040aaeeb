// Per-subscription options beyond staleness: notifyOnChangeProps (B096), placeholder "previous"
// (B091), named events (`events.emit`), and streamed partial data (B143, B145).

import QuerydCore
import QuerydJSON
import Testing

@Suite struct ObserverOptionTests {
    @Test func B096_notifyOnChangePropsDataIgnoresEqualRefetches() {
        let h = EngineHarness()
        h.register("o")
        let (id, _) = h.subscribe(key("o"), ["notifyOnChangeProps": ["data"]])
        h.answer(key("o"), [1])
        #expect(h.pushes(of: id).count == 1)
        h.refetch(id)
        h.answer(key("o"), [1])
        #expect(h.pushes(of: id).count == 1)
        h.refetch(id)
        h.answer(key("o"), [2])
        #expect(h.pushes(of: id).count == 2)
        #expect(h.pushes(of: id).last?.data == [2])
    }

    @Test func B091_placeholderPreviousKeepsTheOldKeysDataUntilTheNewArrives() {
        let h = EngineHarness()
        h.register("page")
        let (id, _) = h.subscribe(key("page", 1), ["placeholderData": "previous"])
        h.answer(key("page", 1), "one")
        let switched = h.setOptions(id, key: key("page", 2), nil)
        #expect(switched.map { describe($0) } == "success/fetching data=\"one\" placeholder")
        #expect(h.cache.query(key("page", 2))?.state.data == nil)
        h.answer(key("page", 2), "two")
        #expect(h.pushes(of: id).last.map { describe($0) } == "success/idle data=\"two\"")
    }

    @Test func emitRefetchesQueriesListeningForTheEventOnce() {
        let h = EngineHarness()
        h.register("e")
        h.subscribe(key("e", 1), ["refetchOn": ["saved"]])
        h.subscribe(key("e", 1), ["refetchOn": ["saved"]], connection: EngineHarness.otherClient)
        h.subscribe(key("e", 2), ["refetchOn": ["other"]])
        h.subscribe(key("e", 3), ["refetchOn": ["saved"], "enabled": false])
        h.answer(key("e", 1), 1)
        h.answer(key("e", 2), 1)
        #expect(h.cache.emit("saved") == 1)
        #expect(h.sends.map(\.key.description) == [#"["e",1]"#, #"["e",2]"#, #"["e",1]"#])
    }

    @Test func B143_streamedChunksArePublishedWhileFetching() {
        let h = EngineHarness()
        h.register("s")
        let (id, first) = h.subscribe(key("s"))
        #expect(describe(first) == "pending/fetching")
        let attempt = h.sends[0].attempt
        h.cache.attemptProgressed(attempt, data: [0])
        h.cache.attemptProgressed(attempt, data: [0, 1])
        h.answer(key("s"), [0, 1, 2])
        #expect(
            h.trace(of: id) == [
                "success/fetching data=[0]", "success/fetching data=[0,1]", "success/idle data=[0,1,2]",
            ])
    }

    @Test func B145_cancellingAStreamKeepsTheChunksReceived() {
        let h = EngineHarness()
        h.register("s", cancellable: true)
        let (id, _) = h.subscribe(key("s"))
        h.cache.attemptProgressed(h.sends[0].attempt, data: [0])
        h.unsubscribe(id)
        #expect(h.stateText(key("s")) == "success/idle data=[0]")
        #expect(h.cancels.count == 1)
    }
}
