// Refetch triggers over the wire (manual clock): `client.setFocused` per connection,
// `network.setOnline`, `refetchInterval` driven by `clock.advance`, streamed `fetch.progress`
// chunks, and named triggers with `events.emit`.

import QuerydJSON
import Testing

@Suite("Refetch triggers")
struct TriggerTests {
    @Test("client.setFocused: regaining focus refetches that connection's stale subscriptions only")
    func focusIsPerConnection() throws {
        try withDaemon(["--manual-clock"]) { daemon, fetcher in
            let fid = try fetcher.registerFetcher(["f"])
            let mine = try daemon.connect()
            let theirs = try daemon.connect()
            let stale = try mine.subscribeAnswered(["f", "stale"], fetcher: fetcher, fid: fid, data: 1)
            _ = try mine.subscribeAnswered(
                ["f", "fresh"], options: ["staleTime": 60000], fetcher: fetcher, fid: fid, data: 2)
            _ = try mine.subscribeAnswered(
                ["f", "off"], options: ["refetchOnFocus": false], fetcher: fetcher, fid: fid, data: 3)
            _ = try theirs.subscribeAnswered(["f", "theirs"], fetcher: fetcher, fid: fid, data: 4)

            // Focused already (the default): nothing happens.
            #expect(try mine.result("client.setFocused", ["focused": true]) == [:])
            #expect(try mine.result("client.setFocused", ["focused": false]) == [:])
            try fetcher.expectSilence()
            #expect(try mine.result("client.setFocused", ["focused": true]) == [:])
            let request = try fetcher.expectFetch(fetcher: fid, key: ["f", "stale"])
            expectJSON(
                try mine.nextNotification(method: "query.changed"),
                [
                    "jsonrpc": "2.0", "method": "query.changed",
                    "params": [
                        "subscription": stale,
                        "state": queryState(
                            ["f", "stale"], status: "success", fetchStatus: "fetching", data: 1,
                            dataUpdatedAt: clockStart, dataUpdateCount: 1),
                    ],
                ])
            try fetcher.expectSilence()
            try theirs.expectSilence()
            try fetcher.respond(id: request, result: ["data": 11])
            expectJSON(
                try mine.nextNotification(method: "query.changed"),
                [
                    "jsonrpc": "2.0", "method": "query.changed",
                    "params": ["subscription": stale, "state": successState(["f", "stale"], data: 11, count: 2)],
                ])
            try mine.expectSilence()
        }
    }

    @Test("client.setFocused and events.emit reject bad params with -32602")
    func badParams() throws {
        try withDaemon(["--manual-clock"]) { _, client in
            let cases: [(String, JSONValue, String)] = [
                ("client.setFocused", ["focused": "yes"], "focused"),
                ("client.setFocused", [:], "focused"),
                ("client.setFocused", ["focused": true, "window": 1], "window"),
                ("events.emit", ["name": ""], "name"),
                ("events.emit", ["name": 1], "name"),
                ("events.emit", ["name": "x", "data": 1], "data"),
            ]
            for (method, params, field) in cases {
                let reply = try client.call(method, params)
                #expect(reply.errorCode == -32602, "\(method) \(params): \(reply)")
                #expect(reply.member("error")?.member("data")?.member("field") == .string(field), "\(reply)")
            }
        }
    }

    @Test("network.setOnline false pauses a new fetch; true sends it and refetches stale refetchOnReconnect ones")
    func offlineThenOnline() throws {
        try withDaemon(["--manual-clock"]) { daemon, fetcher in
            let fid = try fetcher.registerFetcher(["n"])
            let client = try daemon.connect()
            let cached = try client.subscribeAnswered(["n", "cached"], fetcher: fetcher, fid: fid, data: 1)
            _ = try client.subscribeAnswered(
                ["n", "never"], options: ["refetchOnReconnect": false], fetcher: fetcher, fid: fid, data: 2)
            #expect(try client.result("network.setOnline", ["online": false]) == [:])
            let reply = try client.result("query.subscribe", ["key": ["n", "new"]])
            let paused = reply.member("subscription") ?? nil
            expectJSON(reply, ["subscription": paused, "state": queryState(["n", "new"], fetchStatus: "paused")])
            try fetcher.expectSilence()
            #expect(try client.result("network.setOnline", ["online": true]) == [:])
            // The paused fetch goes first, then the reconnect refetch of the stale cached query.
            let first = try fetcher.expectFetch(fetcher: fid, key: ["n", "new"])
            let second = try fetcher.expectFetch(fetcher: fid, key: ["n", "cached"])
            try fetcher.expectSilence()
            try client.expectPush(paused, queryState(["n", "new"], fetchStatus: "fetching"))
            try client.expectPush(
                cached,
                queryState(
                    ["n", "cached"], status: "success", fetchStatus: "fetching", data: 1, dataUpdatedAt: clockStart,
                    dataUpdateCount: 1))
            try fetcher.respond(id: first, result: ["data": "fresh"])
            try client.expectPush(paused, successState(["n", "new"], data: "fresh"))
            try fetcher.respond(id: second, result: ["data": 10])
            try client.expectPush(cached, successState(["n", "cached"], data: 10, count: 2))
            try client.expectSilence()
        }
    }

    @Test("refetchInterval on the manual clock: polls after each settle, none while unfocused, stops at unsubscribe")
    func polling() throws {
        try withDaemon(["--manual-clock"]) { daemon, fetcher in
            let fid = try fetcher.registerFetcher(["p"])
            let client = try daemon.connect()
            let control = try daemon.connect()
            let polled = try client.subscribeAnswered(
                ["p"], options: ["refetchInterval": 1000, "notifyOnChangeProps": ["data"]], fetcher: fetcher,
                fid: fid, data: 0)
            var now = clockStart
            for round in 1...2 {
                now += 999
                try control.advance(999, to: now)
                try fetcher.expectSilence()
                now += 1
                try control.advance(1, to: now)
                let request = try fetcher.expectFetch(fetcher: fid, key: ["p"])
                try fetcher.respond(id: request, result: ["data": .number(JSONNumber(round))])
                let pushed = try client.nextNotification(method: "query.changed")
                expectJSON(
                    pushed.member("params") ?? nil,
                    [
                        "subscription": polled,
                        "state": successState(["p"], data: .number(JSONNumber(round)), at: now, count: round + 1),
                    ])
            }
            #expect(try client.result("client.setFocused", ["focused": false]) == [:])
            now += 5000
            try control.advance(5000, to: now)
            try fetcher.expectSilence()
            // Back in focus: the data is stale, so refetchOnFocus fetches at once.
            #expect(try client.result("client.setFocused", ["focused": true]) == [:])
            let onFocus = try fetcher.expectFetch(fetcher: fid, key: ["p"])
            try fetcher.respond(id: onFocus, result: ["data": 3])
            _ = try client.nextNotification(method: "query.changed")
            #expect(try client.result("query.unsubscribe", ["subscription": polled]) == [:])
            now += 10000
            try control.advance(10000, to: now)
            try fetcher.expectSilence()
            try client.expectSilence()
        }
    }

    @Test("refetchIntervalInBackground polls while the subscribing connection is unfocused")
    func backgroundPolling() throws {
        try withDaemon(["--manual-clock"]) { daemon, fetcher in
            let fid = try fetcher.registerFetcher(["b"])
            let client = try daemon.connect()
            _ = try client.subscribeAnswered(
                ["b"], options: ["refetchInterval": 500, "refetchIntervalInBackground": true], fetcher: fetcher,
                fid: fid, data: 0)
            #expect(try client.result("client.setFocused", ["focused": false]) == [:])
            try client.advance(500, to: clockStart + 500)
            let request = try fetcher.expectFetch(fetcher: fid, key: ["b"])
            try fetcher.respond(id: request, result: ["data": 1])
            try fetcher.expectHealthy()
        }
    }

    @Test("fetch.progress: chunks reach subscribers at once with fetchStatus fetching; the answer ends the fetch")
    func streaming() throws {
        try withDaemon(["--manual-clock"]) { daemon, fetcher in
            let fid = try fetcher.registerFetcher(["s"])
            let client = try daemon.connect()
            let reply = try client.result("query.subscribe", ["key": ["s"]])
            let subscription = reply.member("subscription") ?? nil
            let request = try fetcher.expectFetch(fetcher: fid, key: ["s"])
            for (index, chunk) in ([[0], [0, 1]] as [JSONValue]).enumerated() {
                try fetcher.notify("fetch.progress", ["id": request, "data": chunk])
                expectJSON(
                    try client.nextNotification(method: "query.changed"),
                    [
                        "jsonrpc": "2.0", "method": "query.changed",
                        "params": [
                            "subscription": subscription,
                            "state": queryState(
                                ["s"], status: "success", fetchStatus: "fetching", data: chunk,
                                dataUpdatedAt: clockStart, dataUpdateCount: index + 1),
                        ],
                    ])
            }
            // A notification gets no reply; unknown ids and malformed params are ignored.
            try fetcher.notify("fetch.progress", ["id": 999, "data": ["stray"]])
            try fetcher.notify("fetch.progress", ["data": ["no id"]])
            try fetcher.expectSilence()
            try client.expectSilence()
            // Only the connection that got the request may stream for it.
            try client.notify("fetch.progress", ["id": request, "data": ["intruder"]])
            try client.expectSilence()
            try fetcher.respond(id: request, result: ["data": [0, 1, 2]])
            expectJSON(
                try client.nextNotification(method: "query.changed").member("params") ?? nil,
                ["subscription": subscription, "state": successState(["s"], data: [0, 1, 2], count: 3)])
            // After the answer, progress for that request is ignored.
            try fetcher.notify("fetch.progress", ["id": request, "data": ["late"]])
            try fetcher.expectSilence()
            try client.expectSilence()
            expectJSON(
                try client.result("query.get", ["key": ["s"]]), ["data": [0, 1, 2], "dataUpdatedAt": "$number"])
        }
    }

    @Test("events.emit refetches the queries whose enabled subscriptions list the event, once each")
    func namedTriggers() throws {
        try withDaemon(["--manual-clock"]) { daemon, fetcher in
            let fid = try fetcher.registerFetcher(["e"])
            let first = try daemon.connect()
            let second = try daemon.connect()
            let emitter = try daemon.connect()
            _ = try first.subscribeAnswered(
                ["e", 1], options: ["refetchOn": ["saved"], "staleTime": 60000], fetcher: fetcher, fid: fid, data: 1)
            _ = try second.result(
                "query.subscribe", ["key": ["e", 1], "options": ["refetchOn": ["saved"], "staleTime": 60000]])
            _ = try second.subscribeAnswered(
                ["e", 2], options: ["refetchOn": ["other"]], fetcher: fetcher, fid: fid, data: 2)
            _ = try second.result(
                "query.subscribe", ["key": ["e", 1], "options": ["refetchOn": ["saved"], "enabled": false]])
            #expect(try emitter.result("events.emit", ["name": "saved"]) == ["matched": 1])
            let request = try fetcher.expectFetch(fetcher: fid, key: ["e", 1])
            try fetcher.expectSilence()
            try fetcher.respond(id: request, result: ["data": 11])
            #expect(try emitter.result("events.emit", ["name": "nobody"]) == ["matched": 0])
            #expect(try emitter.result("events.emit", ["name": "other"]) == ["matched": 1])
            let other = try fetcher.expectFetch(fetcher: fid, key: ["e", 2])
            try fetcher.respond(id: other, result: ["data": 22])
            try fetcher.expectHealthy()
            let state = try emitter.result("query.state", ["key": ["e", 2]])
            #expect(state.member("data") == 22, "\(state)")
        }
    }
}

extension LineClient {
    /// Reads the next `query.changed` and checks it is exactly `state` for `subscription`.
    func expectPush(
        _ subscription: JSONValue, _ state: JSONValue, sourceLocation: SourceLocation = #_sourceLocation
    ) throws {
        expectJSON(
            try nextNotification(method: "query.changed"),
            ["jsonrpc": "2.0", "method": "query.changed", "params": ["subscription": subscription, "state": state]],
            sourceLocation: sourceLocation)
    }

    /// Subscribes to `key`, answers the fetch it starts with `data`, reads the success push, and
    /// returns the subscription id.
    func subscribeAnswered(
        _ key: JSONValue, options: JSONValue? = nil, fetcher: LineClient, fid: JSONValue, data: JSONValue
    ) throws -> JSONValue {
        var params: [String: JSONValue] = ["key": key]
        if let options { params["options"] = options }
        let reply = try result("query.subscribe", .object(params))
        let subscription = reply.member("subscription") ?? nil
        let request = try fetcher.expectFetch(fetcher: fid, key: key)
        try fetcher.respond(id: request, result: ["data": data])
        let pushed = try nextNotification(method: "query.changed")
        #expect(pushed.member("params")?.member("state")?.member("data") == data, "\(pushed)")
        return subscription
    }
}
