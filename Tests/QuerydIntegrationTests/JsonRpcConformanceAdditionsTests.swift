// JSON-RPC conformance C16-C30 (server-anchors §1.2 additions: ids, framing, reserved names)
// and the framing limit, run against the real daemon.

import QuerydJSON
import QuerydTestSupport
import Testing

@Suite("JSON-RPC conformance: additions (C16-C30) and framing")
struct JsonRpcConformanceAdditionsTests {
    @Test("C16 a null id is not a notification: protocol 2 refuses it as a request id (-32600, id null)")
    func nullID() throws {
        try withDaemon { _, client in
            let reply = try client.exchange(#"{"jsonrpc":"2.0","method":"server.ping","id":null}"#)
            expectError(reply, code: -32600, id: nil)
            #expect(reply.member("error")?.member("data")?.member("reason") != nil)
            try client.expectHealthy()
        }
    }

    @Test("C17 numeric ids are echoed unchanged (0, negative, fractional, beyond 2^53)")
    func numericIDs() throws {
        try withDaemon { _, client in
            for id in ["0", "-7", "1.5", "9007199254740993"] {
                try client.send(#"{"jsonrpc":"2.0","method":"server.ping","id":\#(id)}"#)
                let line = try client.readLine()
                #expect(line.contains(#""id":\#(id)"#), "id \(id) not echoed byte for byte: \(line)")
                expectResult(json(line), [:], id: json(id))
            }
        }
    }

    @Test("C18 an id of an illegal type gets -32600 with id null", arguments: [#"{"a":1}"#, "[1]", "true"])
    func illegalIDType(id: String) throws {
        try withDaemon { _, client in
            expectError(
                try client.exchange(#"{"jsonrpc":"2.0","method":"server.ping","id":\#(id)}"#), code: -32600, id: nil)
        }
    }

    @Test(
        "C19 missing or wrong jsonrpc member gets -32600 (id echoed or null)",
        arguments: [
            #"{"method":"server.ping","id":1}"#, #"{"jsonrpc":"1.0","method":"server.ping","id":1}"#,
            #"{"jsonrpc":2.0,"method":"server.ping","id":1}"#,
        ])
    func wrongVersion(line: String) throws {
        try withDaemon { _, client in
            let reply = try client.exchange(line)
            #expect(reply.errorCode == -32600, "\(reply.encodedString)")
            #expect(reply.member("id") == 1 || reply.member("id") == .null, "\(reply.encodedString)")
        }
    }

    @Test("C20 unstructured or null params are -32600; params of the wrong shape are -32602")
    func paramsShape() throws {
        try withDaemon { _, client in
            expectError(
                try client.exchange(#"{"jsonrpc":"2.0","method":"server.ping","params":"x","id":1}"#),
                code: -32600, id: 1)
            expectError(
                try client.exchange(#"{"jsonrpc":"2.0","method":"server.ping","params":null,"id":2}"#),
                code: -32600, id: 2)
            expectError(
                try client.exchange(#"{"jsonrpc":"2.0","method":"test.subtract","params":["a",1],"id":3}"#),
                code: -32602, id: 3)
            expectError(
                try client.exchange(#"{"jsonrpc":"2.0","method":"query.get","params":{"key":"notarray"},"id":4}"#),
                code: -32602, id: 4)
        }
    }

    @Test("C21 reserved rpc. names: unknown is -32601; rpc.discover lists exactly the enabled methods")
    func reservedNamespace() throws {
        try withDaemon(["--test-methods", "--manual-clock"]) { _, client in
            expectError(try client.exchange(#"{"jsonrpc":"2.0","method":"rpc.nope","id":1}"#), code: -32601, id: 1)
            let document = try client.exchange(#"{"jsonrpc":"2.0","method":"rpc.discover","id":2}"#)
            let result = document.member("result")
            #expect(result?.member("openrpc") == "1.3.0", "\(document.encodedString)")
            let listed = Set((result?.member("methods")?.asArray ?? []).compactMap { $0.member("name")?.asString })
            let hello = try client.result("server.hello", [:])
            let capabilities = (hello.member("capabilities")?.asArray ?? []).compactMap(\.asString)
            #expect(capabilities.contains("feature:manual-clock"), "\(hello.encodedString)")
            // Method names have no colon; feature, option, field, notification and param names do.
            let methods = Set(capabilities.filter { !$0.contains(":") || $0.hasPrefix("$/") })
            #expect(listed == methods, "rpc.discover \(listed.sorted()) vs capabilities \(methods.sorted())")
            for name in ["server.ping", "query.fetch", "clock.advance", "test.subtract", "test.echo"] {
                #expect(listed.contains(name), "rpc.discover lacks \(name)")
            }
        }
    }

    @Test("C21 without --test-methods and --manual-clock those methods do not exist")
    func fixturesAreOptIn() throws {
        try withDaemon([]) { _, client in
            let hello = try client.result("server.hello", [:])
            let capabilities = (hello.member("capabilities")?.asArray ?? []).compactMap(\.asString)
            #expect(!capabilities.contains("test.subtract") && !capabilities.contains("feature:manual-clock"))
            expectError(try client.call("test.subtract", [3, 1]), code: -32601, id: 2)
            expectError(try client.call("clock.advance", ["ms": 1]), code: -32601, id: 3)
        }
    }

    @Test("C22 a top-level scalar is -32600 with id null", arguments: ["42", #""hello""#, "null"])
    func scalar(line: String) throws {
        try withDaemon { _, client in
            expectError(try client.exchange(line), code: -32600, id: nil)
        }
    }

    @Test("C23 nested empty batch is an array with one -32600")
    func nestedEmptyBatch() throws {
        try withDaemon { _, client in
            let reply = try client.exchange("[[]]")
            #expect(reply.asArray?.count == 1, "\(reply.encodedString)")
            expectError(reply.item(0) ?? .null, code: -32600, id: nil)
        }
    }

    @Test("C24-C25 CRLF is accepted and replies end in LF; blank lines are ignored")
    func crlfAndBlankLines() throws {
        try withDaemon { _, client in
            try client.sendRaw(Array(#"{"jsonrpc":"2.0","method":"server.ping","id":1}"#.utf8) + [13, 10])
            let line = try client.readLine()
            #expect(!line.contains("\r"), "reply carries a CR: \(line)")
            expectResult(json(line), [:], id: 1)
            try client.sendRaw([10, 13, 10, 10])
            try client.expectSilence()
        }
    }

    @Test("C26 two JSON values on one line are a parse error")
    func trailingGarbage() throws {
        try withDaemon { _, client in
            let reply = try client.exchange(
                #"{"jsonrpc":"2.0","method":"server.ping","id":1}{"jsonrpc":"2.0","method":"server.ping","id":2}"#)
            expectError(reply, code: -32700, id: nil)
            try client.expectSilence()
        }
    }

    @Test("C27 half_closed_client: a last line without newline is answered before the close")
    func halfClosedClient() throws {
        try withDaemon { _, client in
            try client.sendRaw(Array(#"{"jsonrpc":"2.0","method":"server.ping","id":1}"#.utf8))
            client.shutdownWrite()
            expectResult(try client.readJSON(), [:], id: 1)
            try client.expectEndOfStream()
        }
    }

    @Test("C28 every output line is one JSON value without raw CR/LF, even for newline-laden strings")
    func outputLinesAreSingleValues() throws {
        try withDaemon { _, client in
            let payload: JSONValue = ["text": "a\nb\r\u{2028}c\u{0000}d\"\\", "list": ["\n", 1.5, nil, true]]
            try client.send(#"{"jsonrpc":"2.0","method":"test.echo","id":1,"params":\#(payload.encodedString)}"#)
            let line = try client.readLine()
            #expect(!line.contains("\r"), "raw CR in \(line)")
            expectResult(json(line), payload, id: 1)
            try client.expectSilence()
        }
    }

    @Test("C29 batch_mixed_valid_invalid: a batch reply is one line; members match by id")
    func batchIsOneLine() throws {
        try withDaemon { _, client in
            let reply = try client.exchange(
                #"[{"jsonrpc":"2.0","method":"server.ping","id":"p"},{"jsonrpc":"2.0","method":"test.sum","params":[1,2],"id":7},"#
                    + #"{"jsonrpc":"2.0","method":"test.echo","params":{"x":[]},"id":"e"},{"jsonrpc":"2.0","method":"nope","id":8}]"#
            )
            expectJSON(
                reply,
                json(
                    #"[{"jsonrpc":"2.0","id":"p","result":{}},{"jsonrpc":"2.0","id":7,"result":3},"#
                        + #"{"jsonrpc":"2.0","id":"e","result":{"x":[]}},"#
                        + #"{"jsonrpc":"2.0","id":8,"error":{"code":-32601,"message":"$any","data":"$optional"}}]"#),
                unordered: true)
            try client.expectSilence()
        }
    }

    @Test("C30 a notification with bad params gets no reply and the connection stays usable")
    func badNotification() throws {
        try withDaemon { _, client in
            try client.send(#"{"jsonrpc":"2.0","method":"test.subtract","params":["x"]}"#)
            try client.send(#"{"jsonrpc":"2.0","method":"query.get","params":{"key":7}}"#)
            try client.expectSilence()
        }
    }

    @Test("pipelined_requests: many requests written at once are answered in order")
    func pipelinedRequests() throws {
        try withDaemon { _, client in
            let lines = (1...200).map { #"{"jsonrpc":"2.0","method":"test.sum","params":[\#($0),1],"id":\#($0)}"# }
            try client.sendRaw(Array((lines.joined(separator: "\n") + "\n").utf8))
            for index in 1...200 {
                expectResult(try client.readJSON(), .number(JSONNumber(index + 1)), id: .number(JSONNumber(index)))
            }
        }
    }

    @Test("line_too_long_closes_connection: -32600 then close; other connections are unaffected")
    func lineTooLong() throws {
        try withDaemon(["--max-message-bytes", "1024"]) { daemon, other in
            let client = try daemon.connect()
            let long =
                #"{"jsonrpc":"2.0","method":"server.ping","id":1,"params":{"pad":""#
                + String(repeating: "x", count: 2000) + #""}}"#
            try client.send(long)
            let reply = try client.readJSON()
            expectError(reply, code: -32600, id: nil)
            #expect(
                reply.member("error")?.member("data")?.member("reason") == "message exceeds 1024 bytes",
                "decisions.md: data {\"reason\":\"message exceeds N bytes\"}; got \(reply.encodedString)")
            // Protocol 2: the reason of the close, then the end.
            let closing = try client.readJSON()
            #expect(closing.member("method") == "$/closing", "\(closing.encodedString)")
            #expect(closing.member("params")?.member("limit") == "max-message-bytes")
            try client.expectEndOfStream()
            expectResult(try other.call("server.ping", [:]), [:], id: 1)
            let fresh = try daemon.connect()
            expectResult(try fresh.call("server.ping", [:]), [:], id: 1)
        }
    }
}
