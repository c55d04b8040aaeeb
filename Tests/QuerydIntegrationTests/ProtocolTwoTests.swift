// Protocol 2 over the wire (issue 21 §1, §4, §5): negotiation in `server.hello`, the reserved
// `_meta`, the epoch, versions that keep counting, request ids, retry hints and the batch rule.

import Glibc
import QuerydJSON
import QuerydTestSupport
import Testing

@Suite("Protocol 2")
struct ProtocolTwoTests {
    static let supported: JSONValue = ["min": 1, "max": 2]

    @Test("server.hello picks the highest common protocol and names the node and epoch")
    func helloNegotiates() throws {
        try withDaemon { _, client in
            let plain = try client.result("server.hello", ["client": ["name": "t"]])
            #expect(plain.member("protocol") == 2)
            #expect(plain.member("node")?.asString?.isEmpty == false, "\(plain.encodedString)")
            let epoch = plain.member("epoch")
            #expect(epoch?.asString?.count == 16, "\(plain.encodedString)")
            let range = try client.result(
                "server.hello",
                ["protocol": ["min": 1, "max": 2], "capabilities": ["requests": ["fetch", "mutate"]]])
            #expect(range.member("protocol") == 2)
            #expect(range.member("epoch") == epoch)
            #expect(try client.result("server.hello", ["protocol": 1]).member("protocol") == 1)
            #expect(try client.result("server.hello", ["protocol": ["min": 2, "max": 9]]).member("protocol") == 2)
            let capabilities = (plain.member("capabilities")?.asArray ?? []).compactMap(\.asString)
            for name in ["field:epoch", "param:_meta", "server.hello", "$/cancelRequest"] {
                #expect(capabilities.contains(name), "\(name) missing from \(capabilities)")
            }
        }
    }

    @Test("no protocol in common: -32602 with supported and requested", arguments: [#"3"#, #"{"min":3,"max":4}"#])
    func helloWithoutOverlap(requested: String) throws {
        try withDaemon { _, client in
            let reply = try client.exchange(
                #"{"jsonrpc":"2.0","id":1,"method":"server.hello","params":{"protocol":\#(requested)}}"#)
            expectError(reply, code: -32602, id: 1)
            expectJSON(
                reply.member("error")?.member("data") ?? nil,
                ["field": "protocol", "reason": "$any", "supported": Self.supported, "requested": json(requested)])
            try client.expectHealthy()
        }
    }

    @Test("a malformed protocol is -32602 that still names what is supported")
    func helloWithMalformedProtocol() throws {
        try withDaemon { _, client in
            for requested in [#""2""#, "0", #"{"min":2,"max":1}"#, #"{"from":1}"#] {
                let reply = try client.exchange(
                    #"{"jsonrpc":"2.0","id":1,"method":"server.hello","params":{"protocol":\#(requested)}}"#)
                expectError(reply, code: -32602, id: 1)
                #expect(reply.member("error")?.member("data")?.member("supported") == Self.supported, "\(requested)")
            }
        }
    }

    @Test("a required capability the daemon lacks is -32602 naming it")
    func helloRequire() throws {
        try withDaemon { _, client in
            let offered = try client.call("server.hello", ["require": ["query.get", "field:epoch"]])
            #expect(offered.member("result")?.member("protocol") == 2, "\(offered.encodedString)")
            let reply = try client.call(
                "server.hello", ["require": ["query.get", "feature:manual-clock", "option:teleport"]])
            #expect(reply.errorCode == -32602)
            expectJSON(
                reply.member("error")?.member("data") ?? nil,
                ["field": "require", "reason": "$any", "missing": ["feature:manual-clock", "option:teleport"]])
            #expect(try client.call("server.hello", ["require": "query.get"]).errorCode == -32602)
            #expect(try client.call("server.hello", ["capabilities": ["requests": [1]]]).errorCode == -32602)
        }
    }

    @Test("_meta is reserved in every params object: ignored when an object, -32602 otherwise")
    func metaIsReserved() throws {
        try withDaemon { _, client in
            let meta: JSONValue = ["traceId": "abc", "deadline": 5]
            #expect(try client.result("server.ping", ["_meta": meta]) == [:])
            #expect(try client.result("query.get", ["key": ["m"], "_meta": meta]) == .null)
            let set = try client.result("query.set", ["key": ["m"], "data": 1, "_meta": meta])
            #expect(set.member("data") == 1)
            let reply = try client.call("server.ping", ["_meta": 1])
            #expect(reply.errorCode == -32602)
            #expect(reply.member("error")?.member("data")?.member("field") == "_meta")
        }
    }

    @Test("every state carries the epoch server.hello reports; another daemon has another one")
    func statesCarryTheEpoch() throws {
        var epochs: [JSONValue] = []
        for _ in 0..<2 {
            try withDaemon(["--manual-clock"]) { _, client in
                let epoch = try client.result("server.hello", [:]).member("epoch") ?? nil
                #expect(try client.result("query.set", ["key": ["e"], "data": 1]).member("epoch") == epoch)
                let subscribed = try client.result("query.subscribe", ["key": ["e"]])
                #expect(subscribed.member("state")?.member("epoch") == epoch)
                _ = try client.result("query.set", ["key": ["e"], "data": 2])
                let pushed = try client.nextNotification(method: "query.changed")
                #expect(pushed.member("params")?.member("state")?.member("epoch") == epoch)
                #expect(pushed.member("params")?.has("resync") == false)
                let listed = try client.result("queries.list", [:])
                #expect(listed.item(0)?.member("epoch") == epoch)
                epochs.append(epoch)
            }
        }
        #expect(epochs.count == 2 && epochs[0] != epochs[1], "\(epochs)")
    }

    @Test("a key's version keeps counting after queries.remove and garbage collection")
    func versionIsMonotonicPerKey() throws {
        try withDaemon(["--manual-clock"]) { _, client in
            func version(_ result: JSONValue) -> Int { result.member("version")?.asInt ?? -1 }
            let first = version(try client.result("query.set", ["key": ["v"], "data": 1]))
            _ = try client.result("query.set", ["key": ["v"], "data": 2])
            let before = version(try client.result("query.set", ["key": ["v"], "data": 3]))
            #expect(before > first)
            #expect(try client.result("queries.remove", ["filter": ["key": ["v"]]]) == ["matched": 1])
            // Made again with gcTime 0 (its initial data answers the ensure at once) ...
            let recreated = version(
                try client.result("query.ensure", ["key": ["v"], "options": ["gcTime": 0, "initialData": 4]]))
            #expect(recreated > before, "version went from \(before) back to \(recreated) after queries.remove")
            // ... collected at the next advance, then made a third time.
            _ = try client.result("clock.advance", ["ms": 0])
            #expect(try client.result("query.state", ["key": ["v"]]) == .null)
            let afterGC = version(try client.result("query.set", ["key": ["v"], "data": 5]))
            #expect(afterGC > recreated, "version went from \(recreated) back to \(afterGC) after gc")
        }
    }

    @Test("a duplicate id of a pending request is -32600; $/cancelRequest then reaches the first")
    func duplicatePendingID() throws {
        try withDaemon(["--manual-clock"]) { _, client in
            try client.send(#"{"jsonrpc":"2.0","id":7,"method":"query.fetch","params":{"key":["dup","a"]}}"#)
            let duplicate = try client.exchange(
                #"{"jsonrpc":"2.0","id":7,"method":"query.fetch","params":{"key":["dup","b"]}}"#)
            expectError(duplicate, code: -32600, id: 7)
            // The refused request started nothing: only the first waits.
            #expect(try client.result("server.stats", [:]).member("pendingRequests") == 1)
            #expect(try client.result("query.state", ["key": ["dup", "b"]]) == .null)
            try client.notify("$/cancelRequest", ["id": 7])
            expectJSON(
                try client.readJSON(),
                ["jsonrpc": "2.0", "id": 7, "error": ["code": -32800, "message": "$any", "data": ["id": 7]]])
            #expect(try client.result("server.stats", [:]).member("pendingRequests") == 0)
            // Once answered, the id is free again: the same id with query.get is answered.
            expectJSON(
                try client.exchange(#"{"jsonrpc":"2.0","id":7,"method":"query.get","params":{"key":["dup","a"]}}"#),
                ["jsonrpc": "2.0", "id": 7, "result": nil])
            try client.expectSilence()
        }
    }

    @Test("a query.get reusing a pending id is refused too (not answered from the cache)")
    func duplicateIDOnTheGetFastPath() throws {
        try withDaemon(["--manual-clock"]) { _, client in
            _ = try client.result("query.set", ["key": ["hit"], "data": 1])
            try client.send(#"{"jsonrpc":"2.0","id":"w","method":"query.fetch","params":{"key":["nobody"]}}"#)
            let reply = try client.exchange(
                #"{"jsonrpc":"2.0","id":"w","method":"query.get","params":{"key":["hit"]}}"#)
            expectError(reply, code: -32600, id: "w")
        }
    }

    @Test("-32002, -32003 and -32006 say whether to retry")
    func retryHints() throws {
        try withDaemon(["--manual-clock", "--max-subscriptions-per-connection", "1"]) { _, client in
            // No fetcher before the timeout: one may register, so retryable.
            let waiting = try client.sendRequest("query.fetch", ["key": ["r", 1], "options": ["timeout": 10]])
            _ = try client.result("clock.advance", ["ms": 10])
            let noFetcher = try client.awaitResponse(id: waiting)
            #expect(noFetcher.errorCode == -32002)
            #expect(noFetcher.member("error")?.member("data")?.member("retryable") == true)
            // Cancelled on purpose: not retryable; removed: retryable.
            for (reason, method, retryable) in [
                ("cancelled", "queries.cancel", false), ("removed", "queries.remove", true),
            ] {
                let call = try client.sendRequest("query.fetch", ["key": ["r", .string(reason)]])
                _ = try client.result(method, ["filter": ["key": ["r", .string(reason)]]])
                let reply = try client.awaitResponse(id: call)
                #expect(reply.errorCode == -32003)
                expectJSON(
                    reply.member("error")?.member("data") ?? nil,
                    ["reason": .string(reason), "retryable": .bool(retryable)])
            }
            // A per-connection holding limit holds until the client releases one: not retryable.
            _ = try client.result("query.subscribe", ["key": ["s", 1]])
            let refused = try client.call("query.subscribe", ["key": ["s", 2]])
            #expect(refused.errorCode == -32006)
            #expect(refused.member("error")?.member("data")?.member("retryable") == false)
        }
    }

    @Test("max-connections is -32006 retryable; a shutdown's -32003 is retryable (checked in DaemonLifecycleTests)")
    func maxConnectionsIsRetryable() throws {
        try withDaemon(["--max-connections", "1"]) { daemon, _ in
            let second = try daemon.connect()
            let reply = try second.readJSON()
            expectError(reply, code: -32006, id: nil)
            expectJSON(
                reply.member("error")?.member("data") ?? nil,
                ["limit": "max-connections", "max": 1, "retryable": true])
        }
    }

    @Test("a batch never waits: a server.ping beside a query.fetch is answered at once, the fetch refused")
    func batchesDoNotWait() throws {
        try withDaemon(["--manual-clock"]) { daemon, client in
            let fetcher = try daemon.connect()
            _ = try fetcher.registerFetcher(["b"])
            let reply = try client.exchange(
                #"[{"jsonrpc":"2.0","id":1,"method":"server.ping"},"#
                    + #"{"jsonrpc":"2.0","id":2,"method":"query.fetch","params":{"key":["b"]}},"#
                    + #"{"jsonrpc":"2.0","id":3,"method":"mutation.run","params":{"key":["m"],"variables":1}}]"#)
            expectJSON(
                reply,
                [
                    ["jsonrpc": "2.0", "id": 1, "result": [:]],
                    [
                        "jsonrpc": "2.0", "id": 2,
                        "error": ["code": -32600, "message": "Invalid Request", "data": "$any"],
                    ],
                    [
                        "jsonrpc": "2.0", "id": 3,
                        "error": ["code": -32600, "message": "Invalid Request", "data": "$any"],
                    ],
                ], unordered: true)
            try fetcher.expectSilence()
            #expect(try client.result("server.stats", [:]).member("inFlightFetches") == 0)
        }
    }

    @Test("rpc.discover with every gate on serves protocol/openrpc.json whole: OpenRPC 1.3.0 of protocol 2")
    func openRPCFileMatchesTheServedDocument() throws {
        try withDaemon(["--manual-clock", "--test-methods"]) { _, client in
            // With both gates on every method is served, so the answer is the whole document.
            let served = try client.result("rpc.discover", [:])
            #expect(served.member("openrpc") == "1.3.0")
            #expect(served.member("info")?.member("version") == "2")
            let path = QuerydBinary.packageRoot + "/protocol/openrpc.json"
            guard let file = fopen(path, "r") else { throw IntegrationError("cannot open \(path)") }
            defer { fclose(file) }
            var bytes: [UInt8] = []
            var chunk = [UInt8](repeating: 0, count: 65536)
            while case let count = fread(&chunk, 1, chunk.count, file), count > 0 { bytes += chunk[0..<count] }
            // The daemon embeds the file at build time (EmbedOpenRPC plugin); every method must be served.
            #expect(try JSONParser.parse(bytes) == served, "rpc.discover left out part of \(path)")
        }
    }
}
