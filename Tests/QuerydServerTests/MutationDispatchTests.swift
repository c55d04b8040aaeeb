// Mutations through in-memory sessions: the `mutate` request a mutator gets, the optimistic
// `query.changed` pushes and their rollback, -32007 answers, `mutation.changed` pushes,
// `mutations.list`, `network.setOnline` and parameter errors.

import QuerydCore
import QuerydJSON
import Testing

@testable import QuerydServer

@Suite struct MutationDispatchTests {
    /// Answers the server's request `request` with `result` or `error` (a JSON-RPC error object).
    @discardableResult
    private func answer(_ client: TestClient, _ request: JSONValue, result: JSONValue? = nil, error: JSONValue? = nil)
        -> [JSONValue]
    {
        var message: [String: JSONValue] = ["jsonrpc": "2.0", "id": request["id"]!]
        if let result { message["result"] = result }
        if let error { message["error"] = error }
        return client.send(JSONValue.object(message).encodedString + "\n")
    }

    @Test func optimisticWriteIsPushedAndRolledBackWhenTheMutatorFails() {
        let test = TestServer()
        let mutator = test.connect()
        let watcher = test.connect()
        let caller = test.connect()
        #expect(mutator.call("mutator.register", ["key": ["todos"]]) == ["mutator": 1])
        _ = caller.call("query.set", ["key": ["todos", "list"], "data": ["a"]])
        let subscribed = watcher.call("query.subscribe", ["key": ["todos", "list"], "options": ["staleTime": 60000]])
        let sub = subscribed?["subscription"]
        #expect(
            caller.request(
                "mutation.run",
                [
                    "key": ["todos", "add"], "variables": ["title": "b"],
                    "options": ["optimistic": [["key": ["todos", "list"], "data": ["a", "b"]]]],
                ]
            ).isEmpty)
        let pushed = watcher.drain()
        #expect(pushed.count == 1)
        #expect(pushed.first?["method"] == "query.changed")
        #expect(pushed.first?["params"]?["subscription"] == sub)
        #expect(pushed.first?["params"]?["state"]?["data"] == ["a", "b"])
        let requests = mutator.drain()
        #expect(requests.count == 1)
        #expect(requests.first?["method"] == "mutate")
        #expect(
            requests.first?["params"] == [
                "mutator": 1, "key": ["todos", "add"], "variables": ["title": "b"], "attempt": 1,
            ])
        answer(mutator, requests[0], error: ["code": 500, "message": "db down"])
        let reply = caller.drain()
        #expect(reply.count == 1)
        #expect(
            reply.first?["error"] == [
                "code": -32007, "message": "Mutation failed", "data": ["code": 500, "message": "db down"],
            ])
        let rolledBack = watcher.drain()
        #expect(rolledBack.count == 1)
        #expect(rolledBack.first?["params"]?["state"]?["data"] == ["a"])
        #expect(rolledBack.first?["params"]?["state"]?["dataUpdateCount"] == 1)
        #expect(rolledBack.first?["params"]?["state"]?["dataUpdatedAt"] == 1_700_000_000_000)
    }

    @Test func mutationChangedPushesAndTheListShowThePendingMutation() {
        let test = TestServer()
        let mutator = test.connect()
        let watcher = test.connect()
        let caller = test.connect()
        _ = mutator.call("mutator.register", ["key": ["m"], "exact": true])
        let subscribed = watcher.call("mutation.subscribe", ["filter": ["key": ["m"]]])
        #expect(subscribed?["mutations"] == [])
        let sub = subscribed?["subscription"]
        caller.request("mutation.run", ["key": ["m"], "options": ["scope": "s"]])
        let pending: JSONValue = [
            "id": 1, "key": ["m"], "status": "pending", "variables": nil, "error": nil, "failureCount": 0,
            "failureReason": nil, "isPaused": false, "submittedAt": 1_700_000_000_000, "scope": "s", "version": 1,
        ]
        #expect(
            watcher.drain() == [
                [
                    "jsonrpc": "2.0", "method": "mutation.changed",
                    "params": ["subscription": sub!, "mutation": pending],
                ]
            ])
        #expect(caller.call("mutations.list", ["filter": ["status": "pending"]]) == [pending])
        let request = mutator.drain()[0]
        #expect(request["params"]?["variables"] == .null)
        answer(mutator, request, result: ["data": ["ok": true]])
        #expect(caller.drain().first?["result"] == ["data": ["ok": true]])
        let done = watcher.drain()
        #expect(done.count == 1)
        #expect(done.first?["params"]?["mutation"]?["status"] == "success")
        #expect(done.first?["params"]?["mutation"]?["data"] == ["ok": true])
        #expect(done.first?["params"]?["mutation"]?["version"] == 2)
        #expect(watcher.call("mutation.unsubscribe", ["subscription": sub!]) == [:])
        #expect(watcher.request("mutation.unsubscribe", ["subscription": sub!]).first?["error"]?["code"] == -32005)
    }

    @Test func offlineMutationsWaitForTheNetwork() {
        let test = TestServer()
        let mutator = test.connect()
        let caller = test.connect()
        _ = mutator.call("mutator.register", ["key": []])
        #expect(caller.call("network.setOnline", ["online": false]) == [:])
        caller.request("mutation.run", ["key": ["a"], "variables": 1])
        caller.request("mutation.run", ["key": ["b"], "variables": 2])
        #expect(mutator.drain().isEmpty)
        let listed = caller.call("mutations.list")?.arrayValue ?? []
        #expect(listed.map { $0["isPaused"] } == [true, true])
        #expect(caller.call("network.setOnline", ["online": true]) == [:])
        #expect(mutator.drain().map { $0["params"]?["variables"] } == [1, 2])
    }

    @Test func aMutatorThatDisconnectsFailsItsAttempt() {
        let test = TestServer()
        let mutator = test.connect()
        let caller = test.connect()
        _ = mutator.call("mutator.register", ["key": ["d"]])
        caller.request("mutation.run", ["key": ["d"]])
        #expect(mutator.drain().count == 1)
        mutator.session.transportClosed()
        #expect(
            caller.drain().first?["error"] == [
                "code": -32007, "message": "Mutation failed",
                "data": ["code": -32002, "message": "Mutator disconnected"],
            ])
    }

    @Test func badParamsAreRejectedWithTheField() {
        let client = TestServer().connect()
        let cases: [(String, JSONValue, String)] = [
            ("mutation.run", ["key": "x"], "key"),
            ("mutation.run", ["key": ["x"], "options": ["retry": -1]], "options.retry"),
            (
                "mutation.run", ["key": ["x"], "options": ["optimistic": [["key": ["q"]]]]],
                "options.optimistic[0].data"
            ),
            (
                "mutation.run", ["key": ["x"], "options": ["setData": [["key": ["q"], "fromResult": "x"]]]],
                "options.setData[0].fromResult"
            ),
            ("mutation.run", ["key": ["x"], "options": ["invalidate": [["stale": 1]]]], "options.invalidate[0].stale"),
            ("mutation.run", ["key": ["x"], "options": ["flag": true]], "options.flag"),
            ("mutation.subscribe", ["filter": ["status": "done"]], "filter.status"),
            ("mutator.register", ["key": ["x"], "cancellable": true], "cancellable"),
            ("network.setOnline", [:], "online"),
        ]
        for (method, params, field) in cases {
            let error = client.request(method, params).first?["error"]
            #expect(error?["code"] == -32602, "\(method) \(params)")
            #expect(error?["data"]?["field"] == .string(field), "\(method) \(params): \(String(describing: error))")
        }
        #expect(client.request("mutator.unregister", ["mutator": 9]).first?["error"]?["code"] == -32005)
    }
}
