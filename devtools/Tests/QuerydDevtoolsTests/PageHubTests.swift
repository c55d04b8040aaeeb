// The hub: a joining page gets the snapshot, then changes; a page that stops reading is dropped at its backlog.

import QuerydDevtools
import Testing

@Suite struct PageHubTests {
    func snapshot(_ version: Int64) -> CacheSnapshot {
        CacheSnapshot(states: [["key": ["a"], "version": .integer(version)]], staleKeys: [], stats: [:])
    }

    @Test func aPageGetsTheSnapshotThenChanges() async {
        let hub = PageHub()
        await hub.publish(snapshot(1))
        let (id, messages) = await hub.join()
        await hub.publish(snapshot(2))
        await hub.leave(id)
        var received: [String] = []
        for await message in messages { received.append(message) }
        #expect(received.count == 2)
        #expect(received.first?.contains(#""type":"snapshot""#) == true)
        #expect(received.last?.contains(#""upsert":[{"key":["a"],"stale":false,"version":2}]"#) == true)
    }

    @Test func aPageThatDoesNotReadIsDroppedAtItsBacklog() async {
        let hub = PageHub(backlog: 4)
        let (_, messages) = await hub.join()
        for version in 1...10 { await hub.publish(snapshot(Int64(version))) }
        #expect(await hub.isWatched == false)
        var count = 0
        for await _ in messages { count += 1 }
        #expect(count == 4)
    }

    @Test func aFailureIsToldOnceAndTheNextSuccessIsAWholeSnapshot() async {
        let hub = PageHub()
        let (id, messages) = await hub.join()
        await hub.publish(snapshot(1))
        await hub.publish(failure: "gone")
        await hub.publish(failure: "gone")
        await hub.publish(snapshot(2))
        await hub.leave(id)
        var types: [String] = []
        for await message in messages { types.append(message.contains("snapshot") ? "snapshot" : message) }
        #expect(types == ["snapshot", #"{"reason":"gone","type":"disconnected"}"#, "snapshot"])
    }
}
