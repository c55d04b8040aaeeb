// What the page is sent: a whole snapshot first, then only the states that changed and the keys removed.

import QuerydDevtools
import Testing

@Suite struct CacheSnapshotTests {
    let a: JSON = ["key": ["a"], "version": 1, "observers": 0]
    let b: JSON = ["key": ["b"], "version": 1, "observers": 0]

    @Test func marksTanStackStaleness() {
        let snapshot = CacheSnapshot(states: [a, b], staleKeys: [#"["b"]"#], stats: [:])
        #expect(snapshot.states[#"["a"]"#]?["stale"] == false)
        #expect(snapshot.states[#"["b"]"#]?["stale"] == true)
        #expect(
            snapshot.message.text
                == #"{"queries":[{"key":["a"],"observers":0,"stale":false,"version":1},"#
                + #"{"key":["b"],"observers":0,"stale":true,"version":1}],"stats":{},"type":"snapshot"}"#)
    }

    @Test func sendsWhatChanged() {
        let before = CacheSnapshot(states: [a, b], staleKeys: [], stats: ["queries": 2])
        let observed: JSON = ["key": ["a"], "version": 1, "observers": 1]
        let c: JSON = ["key": ["c"], "version": 1, "observers": 0]
        let after = CacheSnapshot(states: [observed, c], staleKeys: [], stats: ["queries": 2])
        #expect(
            after.changes(since: before).text
                == #"{"remove":[["b"]],"stats":{"queries":2},"type":"update","upsert":["#
                + #"{"key":["a"],"observers":1,"stale":false,"version":1},"#
                + #"{"key":["c"],"observers":0,"stale":false,"version":1}]}"#)
        #expect(after.changes(since: after).text == #"{"remove":[],"stats":{"queries":2},"type":"update","upsert":[]}"#)
        let nowStale = CacheSnapshot(states: [observed, c], staleKeys: [#"["c"]"#], stats: ["queries": 2])
        #expect(
            nowStale.changes(since: after)["upsert"] == [["key": ["c"], "observers": 0, "stale": true, "version": 1]])
    }
}
