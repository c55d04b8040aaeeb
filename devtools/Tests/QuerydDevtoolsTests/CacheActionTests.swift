// The page's action messages and the daemon calls they become.

import QuerydDevtools
import Testing

@Suite struct CacheActionTests {
    @Test func mapsEachVerbToItsMethodOnThatKeyAlone() {
        let filter: JSON = ["filter": ["key": ["todos", 1], "exact": true]]
        for (verb, method) in [
            ("refetch", "queries.refetch"), ("invalidate", "queries.invalidate"), ("reset", "queries.reset"),
            ("remove", "queries.remove"),
        ] {
            let action = CacheAction(message: ["id": 1, "action": .string(verb), "key": ["todos", 1]])
            #expect(action?.request.method == method)
            #expect(action?.request.params == filter)
        }
        let set = CacheAction(message: ["action": "set", "key": ["todos"], "data": ["done": true]])
        #expect(set?.request.method == "query.set")
        #expect(set?.request.params == ["key": ["todos"], "data": ["done": true]])
    }

    @Test func refusesMalformedMessages() {
        #expect(CacheAction(message: ["action": "explode", "key": ["todos"]]) == nil)
        #expect(CacheAction(message: ["action": "remove", "key": "todos"]) == nil)
        #expect(CacheAction(message: ["action": "remove"]) == nil)
        #expect(CacheAction(message: ["action": "set", "key": ["todos"]]) == nil)
        #expect(CacheAction(message: ["todos"]) == nil)
    }
}
