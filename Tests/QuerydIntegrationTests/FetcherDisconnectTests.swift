// fetcher_disconnects_mid_fetch: the retry moves to another fetcher, or the query pauses until
// a new fetcher registers.

import QuerydJSON
import Testing

@Suite("Fetcher disconnects")
struct FetcherDisconnectTests {
    @Test("fetcher_disconnects_mid_fetch with a second fetcher registered: the retry goes to the second")
    func retryMovesToSecondFetcher() throws {
        try withDaemon(["--manual-clock"]) { daemon, control in
            let gone = try daemon.connect()
            let goneID = try gone.registerFetcher(["x"])
            let caller = try daemon.connect()
            let callID = try caller.sendRequest(
                "query.fetch", ["key": ["x", 1], "options": ["retry": 1, "retryDelay": 100]])
            _ = try gone.expectFetch(fetcher: goneID, key: ["x", 1])
            let backup = try daemon.connect()
            let backupID = try backup.registerFetcher(["x"])
            gone.close()
            try control.waitForStats("fetchers", toBe: 1)
            try control.advance(100, to: clockStart + 100)
            let request = try backup.expectFetch(fetcher: backupID, key: ["x", 1], attempt: 2)
            try backup.respond(id: request, result: ["data": "from backup"])
            expectJSON(
                try caller.awaitResponse(id: callID),
                [
                    "jsonrpc": "2.0", "id": callID,
                    "result": successState(["x", 1], data: "from backup", at: clockStart + 100),
                ])
            let stats = try control.result("server.stats", [:])
            #expect(stats.member("fetchers") == 1, "the disconnected fetcher must be gone: \(stats)")
        }
    }

    @Test("fetcher_disconnects_mid_fetch with no other fetcher: the query pauses, then resumes on register")
    func queryPausesUntilAFetcherRegisters() throws {
        try withDaemon(["--manual-clock"]) { daemon, control in
            let gone = try daemon.connect()
            let goneID = try gone.registerFetcher(["y"])
            let caller = try daemon.connect()
            let callID = try caller.sendRequest(
                "query.fetch", ["key": ["y"], "options": ["retry": 1, "retryDelay": 100]])
            _ = try gone.expectFetch(fetcher: goneID, key: ["y"])
            gone.close()
            try control.waitForStats("fetchers", toBe: 0)
            try control.advance(100, to: clockStart + 100)
            let listed = try control.result("queries.list", ["filter": ["key": ["y"]]])
            let row = listed.item(0) ?? nil
            #expect(listed.asArray?.count == 1, "\(listed)")
            #expect(row.member("fetchStatus") == "paused" && row.member("isPaused") == true, "\(listed)")
            #expect(row.member("status") == "pending" && row.member("failureCount") == 1, "\(listed)")
            #expect(row.member("observers") == 0, "\(listed)")
            try caller.expectSilence()
            let fresh = try daemon.connect()
            let freshID = try fresh.registerFetcher(["y"])
            let request = try fresh.expectFetch(fetcher: freshID, key: ["y"], attempt: 2)
            try fresh.respond(id: request, result: ["data": [1, 2]])
            expectJSON(
                try caller.awaitResponse(id: callID),
                ["jsonrpc": "2.0", "id": callID, "result": successState(["y"], data: [1, 2], at: clockStart + 100)])
        }
    }

    @Test("connection_drop_while_fetch_in_flight: a caller that disconnects does not disturb the others")
    func callerDropsWhileFetchInFlight() throws {
        try withDaemon(["--manual-clock"]) { daemon, fetcher in
            let fid = try fetcher.registerFetcher(["z"])
            let leaver = try daemon.connect()
            try leaver.sendRequest("query.fetch", ["key": ["z"]])
            let request = try fetcher.expectFetch(fetcher: fid, key: ["z"])
            let stayer = try daemon.connect()
            let stayID = try stayer.sendRequest("query.fetch", ["key": ["z"]])
            try stayer.expectHealthy()
            leaver.close()
            try fetcher.expectHealthy()
            try fetcher.respond(id: request, result: ["data": "kept"])
            expectJSON(
                try stayer.awaitResponse(id: stayID),
                ["jsonrpc": "2.0", "id": stayID, "result": successState(["z"], data: "kept")])
            try fetcher.expectSilence()
            try fetcher.waitForStats("connections", toBe: 2)
            try fetcher.waitForStats("pendingRequests", toBe: 0)
        }
    }
}
