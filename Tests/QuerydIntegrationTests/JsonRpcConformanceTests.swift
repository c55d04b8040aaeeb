// JSON-RPC 2.0 conformance C1-C15: the specification's own examples (server-anchors §1.2),
// run against the real daemon with its --test-methods fixtures.

import QuerydJSON
import QuerydTestSupport
import Testing

@Suite("JSON-RPC conformance: spec examples (C1-C15)")
struct JsonRpcConformanceTests {
    @Test("C1-C4 positional and named params")
    func subtract() throws {
        try withDaemon { _, client in
            expectResult(
                try client.exchange(#"{"jsonrpc": "2.0", "method": "test.subtract", "params": [42, 23], "id": 1}"#),
                19, id: 1)
            expectResult(
                try client.exchange(#"{"jsonrpc": "2.0", "method": "test.subtract", "params": [23, 42], "id": 2}"#),
                -19, id: 2)
            expectResult(
                try client.exchange(
                    #"{"jsonrpc": "2.0", "method": "test.subtract", "params": {"subtrahend": 23, "minuend": 42}, "id": 3}"#
                ), 19, id: 3)
            expectResult(
                try client.exchange(
                    #"{"jsonrpc": "2.0", "method": "test.subtract", "params": {"minuend": 42, "subtrahend": 23}, "id": 4}"#
                ), 19, id: 4)
        }
    }

    @Test("C5-C6 notifications get no reply, even to unknown methods")
    func notifications() throws {
        try withDaemon { _, client in
            try client.send(#"{"jsonrpc": "2.0", "method": "update", "params": [1,2,3,4,5]}"#)
            try client.expectSilence()
            try client.send(#"{"jsonrpc": "2.0", "method": "foobar"}"#)
            try client.expectSilence()
        }
    }

    @Test("C7 unknown method echoes a string id")
    func methodNotFound() throws {
        try withDaemon { _, client in
            expectError(
                try client.exchange(#"{"jsonrpc": "2.0", "method": "foobar", "id": "1"}"#), code: -32601, id: "1")
        }
    }

    @Test("C8 invalid JSON: -32700 with id null and a helpful data object; the connection stays open")
    func parseError() throws {
        try withDaemon { _, client in
            let reply = try client.exchange(#"{"jsonrpc": "2.0", "method": "foobar, "params": "bar", "baz]"#)
            expectError(reply, code: -32700, id: nil)
            let data = reply.member("error")?.member("data")
            #expect(data?.member("offset")?.asInt != nil, "data.offset: \(reply.encodedString)")
            #expect(data?.member("reason")?.asString != nil, "data.reason: \(reply.encodedString)")
            #expect(data?.member("hint") == "send one JSON-RPC message per line", "data.hint: \(reply.encodedString)")
            expectResult(try client.call("server.ping", [:]), [:], id: 1)
        }
    }

    @Test("C9 invalid Request without id is still answered with id null")
    func invalidRequestObject() throws {
        try withDaemon { _, client in
            expectError(
                try client.exchange(#"{"jsonrpc": "2.0", "method": 1, "params": "bar"}"#), code: -32600, id: nil)
        }
    }

    @Test("C10 batch that is invalid JSON gets one single -32700 object")
    func invalidJSONBatch() throws {
        try withDaemon { _, client in
            let reply = try client.exchange(
                #"[{"jsonrpc": "2.0", "method": "test.sum", "params": [1,2,4], "id": "1"}, {"jsonrpc": "2.0", "method"]"#
            )
            expectError(reply, code: -32700, id: nil)
        }
    }

    @Test("C11 empty array gets one single -32600 object")
    func emptyBatch() throws {
        try withDaemon { _, client in
            expectError(try client.exchange("[]"), code: -32600, id: nil)
        }
    }

    @Test("C12-C13 invalid members each get an entry in an array reply", arguments: [1, 3])
    func invalidMembers(count: Int) throws {
        try withDaemon { _, client in
            let line = "[" + (1...count).map(String.init).joined(separator: ",") + "]"
            let reply = try client.exchange(line)
            let entries = reply.asArray ?? []
            #expect(entries.count == count, "reply: \(reply.encodedString)")
            for entry in entries { expectError(entry, code: -32600, id: nil) }
        }
    }

    @Test("C14 mixed batch: notification dropped, invalid member null id, result types kept")
    func mixedBatch() throws {
        try withDaemon { _, client in
            let reply = try client.exchange(
                #"[{"jsonrpc": "2.0", "method": "test.sum", "params": [1,2,4], "id": "1"}, "#
                    + #"{"jsonrpc": "2.0", "method": "notify_hello", "params": [7]}, "#
                    + #"{"jsonrpc": "2.0", "method": "test.subtract", "params": [42,23], "id": "2"}, {"foo": "boo"}, "#
                    + #"{"jsonrpc": "2.0", "method": "foo.get", "params": {"name": "myself"}, "id": "5"}, "#
                    + #"{"jsonrpc": "2.0", "method": "test.getData", "id": "9"}]"#)
            let expected = json(
                #"[{"jsonrpc":"2.0","result":7,"id":"1"},{"jsonrpc":"2.0","result":19,"id":"2"},"#
                    + #"{"jsonrpc":"2.0","error":{"code":-32600,"message":"$any","data":"$optional"},"id":null},"#
                    + #"{"jsonrpc":"2.0","error":{"code":-32601,"message":"$any","data":"$optional"},"id":"5"},"#
                    + #"{"jsonrpc":"2.0","result":["hello",5],"id":"9"}]"#)
            expectJSON(reply, expected, unordered: true)
            try client.expectSilence()
        }
    }

    @Test("C15 batch of notifications only: no output at all")
    func notificationBatch() throws {
        try withDaemon { _, client in
            try client.send(
                #"[{"jsonrpc": "2.0", "method": "notify_sum", "params": [1,2,4]}, "#
                    + #"{"jsonrpc": "2.0", "method": "notify_hello", "params": [7]}]"#)
            try client.expectSilence()
        }
    }
}
