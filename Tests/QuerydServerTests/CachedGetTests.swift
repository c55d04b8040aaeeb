// The `query.get` fast path against the general path, byte for byte: a line the fast path
// answers must get exactly the reply the general path writes for it, and lines it declines
// (misses, queries without data, other forms) must be answered as before.

import QuerydJSON
import QuerydRPC
import Testing

@testable import QuerydServer

@Suite struct CachedGetTests {
    /// A server with data under a few keys, and a client connected to it.
    private func setUp() -> TestClient {
        let client = TestServer().connect()
        let writes = [
            #"["bench","hit"]"#, #"["a",1]"#, #"["a b",-12,[],{}]"#, #"["o",{"a":2,"b":{"c":[true,false,null]}}]"#,
            #"[{"A":1,"a":2,"ab":3}]"#, #"["big",999999999999999999]"#,
        ]
        for (index, key) in writes.enumerated() {
            let data = #"{"n":\#(index),"s":"x\u2028y","list":[1,2.5,"z"]}"#
            let lines = client.send(
                #"{"jsonrpc":"2.0","id":"set","method":"query.set","params":{"key":\#(key),"data":\#(data)}}"# + "\n")
            #expect(lines.first?["result"] != nil, "set \(key)")
        }
        return client
    }

    /// The same request with an extra member the decoder ignores, which the fast path declines.
    private func generalForm(_ line: String) -> String {
        guard let brace = line.firstIndex(of: "{") else { return line }
        return line[..<brace] + #"{"extra":0,"# + line[line.index(after: brace)...]
    }

    private func isFastForm(_ line: String) -> Bool {
        Array(line.utf8).withUnsafeBytes { GetRequestScanner.scan($0, maxDepth: 128) != nil }
    }

    /// A waiting request refuses only its own id: other `query.get` lines of the connection are
    /// still answered on the fast path (which remembers the query it answered).
    @Test func aWaitingRequestKeepsOtherIDsOnTheFastPath() {
        let client = setUp()
        _ = client.send(#"{"jsonrpc":"2.0","id":"w","method":"query.fetch","params":{"key":["nobody"]}}"# + "\n")
        #expect(client.session.hasDeferredAnswers)
        let hit = client.send(#"{"jsonrpc":"2.0","id":2,"method":"query.get","params":{"key":["a",1]}}"# + "\n")
        #expect(hit.first?["result"]?["data"] != nil)
        #expect(client.session.lastGetQuery != nil)
        let reused = client.send(#"{"jsonrpc":"2.0","id":"w","method":"query.get","params":{"key":["a",1]}}"# + "\n")
        #expect(reused.first?["error"]?["code"] == -32600)
    }

    @Test func fastRepliesEqualGeneralReplies() {
        let client = setUp()
        let ids = ["1", "0", "-5", "999999999999999999", #""abc""#, #""""#, #""x y""#, #""~{}[]:,""#]
        let keys = [
            #"["bench","hit"]"#, #"["a",1]"#, #"[ "a" , 1 ]"#, #"["a b",-12,[],{}]"#,
            #"["o",{"a":2,"b":{"c":[true,false,null]}}]"#, #"[{"A":1,"a":2,"ab":3}]"#, #"["big",999999999999999999]"#,
        ]
        for id in ids {
            for key in keys {
                let orders = [
                    #"{"jsonrpc":"2.0","id":\#(id),"method":"query.get","params":{"key":\#(key)}}"#,
                    #"{"params":{"key":\#(key)},"method":"query.get","id":\#(id),"jsonrpc":"2.0"}"#,
                    #" { "jsonrpc" : "2.0" , "method" : "query.get" , "id" : \#(id) , "params" : { "key" : \#(key) } } "#,
                ]
                for line in orders {
                    #expect(isFastForm(line), "not on the fast path: \(line)")
                    let fast = client.rawReply(line)
                    let general = client.rawReply(generalForm(line))
                    #expect(fast == general, "replies differ for \(line)")
                    let reply = try? JSONParser.parse(fast)
                    #expect(reply?["result"]?["data"] != nil, "no data for \(line)")
                }
            }
        }
    }

    /// The fast path writes its reply into room it sets aside up front: the widest `dataUpdatedAt`
    /// a write can give (19 digits; the room holds 20) and the smallest data fit, byte for byte as
    /// the general path writes them.
    @Test func extremeTimestampsFitTheRoomSetAside() {
        let client = TestServer().connect()
        let cases: [(updatedAt: String, data: String)] = [
            ("9223372036854775807", "0"), ("1000000000000000000", "{}"), ("0", #""""#),
        ]
        for (index, value) in cases.enumerated() {
            let set =
                #"{"jsonrpc":"2.0","id":"s","method":"query.set","params":{"key":["t",\#(index)],"data":\#(value.data),"updatedAt":\#(value.updatedAt)}}"#
            #expect(client.send(set + "\n").first?["result"] != nil, "set \(value)")
            let line = #"{"jsonrpc":"2.0","id":7,"method":"query.get","params":{"key":["t",\#(index)]}}"#
            #expect(isFastForm(line))
            let fast = client.rawReply(line)
            #expect(fast == client.rawReply(generalForm(line)), "replies differ for \(value)")
            let text = String(decoding: fast, as: UTF8.self)
            #expect(text.hasSuffix(#","dataUpdatedAt":\#(value.updatedAt)}}"# + "\n"), "\(text)")
        }
    }

    @Test func pipelinedGetsAreAnsweredInOrder() {
        let client = setUp()
        var text = ""
        for id in 1...40 {
            let key = id % 2 == 0 ? #"["bench","hit"]"# : #"["a",1]"#
            text += #"{"jsonrpc":"2.0","id":\#(id),"method":"query.get","params":{"key":\#(key)}}"# + "\n"
        }
        let replies = client.send(text)
        #expect(replies.map { $0["id"] } == (1...40).map { JSONValue.number(JSONNumber($0)) })
        #expect(replies.allSatisfy { $0["result"]?["data"] != nil })
    }

    @Test func declinedLinesAreAnsweredAsBefore() {
        let client = setUp()
        // Equal keys written another way find the same query through the general path.
        let hit = client.rawReply(#"{"jsonrpc":"2.0","id":1,"method":"query.get","params":{"key":["a",1]}}"#)
        for key in [#"["a",1.0]"#, #"["a",1e0]"#, #"["\u0061",1]"#, #"["a",10e-1]"#] {
            let line = #"{"jsonrpc":"2.0","id":1,"method":"query.get","params":{"key":\#(key)}}"#
            #expect(!isFastForm(line))
            #expect(client.rawReply(line) == hit, "\(key)")
        }
        let object = client.rawReply(
            #"{"jsonrpc":"2.0","id":1,"method":"query.get","params":{"key":[{"A":1,"a":2,"ab":3}]}}"#)
        #expect(
            client.rawReply(#"{"jsonrpc":"2.0","id":1,"method":"query.get","params":{"key":[{"ab":3,"a":2,"A":1}]}}"#)
                == object)

        // A miss and a query without data answer null.
        #expect(
            client.rawReply(#"{"jsonrpc":"2.0","id":2,"method":"query.get","params":{"key":["nope"]}}"#)
                == Array(#"{"jsonrpc":"2.0","id":2,"result":null}"#.utf8) + [0x0A])
        _ = client.send(#"{"jsonrpc":"2.0","id":"sub","method":"query.subscribe","params":{"key":["empty"]}}"# + "\n")
        #expect(
            client.rawReply(#"{"jsonrpc":"2.0","id":3,"method":"query.get","params":{"key":["empty"]}}"#)
                == Array(#"{"jsonrpc":"2.0","id":3,"result":null}"#.utf8) + [0x0A])

        // Other forms: unknown params, an empty key, a notification, a float id.
        let unknown = client.send(
            #"{"jsonrpc":"2.0","id":4,"method":"query.get","params":{"key":["a",1],"x":1}}"# + "\n")
        #expect(unknown.first?["error"]?["code"] == -32602)
        let empty = client.send(#"{"jsonrpc":"2.0","id":5,"method":"query.get","params":{"key":[]}}"# + "\n")
        #expect(empty.first?["error"]?["code"] == -32602)
        #expect(client.send(#"{"jsonrpc":"2.0","method":"query.get","params":{"key":["a",1]}}"# + "\n").isEmpty)
        let float = client.send(#"{"jsonrpc":"2.0","id":1.5,"method":"query.get","params":{"key":["a",1]}}"# + "\n")
        #expect(float.first?["id"] == .number(JSONNumber(1.5)))
        #expect(float.first?["result"]?["data"] != nil)
    }

    @Test func aRemovedQueryIsNotAnsweredFromTheLastGet() {
        let client = setUp()
        let get = #"{"jsonrpc":"2.0","id":1,"method":"query.get","params":{"key":["a",1]}}"#
        let first = client.send(get + "\n")
        #expect(first.first?["result"]?["data"]?["n"] == 1)
        // Removed: the same line again (the connection's last fast-path key) answers null.
        let removed = client.send(
            #"{"jsonrpc":"2.0","id":"rm","method":"queries.remove","params":{"filter":{"key":["a",1],"exact":true}}}"#
                + "\n")
        #expect(removed.first?["error"] == nil)
        #expect(
            client.rawReply(get) == Array(#"{"jsonrpc":"2.0","id":1,"result":null}"#.utf8) + [0x0A])
        // Set again (a new query under the same key): the new data is answered.
        _ = client.send(#"{"jsonrpc":"2.0","id":"set","method":"query.set","params":{"key":["a",1],"data":7}}"# + "\n")
        #expect(client.send(get + "\n").first?["result"]?["data"] == 7)
        // Another key on the same connection, then back.
        let other = #"{"jsonrpc":"2.0","id":2,"method":"query.get","params":{"key":["bench","hit"]}}"#
        #expect(client.send(other + "\n").first?["result"]?["data"]?["n"] == 0)
        #expect(client.send(get + "\n").first?["result"]?["data"] == 7)
    }

    @Test func shutdownAnswersGetsWithTheShutdownError() {
        let test = TestServer()
        let writer = test.connect()
        _ = writer.send(#"{"jsonrpc":"2.0","id":1,"method":"query.set","params":{"key":["k"],"data":1}}"# + "\n")
        test.server.shutdown()
        let late = test.connect()
        let reply = late.send(#"{"jsonrpc":"2.0","id":2,"method":"query.get","params":{"key":["k"]}}"# + "\n")
        #expect(reply.first?["error"]?["code"] == -32003)
    }
}
