// The JSON-RPC 2.0 spec examples and the C16–C26 additions (server-anchors §1.2), at framer/decoder level.

import QuerydJSON
import QuerydRPC
import Testing

@Suite("Conformance script C1–C26")
struct ConformanceTests {
    @Test("C1–C4: requests with positional and named params")
    func requests() {
        #expect(
            outcomes(#"{"jsonrpc": "2.0", "method": "subtract", "params": [42, 23], "id": 1}"#) == [
                .request(1, "subtract")
            ])
        #expect(
            outcomes(#"{"jsonrpc": "2.0", "method": "subtract", "params": [23, 42], "id": 2}"#) == [
                .request(2, "subtract")
            ])
        #expect(
            outcomes(#"{"jsonrpc": "2.0", "method": "subtract", "params": {"subtrahend": 23, "minuend": 42}, "id": 3}"#)
                == [.request(3, "subtract")])
        #expect(
            outcomes(#"{"jsonrpc": "2.0", "method": "subtract", "params": {"minuend": 42, "subtrahend": 23}, "id": 4}"#)
                == [.request(4, "subtract")])
    }

    @Test("C1, C3: params are delivered exactly")
    func paramsKept() throws {
        let positional = try decode(#"{"jsonrpc": "2.0", "method": "subtract", "params": [42, 23], "id": 1}"#)
        #expect(positional == .success(.request(RPCRequest(id: 1, method: "subtract", params: [42, 23]))))
        let named = try decode(
            #"{"jsonrpc": "2.0", "method": "subtract", "params": {"subtrahend": 23, "minuend": 42}, "id": 3}"#)
        #expect(
            named
                == .success(.request(RPCRequest(id: 3, method: "subtract", params: ["minuend": 42, "subtrahend": 23]))))
        let bare = try decode(#"{"jsonrpc": "2.0", "method": "get_data", "id": "9"}"#)
        #expect(bare == .success(.request(RPCRequest(id: "9", method: "get_data", params: nil))))
    }

    @Test("C5, C6: notifications with and without params")
    func notifications() throws {
        #expect(
            outcomes(#"{"jsonrpc": "2.0", "method": "update", "params": [1,2,3,4,5]}"#) == [.notification("update")])
        #expect(outcomes(#"{"jsonrpc": "2.0", "method": "foobar"}"#) == [.notification("foobar")])
        let decoded = try decode(#"{"jsonrpc": "2.0", "method": "update", "params": [1,2,3,4,5]}"#)
        #expect(decoded == .success(.notification(RPCNotification(method: "update", params: [1, 2, 3, 4, 5]))))
    }

    @Test("C7: a string id stays a string")
    func stringID() {
        #expect(outcomes(#"{"jsonrpc": "2.0", "method": "foobar", "id": "1"}"#) == [.request(.string("1"), "foobar")])
    }

    @Test("C8, C10, C26: invalid JSON, an invalid batch text, and two values on one line are parse errors")
    func parseErrors() {
        #expect(outcomes(#"{"jsonrpc": "2.0", "method": "foobar, "params": "bar", "baz]"#) == [.parseError])
        #expect(
            outcomes(
                #"[{"jsonrpc": "2.0", "method": "sum", "params": [1,2,4], "id": "1"}, {"jsonrpc": "2.0", "method"]"#)
                == [.parseError])
        #expect(
            outcomes(#"{"jsonrpc":"2.0","method":"ping","id":1}{"jsonrpc":"2.0","method":"ping","id":2}"#)
                == [.parseError])
    }

    @Test("a duplicated envelope member is refused by the parser (catalogue entry 26), so it is a parse error")
    func duplicateMembers() {
        #expect(outcomes(#"{"jsonrpc":"2.0","method":"ping","id":1,"id":2}"#) == [.parseError])
    }

    @Test("C9: a malformed request without id is invalid, with a null id")
    func invalidWithoutID() {
        #expect(outcomes(#"{"jsonrpc": "2.0", "method": 1, "params": "bar"}"#) == [.invalid(nil)])
    }

    @Test("C11: an empty array is one single invalid request, not a batch")
    func emptyBatch() throws {
        #expect(RPCDecoding.frame(try JSONParser.parse("[]")) == .single(.array([])))
        #expect(outcomes("[]") == [.invalid(nil)])
    }

    @Test("C12, C13, C23: each member of a non-empty invalid batch is invalid on its own")
    func invalidBatches() {
        #expect(outcomes("[1]") == [.batch([.invalid(nil)])])
        #expect(outcomes("[1,2,3]") == [.batch([.invalid(nil), .invalid(nil), .invalid(nil)])])
        #expect(outcomes("[[]]") == [.batch([.invalid(nil)])])
    }

    @Test("C14: a mixed batch keeps every member's kind and id")
    func mixedBatch() {
        let line =
            #"[{"jsonrpc": "2.0", "method": "sum", "params": [1,2,4], "id": "1"}, "#
            + #"{"jsonrpc": "2.0", "method": "notify_hello", "params": [7]}, "#
            + #"{"jsonrpc": "2.0", "method": "subtract", "params": [42,23], "id": "2"}, {"foo": "boo"}, "#
            + #"{"jsonrpc": "2.0", "method": "foo.get", "params": {"name": "myself"}, "id": "5"}, "#
            + #"{"jsonrpc": "2.0", "method": "get_data", "id": "9"}]"#
        #expect(
            outcomes(line) == [
                .batch([
                    .request("1", "sum"), .notification("notify_hello"), .request("2", "subtract"), .invalid(nil),
                    .request("5", "foo.get"), .request("9", "get_data"),
                ])
            ])
    }

    @Test("C15: a batch of notifications only")
    func notificationBatch() {
        let line =
            #"[{"jsonrpc": "2.0", "method": "notify_sum", "params": [1,2,4]}, "#
            + #"{"jsonrpc": "2.0", "method": "notify_hello", "params": [7]}]"#
        #expect(outcomes(line) == [.batch([.notification("notify_sum"), .notification("notify_hello")])])
    }

    @Test("C16: a null id is not a notification; protocol 2 refuses it as a request id (-32600, id null)")
    func nullID() {
        #expect(outcomes(#"{"jsonrpc":"2.0","method":"ping","id":null}"#) == [.invalid(.null)])
    }

    @Test("C17: numeric ids of every shape are requests")
    func numericIDs() throws {
        #expect(outcomes(#"{"jsonrpc":"2.0","method":"ping","id":0}"#) == [.request(0, "ping")])
        #expect(outcomes(#"{"jsonrpc":"2.0","method":"ping","id":-7}"#) == [.request(-7, "ping")])
        #expect(
            outcomes(#"{"jsonrpc":"2.0","method":"ping","id":1.5}"#) == [.request(.number(JSONNumber(1.5)), "ping")])
        #expect(
            outcomes(#"{"jsonrpc":"2.0","method":"ping","id":9007199254740993}"#)
                == [.request(.number(JSONNumber(Int64(9_007_199_254_740_993))), "ping")])
    }

    @Test("C18: ids of an illegal type make the request invalid with a null id")
    func illegalIDs() {
        #expect(outcomes(#"{"jsonrpc":"2.0","method":"ping","id":{"a":1}}"#) == [.invalid(nil)])
        #expect(outcomes(#"{"jsonrpc":"2.0","method":"ping","id":[1]}"#) == [.invalid(nil)])
        #expect(outcomes(#"{"jsonrpc":"2.0","method":"ping","id":true}"#) == [.invalid(nil)])
    }

    @Test("C19: a missing or wrong jsonrpc member is invalid, and the legal id is echoed")
    func wrongVersion() {
        #expect(outcomes(#"{"method":"ping","id":1}"#) == [.invalid(1)])
        #expect(outcomes(#"{"jsonrpc":"1.0","method":"ping","id":1}"#) == [.invalid(1)])
        #expect(outcomes(#"{"jsonrpc":2.0,"method":"ping","id":1}"#) == [.invalid(1)])
        #expect(outcomes(#"{"jsonrpc":"2.00","method":"ping","id":"x"}"#) == [.invalid("x")])
    }

    @Test("C20: params that are not structured, null included, are invalid")
    func unstructuredParams() {
        #expect(outcomes(#"{"jsonrpc":"2.0","method":"ping","params":"x","id":1}"#) == [.invalid(1)])
        #expect(outcomes(#"{"jsonrpc":"2.0","method":"ping","params":null,"id":1}"#) == [.invalid(1)])
        #expect(outcomes(#"{"jsonrpc":"2.0","method":"ping","params":3}"#) == [.invalid(nil)])
        #expect(outcomes(#"{"jsonrpc":"2.0","method":"ping","params":false,"id":null}"#) == [.invalid(.null)])
    }

    @Test("C21: reserved rpc. names decode as ordinary requests (the dispatcher answers them)")
    func reservedNames() {
        #expect(outcomes(#"{"jsonrpc":"2.0","method":"rpc.nope","id":1}"#) == [.request(1, "rpc.nope")])
        #expect(outcomes(#"{"jsonrpc":"2.0","method":"rpc.discover","id":2}"#) == [.request(2, "rpc.discover")])
    }

    @Test("C22: a top-level scalar is an invalid request")
    func scalars() {
        #expect(outcomes("42") == [.invalid(nil)])
        #expect(outcomes(#""hello""#) == [.invalid(nil)])
        #expect(outcomes("null") == [.invalid(nil)])
        #expect(outcomes("true") == [.invalid(nil)])
    }

    @Test("C24, C25: CRLF and blank lines in a multi-message stream")
    func framingInStream() {
        let stream =
            #"{"jsonrpc":"2.0","method":"ping","id":1}"# + "\r\n\n  \r\n" + #"{"jsonrpc":"2.0","method":"ping","id":2}"#
        #expect(outcomes(stream) == [.request(1, "ping"), .request(2, "ping")])
        #expect(outcomes("\n\n\r\n").isEmpty)
    }
}
