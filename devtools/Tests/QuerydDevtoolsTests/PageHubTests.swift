// The hub: a joining page gets the snapshot and the last stats, then the events; a page that stops reading is dropped
// at its backlog.

import QuerydDevtools
import Testing

@Suite struct PageHubTests {
    func snapshot(_ version: Int64) -> CacheSnapshot {
        CacheSnapshot(watchResult: ["queries": [["key": ["a"], "version": .integer(Int64(version))]]])
    }

    @Test func aPageGetsTheSnapshotThenEventsAndStats() async {
        let hub = PageHub()
        await hub.publish(snapshot(1))
        await hub.publish(events: [["type": "query.changed", "state": ["key": ["a"], "version": 2]]])
        let (id, messages) = await hub.join()
        await hub.publish(events: [["type": "query.removed", "key": ["a"]]])
        await hub.publish(stats: ["queries": 0], at: 5)
        await hub.leave(id)
        var received: [String] = []
        for await message in messages { received.append(message) }
        #expect(
            received == [
                #"{"fetchers":[],"fetches":[],"mutations":[],"mutators":[],"queries":[{"key":["a"],"version":2}],"#
                    + #""type":"snapshot"}"#,
                #"{"events":[{"key":["a"],"type":"query.removed"}],"type":"events"}"#,
                #"{"at":5,"stats":{"queries":0},"type":"stats"}"#,
            ])
    }

    @Test func aPageThatDoesNotReadIsDroppedAtItsBacklog() async {
        let hub = PageHub(backlog: 4)
        let (_, messages) = await hub.join()
        await hub.publish(snapshot(1))
        for version in 2...10 {
            await hub.publish(events: [
                ["type": "query.changed", "state": ["key": ["a"], "version": .integer(Int64(version))]]
            ])
        }
        #expect(await hub.isWatched == false)
        var count = 0
        for await _ in messages { count += 1 }
        #expect(count == 4)
    }

    @Test func aFailureIsToldOnceAndEventsWaitForTheNextSnapshot() async {
        let hub = PageHub()
        let (id, messages) = await hub.join()
        await hub.publish(snapshot(1))
        await hub.publish(failure: "gone")
        await hub.publish(failure: "gone")
        await hub.publish(events: [["type": "query.removed", "key": ["a"]]])
        await hub.publish(snapshot(2))
        await hub.leave(id)
        var types: [String] = []
        for await message in messages { types.append(message.contains("snapshot") ? "snapshot" : message) }
        #expect(types == ["snapshot", #"{"reason":"gone","type":"disconnected"}"#, "snapshot"])
    }
}
