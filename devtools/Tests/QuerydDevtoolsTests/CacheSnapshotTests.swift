// The cache as the watch describes it: the snapshot of a `cache.watch` result, with the events applied after it.

import QuerydDevtools
import Testing

@Suite struct CacheSnapshotTests {
    let result: JSON = [
        "watch": 1,
        "queries": [
            ["key": ["a"], "fetchStatus": "idle", "version": 1],
            ["key": ["b"], "fetchStatus": "fetching", "version": 1],
            ["key": ["p"], "fetchStatus": "paused", "version": 1],
        ],
        "fetchers": [["id": 2, "connection": 1, "prefix": ["b"], "exact": false, "inFlight": 1]],
        "mutators": [], "mutations": [["id": 1, "key": ["m"], "status": "success"]],
    ]

    @Test func theSnapshotHasTheQueriesRegistrationsAndWhatIsInFlight() {
        let snapshot = CacheSnapshot(watchResult: result)
        #expect(
            snapshot.message.text
                == #"{"fetchers":[{"connection":1,"exact":false,"id":2,"inFlight":1,"prefix":["b"]}],"fetches":[["b"],["p"]],"#
                + #""mutations":[],"mutators":[],"queries":[{"fetchStatus":"idle","key":["a"],"version":1},"#
                + #"{"fetchStatus":"fetching","key":["b"],"version":1},"#
                + #"{"fetchStatus":"paused","key":["p"],"version":1}],"type":"snapshot"}"#)
    }

    @Test func eventsAddChangeAndRemove() {
        var snapshot = CacheSnapshot(watchResult: result)
        snapshot.apply([
            ["type": "query.added", "state": ["key": ["c"], "version": 1]],
            ["type": "query.changed", "state": ["key": ["a"], "version": 2]],
            ["type": "query.removed", "key": ["b"]],
            ["type": "fetch.settled", "key": ["b"], "succeeded": true],
            ["type": "fetch.started", "key": ["c"]],
            ["type": "fetcher.unregistered", "id": 2, "connection": 1, "prefix": ["b"], "exact": false, "inFlight": 0],
            ["type": "mutator.registered", "id": 3, "connection": 1, "prefix": ["m"], "exact": false, "inFlight": 0],
            ["type": "mutation.started", "mutation": ["id": 2, "key": ["m"], "status": "pending"]],
        ])
        #expect(snapshot.states[#"["a"]"#] == ["key": ["a"], "version": 2])
        #expect(snapshot.states[#"["b"]"#] == nil && snapshot.states[#"["c"]"#] == ["key": ["c"], "version": 1])
        #expect(snapshot.fetches == [#"["c"]"#: ["c"], #"["p"]"#: ["p"]])
        #expect(snapshot.fetchers.isEmpty)
        #expect(snapshot.mutators == [3: ["id": 3, "connection": 1, "prefix": ["m"], "exact": false, "inFlight": 0]])
        #expect(snapshot.mutations == [2: ["id": 2, "key": ["m"], "status": "pending"]])
        snapshot.apply([["type": "mutation.settled", "mutation": ["id": 2, "key": ["m"], "status": "success"]]])
        #expect(snapshot.mutations.isEmpty)
    }
}
