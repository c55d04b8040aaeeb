// `queries.list` paging over the wire: pages in key order, a cursor that survives queries added
// and removed between pages without skipping or repeating one that exists throughout, and the
// -32602 answers for a bad cursor or limit.

import QuerydJSON
import Testing

@Suite("queries.list paging")
struct ListPagingTests {
    /// The keys of a page's states, as compact JSON text.
    private func keys(_ page: JSONValue) -> [String] {
        (page.member("queries")?.asArray ?? []).compactMap { $0.member("key")?.encodedString }
    }

    @Test func pagesFollowKeyOrderAndSurviveChangesBetweenPages() throws {
        let daemon = try DaemonProcess()
        let client = try daemon.connect()
        for name in ["b", "d", "f", "h", "j"] {
            _ = try client.result("query.set", ["key": [.string(name)], "data": 1])
        }
        // Without a cursor: the protocol-1 array.
        #expect(try client.result("queries.list").asArray?.count == 5)
        let first = try client.result("queries.list", ["cursor": .null, "limit": 2])
        #expect(keys(first) == [#"["b"]"#, #"["d"]"#])
        let cursor = try #require(first.member("nextCursor"))
        // Between pages: a key before the cursor appears, one after it goes, one after it appears.
        _ = try client.result("query.set", ["key": ["a"], "data": 1])
        _ = try client.result("queries.remove", ["filter": ["key": ["f"], "exact": true]])
        _ = try client.result("query.set", ["key": ["e"], "data": 1])
        let second = try client.result("queries.list", ["cursor": cursor, "limit": 2])
        #expect(keys(second) == [#"["e"]"#, #"["h"]"#])
        let last = try client.result("queries.list", ["cursor": try #require(second.member("nextCursor")), "limit": 2])
        #expect(keys(last) == [#"["j"]"#])
        #expect(!last.has("nextCursor"))
        // The default limit (100) takes all; a filter applies to pages too.
        let all = try client.result("queries.list", ["cursor": .null])
        #expect(keys(all).count == 6 && !all.has("nextCursor"))
        let filtered = try client.result("queries.list", ["cursor": .null, "filter": ["key": ["h"]]])
        #expect(keys(filtered) == [#"["h"]"#])
        #expect(try daemon.stop() == .exited(0))
    }

    @Test func aBadCursorOrLimitIsInvalidParams() throws {
        let daemon = try DaemonProcess()
        let client = try daemon.connect()
        for (params, field) in [
            (["cursor": "zz"], "cursor"), (["cursor": 5], "cursor"), (["cursor": "abc"], "cursor"),
            (["cursor": .null, "limit": 0], "limit"), (["cursor": .null, "limit": 1001], "limit"),
            (["limit": 5], "limit"),
        ] as [(JSONValue, String)] {
            let reply = try client.call("queries.list", params)
            #expect(reply.errorCode == -32602, "\(params.encodedString): \(reply.encodedString)")
            #expect(reply.member("error")?.member("data")?.member("field")?.asString == field)
        }
        #expect(try daemon.stop() == .exited(0))
    }
}
