// Protocol 2 on the client side against a scripted peer: negotiation and its protocol-1 fallback, tolerant
// reading, push modes with patch reconstruction, resync, `$/closing`, and queries.list paging.

import QuerydClient
import Testing

@Suite(.timeLimit(.minutes(1))) struct ProtocolTwoTests {
    /// A client connected to `peer` after a protocol-2 hello.
    private func connected(_ peer: FakePeer) async throws -> (QueryClient, PeerConnection, JSONValue) {
        let client = QueryClient(socketPath: peer.socketPath, reconnect: .disabled)
        async let opened: Void = client.connect()
        let connection = await peer.accept()
        let hello = try await connection.acceptHello()
        try await opened
        return (client, connection, hello)
    }

    @Test func helloAsksForProtocolsOneToTwoAndKeepsNodeEpochAndCapabilities() async throws {
        let peer = try FakePeer()
        let (client, _, hello) = try await connected(peer)
        #expect(hello["protocol"] == ["min": 1, "max": 2])
        #expect(hello["capabilities"] == ["requests": ["fetch", "mutate"]])
        #expect(hello["client"]?["name"] == "queryd-swift")
        let server = try #require(await client.server)
        #expect(server.protocolVersion == 2 && server.node == "n1" && server.epoch == "e1")
        #expect(server.supports("option:push") && !server.supports("option:echo"))
        await client.close()
    }

    @Test func aProtocolOneDaemonGetsTheHelloWithClientAlone() async throws {
        let peer = try FakePeer()
        let client = QueryClient(socketPath: peer.socketPath, reconnect: .disabled)
        async let opened: Void = client.connect()
        let connection = await peer.accept()
        let (first, _) = try await connection.expect("server.hello")
        connection.fail(
            first,
            [
                "code": -32602, "message": "Invalid params",
                "data": ["field": "capabilities", "reason": "unknown parameter; expected client"],
            ])
        let (second, params) = try await connection.expect("server.hello")
        #expect(params == ["client": ["name": "queryd-swift", "version": "0.2.0"]])
        connection.reply(second, ["server": "queryd", "version": "0.1.0", "protocol": 1, "capabilities": []])
        try await opened
        let server = try #require(await client.server)
        #expect(server.protocolVersion == 1 && server.node == nil && server.epoch == nil)
        await client.close()
    }

    @Test func noCommonProtocolIsThrownFromConnect() async throws {
        let peer = try FakePeer()
        let client = QueryClient(socketPath: peer.socketPath, reconnect: .disabled)
        async let opened: Void = client.connect()
        let connection = await peer.accept()
        let (id, _) = try await connection.expect("server.hello")
        let refusal: JSONValue = [
            "code": -32602, "message": "Invalid params",
            "data": [
                "field": "protocol", "reason": "no common protocol", "supported": ["min": 3, "max": 4],
                "requested": ["min": 1, "max": 2],
            ],
        ]
        connection.fail(id, refusal)
        var thrown: (any Error)?
        do { try await opened } catch { thrown = error }
        guard case .server(let error)? = thrown as? QueryClientError else {
            Issue.record("connect should have failed with the refusal, got \(String(describing: thrown))")
            return
        }
        #expect(error.knownCode == .invalidParams && error.data?["supported"] == ["min": 3, "max": 4])
        #expect(await !client.isConnected)
    }

    @Test func unknownRequestsAreAnsweredMethodNotFoundAndUnknownNotificationsIgnored() async throws {
        let peer = try FakePeer()
        let (client, connection, _) = try await connected(peer)
        connection.notify("future.notification", ["x": 1])
        connection.send(["jsonrpc": "2.0", "id": 77, "method": "future.request", "params": [:]])
        let answer = try #require(await connection.next())
        #expect(
            answer == [
                "jsonrpc": "2.0", "id": 77,
                "error": ["code": -32601, "message": "Method not found", "data": ["method": "future.request"]],
            ])
        async let pong: Void = client.ping()
        let (id, _) = try await connection.expect("server.ping")
        connection.reply(id, ["unknownMember": true])
        try await pong
        await client.close()
    }

    @Test func patchModeRebuildsTheDataAndRereadsWhenTheBaseDoesNotMatch() async throws {
        let peer = try FakePeer()
        let (client, connection, _) = try await connected(peer)
        async let opened = client.subscribe(["doc"], options: QueryOptions(push: .patch))
        let (subscribe, params) = try await connection.expect("query.subscribe")
        #expect(params["options"] == ["push": "patch"])
        connection.reply(subscribe, ["subscription": 5, "state": state(version: 3, dataVersion: 3, data: ["a": 1])])
        let subscription = try await opened
        var events = subscription.events.makeAsyncIterator()
        #expect(try await nextState(&events).data == ["a": 1])

        // A patch on the base it names.
        connection.notify(
            "query.changed",
            ["subscription": 5, "state": state(version: 4, dataVersion: 4), "patch": patch(3, 4, ["b": 2])])
        let patched = try await nextState(&events)
        #expect(patched.data == ["a": 1, "b": 2] && patched.version == 4 && patched.raw["data"] == ["a": 1, "b": 2])
        // Unchanged data: the same dataVersion, no data, no patch.
        connection.notify("query.changed", ["subscription": 5, "state": state(version: 5, dataVersion: 4)])
        #expect(try await nextState(&events).data == ["a": 1, "b": 2])
        // A patch on a base this client does not have: the data is read with query.state.
        connection.notify(
            "query.changed",
            ["subscription": 5, "state": state(version: 7, dataVersion: 7), "patch": patch(6, 7, ["c": 3])])
        let (reread, readParams) = try await connection.expect("query.state")
        #expect(readParams == ["key": ["doc"]])
        connection.notify("query.changed", ["subscription": 5, "state": state(version: 8, dataVersion: 7)])
        connection.reply(reread, state(version: 8, data: ["fresh": true]))
        let reread1 = try await nextState(&events)
        #expect(reread1.version == 7 && reread1.data == ["fresh": true])
        // The push held during the read applies to the data read.
        let held = try await nextState(&events)
        #expect(held.version == 8 && held.data == ["fresh": true])
        // A resync starts over: the state is full again.
        connection.notify(
            "query.changed",
            ["subscription": 5, "resync": true, "state": state(version: 1, dataVersion: 1, data: ["new": 1])])
        let fresh = try await nextState(&events)
        #expect(fresh.isFreshStart && fresh.data == ["new": 1])
        await client.close()
    }

    @Test func metaModeYieldsStatesWithoutData() async throws {
        let peer = try FakePeer()
        let (client, connection, _) = try await connected(peer)
        async let opened = client.subscribe(["doc"], options: QueryOptions(push: .meta, echo: false))
        let (subscribe, params) = try await connection.expect("query.subscribe")
        #expect(params["options"] == ["push": "meta", "echo": false])
        connection.reply(subscribe, ["subscription": 1, "state": state(version: 2, dataVersion: 2)])
        let subscription = try await opened
        var events = subscription.events.makeAsyncIterator()
        connection.notify("query.changed", ["subscription": 1, "state": state(version: 3, dataVersion: 3)])
        #expect(try await nextState(&events).data == nil)
        let pushed = try await nextState(&events)
        #expect(pushed.data == nil && pushed.dataVersion == 3 && pushed.epoch == "e1")
        await client.close()
    }

    @Test func closingIsTheReasonOfTheConnectionLoss() async throws {
        let peer = try FakePeer()
        let (client, connection, _) = try await connected(peer)
        let events = await client.connectionEvents()
        let waiting = Task { try await client.call("query.fetch", ["key": ["x"]]) }
        _ = try await connection.expect("query.fetch")
        connection.notify("$/closing", ["reason": "slow consumer", "limit": "max-outbound-bytes"])
        connection.hangUp()
        await #expect(throws: QueryClientError.connectionLost("slow consumer (limit max-outbound-bytes)")) {
            _ = try await waiting.value
        }
        for await event in events {
            #expect(event == .disconnected(.connectionLost("slow consumer (limit max-outbound-bytes)")))
            break
        }
        await client.close()
    }

    @Test func aReconnectToANewEpochNegotiatesAgainAndMarksTheResubscribedStateFresh() async throws {
        let peer = try FakePeer()
        let client = QueryClient(socketPath: peer.socketPath, reconnect: ReconnectPolicy(initialDelay: 0.01))
        async let opened: Void = client.connect()
        let first = await peer.accept()
        try await first.acceptHello(epoch: "e1")
        try await opened
        async let subscribing = client.subscribe(["doc"])
        let (id, _) = try await first.expect("query.subscribe")
        first.reply(id, ["subscription": 1, "state": state(version: 9, data: 1)])
        let subscription = try await subscribing
        var events = subscription.events.makeAsyncIterator()
        #expect(try await nextState(&events).isFreshStart == false)

        first.hangUp()
        let second = await peer.accept()
        let hello = try await second.acceptHello(epoch: "e2")
        #expect(hello["protocol"] == ["min": 1, "max": 2])
        let (again, params) = try await second.expect("query.subscribe")
        #expect(params == ["key": ["doc"]])
        second.reply(again, ["subscription": 4, "state": state(version: 1, data: 2)])
        guard case .connectionLost = await events.next() else {
            Issue.record("expected the connection loss first")
            return
        }
        let resubscribed = try await nextState(&events)
        #expect(resubscribed.isFreshStart && resubscribed.data == 2)
        #expect(await client.server?.epoch == "e2")
        await client.close()
    }

    @Test func listPagesFollowsTheCursorToTheLastPage() async throws {
        let peer = try FakePeer()
        let (client, connection, _) = try await connected(peer)
        let reader = Task {
            var pages: [[QueryState]] = []
            for try await page in client.listPages(limit: 2) { pages.append(page) }
            return pages
        }
        let (first, firstParams) = try await connection.expect("queries.list")
        #expect(firstParams["cursor"] == .null && firstParams["limit"] == 2)
        connection.reply(first, ["queries": [state(version: 1), state(version: 2)], "nextCursor": "c2"])
        let (second, secondParams) = try await connection.expect("queries.list")
        #expect(secondParams["cursor"] == "c2")
        connection.reply(second, ["queries": [state(version: 3)]])
        let pages = try await reader.value
        #expect(pages.map { $0.map(\.version) } == [[1, 2], [3]])
        await client.close()
    }

    // MARK: - Helpers

    private func state(version: Int, dataVersion: Int? = nil, data: JSONValue? = nil) -> JSONValue {
        var members: [String: JSONValue] = [
            "key": ["doc"], "status": data == nil ? "pending" : "success", "fetchStatus": "idle",
            "version": .number(JSONNumber(version)), "epoch": "e1", "someFutureField": 1,
        ]
        if let dataVersion { members["dataVersion"] = .number(JSONNumber(dataVersion)) }
        if let data { members["data"] = data }
        return .object(members)
    }

    private func patch(_ base: Int, _ version: Int, _ change: JSONValue) -> JSONValue {
        ["baseVersion": .number(JSONNumber(base)), "version": .number(JSONNumber(version)), "patch": change]
    }

    private func nextState(_ events: inout AsyncStream<SubscriptionEvent>.Iterator) async throws -> QueryState {
        while let event = await events.next() {
            if case .state(let state) = event { return state }
        }
        throw HarnessError(description: "the subscription ended")
    }
}
