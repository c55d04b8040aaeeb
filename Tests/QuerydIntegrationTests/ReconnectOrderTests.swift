// The reconnect order over the wire (manual clock): when `network.setOnline {online:true}` brings
// the network back, the mutations paused while offline resume first and the queries refetch only
// after they settled (TanStack's `resumePausedMutations().then(onOnline)`, B114), so a refetch
// never shows data from before the offline write.

import QuerydJSON
import Testing

@Suite("Reconnect order")
struct ReconnectOrderTests {
    @Test("back online: mutation start, mutation end (50 ms later), then the reconnect refetch starts")
    func pausedMutationsResumeBeforeQueriesRefetch() throws {
        try withDaemon(["--manual-clock"]) { daemon, server in
            let fetcher = try server.registerFetcher(["todos"])
            let mutator = try server.result("mutator.register", ["key": ["todos"]]).member("mutator")!
            let client = try daemon.connect()
            let list = try client.subscribeAnswered(
                ["todos", "list"], fetcher: server, fid: fetcher, data: ["buy milk"])
            #expect(try client.result("network.setOnline", ["online": false]) == [:])
            let run = try client.sendRequest(
                "mutation.run", ["key": ["todos", "add"], "variables": ["title": "walk dog"]])
            try client.expectSilence()
            try server.expectSilence()

            #expect(try client.result("network.setOnline", ["online": true]) == [:])
            // Mutation start: the mutate request is the only thing the server connection gets.
            let mutate = try server.nextRequest(method: "mutate")
            expectJSON(
                mutate.member("params") ?? nil,
                ["mutator": mutator, "key": ["todos", "add"], "variables": ["title": "walk dog"], "attempt": 1])
            try server.expectSilence()
            try client.expectSilence()

            // The mutator takes 50 ms; its answer ends the mutation, and only then does the stale
            // list refetch (the fetcher answers at once).
            try client.advance(50, to: clockStart + 50)
            try server.expectSilence()
            try server.respond(id: mutate.member("id")!, result: ["data": ["id": 1]])
            expectJSON(
                try client.awaitResponse(id: run), ["jsonrpc": "2.0", "id": run, "result": ["data": ["id": 1]]])
            let refetch = try server.expectFetch(fetcher: fetcher, key: ["todos", "list"])
            try client.expectPush(
                list,
                queryState(
                    ["todos", "list"], status: "success", fetchStatus: "fetching", data: ["buy milk"],
                    dataUpdatedAt: clockStart, dataUpdateCount: 1))
            try server.respond(id: refetch, result: ["data": ["buy milk", "walk dog"]])
            try client.expectPush(
                list, successState(["todos", "list"], data: ["buy milk", "walk dog"], at: clockStart + 50, count: 2))
            try client.expectSilence()
            try server.expectSilence()
        }
    }

    @Test("back online with no paused mutation: the reconnect refetch starts at once")
    func noPausedMutationRefetchesAtOnce() throws {
        try withDaemon(["--manual-clock"]) { daemon, server in
            let fetcher = try server.registerFetcher(["n"])
            let client = try daemon.connect()
            _ = try client.subscribeAnswered(["n"], fetcher: server, fid: fetcher, data: 1)
            #expect(try client.result("network.setOnline", ["online": false]) == [:])
            #expect(try client.result("network.setOnline", ["online": true]) == [:])
            _ = try server.expectFetch(fetcher: fetcher, key: ["n"])
        }
    }

    @Test("offline again before the resumed mutation settles: its settling refetches nothing")
    func offlineAgainDropsTheWaitingRefetch() throws {
        try withDaemon(["--manual-clock"]) { daemon, server in
            let fetcher = try server.registerFetcher(["todos"])
            _ = try server.result("mutator.register", ["key": ["todos"]])
            let client = try daemon.connect()
            _ = try client.subscribeAnswered(["todos", "list"], fetcher: server, fid: fetcher, data: 1)
            #expect(try client.result("network.setOnline", ["online": false]) == [:])
            let run = try client.sendRequest("mutation.run", ["key": ["todos", "add"]])
            #expect(try client.result("network.setOnline", ["online": true]) == [:])
            let mutate = try server.nextRequest(method: "mutate")
            #expect(try client.result("network.setOnline", ["online": false]) == [:])
            try server.respond(id: mutate.member("id")!, result: ["data": 2])
            _ = try client.awaitResponse(id: run)
            try server.expectSilence()
            // The next reconnect has no paused mutation: it refetches at once.
            #expect(try client.result("network.setOnline", ["online": true]) == [:])
            _ = try server.expectFetch(fetcher: fetcher, key: ["todos", "list"])
        }
    }
}
