// networkMode over the wire (manual clock): "always" fetches and mutates while offline and does not
// refetch on reconnect by default; "offlineFirst" makes the first attempt offline and pauses its
// retries until the network is back; "online" (the default) pauses at once; bad values are -32602.

import QuerydJSON
import Testing

@Suite("Network modes")
struct NetworkModeTests {
    @Test(
        "offline: always fetches and mutates, offlineFirst pauses its retry, online pauses; back online both continue")
    func modesWhileOffline() throws {
        try withDaemon(["--manual-clock"]) { daemon, server in
            let fid = try server.registerFetcher(["local"])
            _ = try server.result("mutator.register", ["key": ["local"]])
            let client = try daemon.connect()
            #expect(try client.result("network.setOnline", ["online": false]) == [:])

            let always = try client.result(
                "query.subscribe", ["key": ["local", "db"], "options": ["networkMode": "always"]])
            expectJSON(always.member("state") ?? nil, queryState(["local", "db"], fetchStatus: "fetching"))
            try server.respond(id: try server.expectFetch(fetcher: fid, key: ["local", "db"]), result: ["data": 1])
            try client.expectPush(always.member("subscription")!, successState(["local", "db"], data: 1))

            let firstOnly = try client.result(
                "query.subscribe",
                ["key": ["local", "remote"], "options": ["networkMode": "offlineFirst", "retryDelay": 10]])
            let remote = firstOnly.member("subscription")!
            let attempt = try server.expectFetch(fetcher: fid, key: ["local", "remote"])
            try server.respondError(id: attempt, code: 503, message: "offline")
            let reason = fetchFailed(["code": 503, "message": "offline"])
            try client.expectPush(
                remote,
                queryState(["local", "remote"], fetchStatus: "fetching", failureCount: 1, failureReason: reason))
            try client.advance(10, to: clockStart + 10)
            try client.expectPush(
                remote, queryState(["local", "remote"], fetchStatus: "paused", failureCount: 1, failureReason: reason))
            try server.expectSilence()

            let mutation = try client.sendRequest(
                "mutation.run", ["key": ["local", "save"], "variables": 5, "options": ["networkMode": "always"]])
            let mutate = try server.nextRequest(method: "mutate")
            try server.respond(id: mutate.member("id")!, result: ["data": "saved"])
            expectJSON(
                try client.awaitResponse(id: mutation), ["jsonrpc": "2.0", "id": mutation, "result": ["data": "saved"]])

            #expect(try client.result("network.setOnline", ["online": true]) == [:])
            // Only the paused retry goes out: "always" does not refetch on reconnect by default.
            let retry = try server.expectFetch(fetcher: fid, key: ["local", "remote"], attempt: 2)
            try server.expectSilence()
            try server.respond(id: retry, result: ["data": 2])
            try client.expectPush(
                remote,
                queryState(["local", "remote"], fetchStatus: "fetching", failureCount: 1, failureReason: reason))
            try client.expectPush(remote, successState(["local", "remote"], data: 2, at: clockStart + 10))
            try client.expectSilence()
        }
    }

    @Test("networkMode other than online, always, offlineFirst is -32602 for queries and mutations")
    func badMode() throws {
        try withDaemon(["--manual-clock"]) { _, client in
            for (method, params) in [
                ("query.fetch", ["key": ["x"], "options": ["networkMode": "offline"]]),
                ("mutation.run", ["key": ["x"], "options": ["networkMode": true]]),
            ] as [(String, JSONValue)] {
                let reply = try client.call(method, params)
                #expect(reply.errorCode == -32602, "\(reply)")
                #expect(reply.member("error")?.member("data")?.member("field") == "options.networkMode", "\(reply)")
            }
        }
    }
}
