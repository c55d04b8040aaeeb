// The `query.set` fast path against the general path, byte for byte: two servers with the same
// clock and epoch get the same writes, one in the plain form the fast path takes and one in a form
// only the general path takes; every reply, push and later read must be the same bytes. Data whose
// objects' members are out of order is sorted on the fast path; other data that is not canonical
// (floats, escapes, whitespace, non-ASCII text) falls back, and is still answered alike.

import QuerydJSON
import QuerydRPC
import Testing

@testable import QuerydServer

@Suite struct PlainSetTests {
    /// The fast path's server and the general path's, alike, with a client each.
    private struct Pair {
        let servers = [TestServer { $0.epoch = "0123456789abcdef" }, TestServer { $0.epoch = "0123456789abcdef" }]
        let fast: TestClient
        let general: TestClient

        /// Each client subscribes to `["watched"]`.
        init() {
            fast = servers[0].connect()
            general = servers[1].connect()
            for client in [fast, general] {
                _ = client.send(
                    #"{"jsonrpc":"2.0","id":"s","method":"query.subscribe","params":{"key":["watched"]}}"# + "\n")
            }
        }

        func advance(by ms: Int64) {
            for server in servers { server.clock.advance(by: ms) }
        }
    }

    private func pair() -> Pair { Pair() }

    /// The same request with an extra member the decoder ignores, which the fast path declines
    /// (last, so a parse error's offset is the same).
    private func generalForm(_ line: String) -> String {
        line.dropLast() + #","extra":0}"#
    }

    private func isFastForm(_ line: String) -> Bool {
        Array(line.utf8).withUnsafeBytes { SetRequestScanner.scan($0, maxDepth: 128) != nil }
    }

    private func setLine(id: String = "1", key: String, data: String) -> String {
        #"{"jsonrpc":"2.0","id":\#(id),"method":"query.set","params":{"key":\#(key),"data":\#(data)}}"#
    }

    /// Writes `line` to both servers (the general one in its general form) and checks that the
    /// replies, and the key's `query.get` and `query.state` afterwards, are the same bytes.
    private func expectAlike(_ servers: Pair, _ line: String, key: String) {
        #expect(servers.fast.rawReply(line) == servers.general.rawReply(generalForm(line)), "\(line)")
        for method in ["query.get", "query.state"] {
            let read = #"{"jsonrpc":"2.0","id":9,"method":"\#(method)","params":{"key":\#(key)}}"#
            #expect(servers.fast.rawReply(read) == servers.general.rawReply(read), "\(method) after \(line)")
        }
    }

    @Test func fastWritesEqualGeneralWrites() {
        let servers = pair()
        let ids = ["1", "-5", "999999999999999999", #""abc""#, #""""#]
        let keys = [
            #"["k"]"#, #"["a",1]"#, #"["a b",-12,[],{}]"#, #"["o",{"a":2,"b":{"c":[true,false,null]}}]"#,
            #"["watched"]"#,
        ]
        let data = [
            #"{"done":false,"id":1,"tags":["a","b"],"title":"a value"}"#, "0", "-7", "123456789012345678", "true",
            "false", "null", #""""#, #""text with spaces ~ / 'quotes'""#, "[]", "{}", #"[[],{},[{}],{"a":[]}]"#,
            #"{"A":1,"B":{"a":{"b":{"c":[1,[2,[3]]]}}},"a":"x","ab":null,"b":true}"#,
            #"{"id":1,"title":"a value"}"#,
        ]
        for id in ids {
            for key in keys {
                for value in data + data.prefix(2) {
                    let line = setLine(id: id, key: key, data: value)
                    #expect(isFastForm(line), "not on the fast path: \(line)")
                    expectAlike(servers, line, key: key)
                }
                servers.advance(by: 7)
            }
        }
        #expect(servers.fast.server.cache.statistics == servers.general.server.cache.statistics)
    }

    @Test func unorderedMembersAreSortedOnTheFastPath() {
        let servers = pair()
        let data = [
            #"{"b":1,"a":2}"#, #"{"z":{"y":1,"x":[{"b":0,"a":1},[]]},"a":[],"A":{}}"#,
            #"{"id":1,"title":"a value of about one hundred bytes once encoded","tags":["a","b"],"done":false}"#,
            // A repeated name is left to the general path.
            #"{"a":1,"a":2}"#, #"{"b":1,"a":1,"b":2}"#, #"[{"c":[{"x":1,"x":1}]}]"#,
        ]
        for value in data + data.prefix(3) {
            let line = setLine(key: #"["watched"]"#, data: value)
            #expect(isFastForm(line), "not scanned: \(line)")
            expectAlike(servers, line, key: #"["watched"]"#)
        }
        expectAlike(servers, setLine(key: #"["watched"]"#, data: data[1]), key: #"["watched"]"#)
        let query = servers.fast.server.cache.query(canonicalKeyBytes: Array(#"["watched"]"#.utf8))
        #expect(
            query?.getAnswer.map { String(decoding: $0, as: UTF8.self) }
                == #"{"data":{"A":{},"a":[],"z":{"x":[{"a":1,"b":0},[]],"y":1}},"dataUpdatedAt":1700000000000}"#)
    }

    @Test func nonCanonicalDataFallsBackAndIsAnsweredAlike() {
        let servers = pair()
        let data = [
            "1.0", "1e2", "-0", "0.5", #""\u0041""#, #""é""#, #""a\nb""#,
            #"{"a": 1}"#, #"[1, 2]"#, " 1", "1234567890123456789", #""\u2028""#, "01",
        ]
        for value in data {
            let line = setLine(key: #"["watched"]"#, data: value)
            #expect(!isFastForm(line), "on the fast path: \(line)")
            expectAlike(servers, line, key: #"["watched"]"#)
        }
        // Other forms: more members, another order, whitespace, an empty key, a key whose
        // members are not in canonical order (its text is not its identity).
        for line in [
            #"{"jsonrpc":"2.0","id":1,"method":"query.set","params":{"key":["k",{"y":2,"x":1}],"data":1}}"#,
            #"{"jsonrpc":"2.0","id":1,"method":"query.set","params":{"key":["k"],"data":1,"updatedAt":5}}"#,
            #"{"jsonrpc":"2.0","id":1,"method":"query.set","params":{"key":["k"],"data":1,"ifVersion":0}}"#,
            #"{"jsonrpc":"2.0","id":1,"method":"query.set","params":{"key":["k"],"mergePatch":{"a":1}}}"#,
            #"{"jsonrpc":"2.0","id":1,"method":"query.set","params":{"data":1,"key":["k"]}}"#,
            #"{"jsonrpc":"2.0","id":1,"method":"query.set","params":{"key":[ "k" ],"data":1}}"#,
            #"{"jsonrpc":"2.0","id":1,"method":"query.set","params":{"key":[],"data":1}}"#,
            #"{"jsonrpc":"2.0","id":1.5,"method":"query.set","params":{"key":["k"],"data":1}}"#,
        ] {
            #expect(!isFastForm(line), "on the fast path: \(line)")
            expectAlike(servers, line, key: #"["k"]"#)
        }
    }

    @Test func longStringsAreReadWordByWordWithTheSameVerdict() {
        let servers = pair()
        for position in 0..<17 {
            let head = String(repeating: "x", count: position)
            let tail = String(repeating: "y", count: 17 - position)
            let plain = setLine(key: #"["long"]"#, data: #"{"s":"\#(head)~\#(tail)"}"#)
            #expect(isFastForm(plain), "not on the fast path: \(plain)")
            expectAlike(servers, plain, key: #"["long"]"#)
            for odd in [#"\""#, #"\u0041"#, "\t", "é"] {
                let line = setLine(key: #"["long"]"#, data: #"{"s":"\#(head)\#(odd)\#(tail)"}"#)
                #expect(!isFastForm(line), "on the fast path: \(line)")
                expectAlike(servers, line, key: #"["long"]"#)
            }
        }
    }

    @Test func theNestingLimitIsTheGeneralPaths() {
        let fast = TestServer { $0.maxDepth = 5 }.connect()
        let deep = setLine(key: #"["d"]"#, data: "[[[[1]]]]")
        let shallow = setLine(key: #"["d"]"#, data: "[[[1]]]")
        #expect(fast.send(shallow + "\n").first?["result"]?["data"] == [[[1]]])
        #expect(fast.send(deep + "\n").first?["error"]?["code"] != nil)
    }

    @Test func tooLargeDataAndWaitingIDsTakeTheGeneralPath() {
        let client = TestServer { $0.maxOutboundBytes = 8192 }.connect()
        let big = String(repeating: "x", count: 6000)
        let refused = client.send(setLine(key: #"["big"]"#, data: #""\#(big)""#) + "\n")
        #expect(refused.first?["error"]?["code"] == -32006)
        _ = client.send(#"{"jsonrpc":"2.0","id":"w","method":"query.fetch","params":{"key":["nobody"]}}"# + "\n")
        let reused = client.send(setLine(id: #""w""#, key: #"["k"]"#, data: "1") + "\n")
        #expect(reused.first?["error"]?["code"] == -32600)
        #expect(client.send(setLine(id: "2", key: #"["k"]"#, data: "1") + "\n").first?["result"]?["data"] == 1)
    }

    @Test func pipelinedSetsAreAnsweredInOrderAndCounted() {
        let client = TestServer().connect()
        var text = ""
        for id in 1...40 { text += setLine(id: String(id), key: #"["fill",\#(id)]"#, data: #"{"n":\#(id)}"#) + "\n" }
        let replies = client.send(text)
        #expect(replies.map { $0["id"] } == (1...40).map { JSONValue.number(JSONNumber($0)) })
        #expect(replies.allSatisfy { $0["result"]?["dataUpdateCount"] == 1 })
        #expect(client.server.cache.statistics.queries == 40)
        let stats = client.send(#"{"jsonrpc":"2.0","id":"st","method":"server.stats"}"# + "\n")
        #expect(stats.first?["result"]?["methods"]?["query.set"]?["requests"] == 40)
    }
}
