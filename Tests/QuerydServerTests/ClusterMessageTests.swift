// The cluster's wire inside Redis: message encoding (round trips, version and malformed payloads
// refused), the key and channel layout (hash tags, one slot per query key), and shared entries.

import QuerydCore
import QuerydJSON
import Testing

@testable import QuerydServer

@Suite struct ClusterMessageTests {
    @Test func everyMessageRoundTripsThroughItsJSON() throws {
        let key = QueryKey(elements: ["todos", ["page": 2]])
        let bodies: [ClusterMessage.Body] = [
            .write(method: "queries.invalidate", params: ["filter": ["key": ["todos"]]], at: 1_700_000_000_000),
            .settled(key: key, data: ["a", 1], dataUpdatedAt: 1_700_000_000_123),
            .failed(key: key, error: ["code": 7, "message": "boom"]),
            .released(key: key),
            .pageSettled(
                key: key, page: ClusterPage(param: ["cursor": "c2"], direction: .forward),
                answer: ["data": [1], "nextPageParam": ["cursor": "c3"]]),
            .failed(
                key: key, error: ["code": 7, "message": "boom"], page: ClusterPage(param: .null, direction: .backward)),
            .released(key: key, page: ClusterPage(param: 2, direction: .forward)),
            .hello(fetchers: [], mutators: []),
            .hello(
                fetchers: [.init(prefix: ["todos"], exact: false, cancellable: true)],
                mutators: [.init(prefix: ["todos", "add"], exact: true, cancellable: false)]),
            .mutateRequest(id: 3, key: key, variables: ["title": "x"], attemptNumber: 1),
            .mutateAnswer(id: 3, answer: .success(["data": 1])),
            .mutateAnswer(id: 3, answer: .failure(.init(["code": 7, "message": "no"]))),
            .mutateCancel(id: 3),
            .fetchRequest(id: 7, request: .init(key: key, attemptNumber: 2, meta: ["trace": "x"])),
            .fetchRequest(
                id: 8,
                request: .init(key: key, attemptNumber: 1, meta: nil, page: ClusterPage(param: 3, direction: .backward))
            ),
            .fetchAnswer(id: 7, answer: .success(["data": 1])),
            .fetchAnswer(id: 7, answer: .failure(.init(["code": -32002, "message": "No fetcher"]))),
            .fetchProgress(id: 7, data: [1, 2]),
            .fetchCancel(id: 7),
        ]
        for body in bodies {
            let message = ClusterMessage(origin: "node-a", body: body)
            #expect(try ClusterMessage(decoding: message.encoded) == message)
        }
    }

    @Test func theEncodingCarriesTheLayoutVersionAndTheOrigin() throws {
        let encoded = ClusterMessage(origin: "n1", body: .released(key: QueryKey(elements: ["k"]))).encoded
        #expect(
            String(decoding: encoded, as: UTF8.self) == #"{"from":"n1","key":["k"],"type":"released","v":1}"#)
    }

    @Test func otherVersionsAndMalformedPayloadsAreRefused() {
        let cases: [(String, ClusterMessage.DecodingError)] = [
            ("not json", .notJSON),
            (#"{"v":2,"from":"n","type":"hello","fetchers":[],"mutators":[]}"#, .otherVersion(2)),
            (#"{"from":"n","type":"hello","fetchers":[],"mutators":[]}"#, .otherVersion(nil)),
            (#"{"v":1,"from":"n","type":"hello","fetchers":[]}"#, .malformed("hello needs fetchers and mutators")),
            (#"{"v":1,"from":"n","type":"fetchAnswer","id":1}"#, .malformed("fetchAnswer needs result or error")),
            (#"{"v":1,"from":"n","type":"fetchCancel"}"#, .malformed("id")),
            (#"{"v":1,"type":"hello"}"#, .malformed("from and type are required")),
            (
                #"{"v":1,"from":"n","type":"write","method":"query.set","params":{}}"#,
                .malformed("write needs method, params and at")
            ),
            (
                #"{"v":1,"from":"n","type":"settled","key":["k"],"data":1}"#,
                .malformed("settled needs data and dataUpdatedAt")
            ),
            (#"{"v":1,"from":"n","type":"released","key":"k"}"#, .malformed("key")),
            (#"{"v":1,"from":"n","type":"bogus"}"#, .malformed("unknown type bogus")),
            (
                #"{"v":1,"from":"n","type":"pageSettled","key":["k"],"result":{"data":1}}"#,
                .malformed("pageSettled needs pageParam, direction and result")
            ),
            (
                #"{"v":1,"from":"n","type":"released","key":["k"],"direction":"forward"}"#,
                .malformed("direction needs pageParam")
            ),
            (
                #"{"v":1,"from":"n","type":"released","key":["k"],"pageParam":1,"direction":"up"}"#,
                .malformed("direction")
            ),
        ]
        for (payload, expected) in cases {
            #expect(throws: expected) { try ClusterMessage(decoding: Array(payload.utf8)) }
        }
    }

    @Test func namesCarryHashTagsAndAKeysDataAndLeaseShareOne() {
        let layout = ClusterLayout(namespace: "app")
        let key = QueryKey(elements: ["todos", 1])
        #expect(String(decoding: layout.layoutKey, as: UTF8.self) == "{app}:layout")
        #expect(String(decoding: layout.channel, as: UTF8.self) == "{app}:events")
        let data = String(decoding: layout.dataKey(key), as: UTF8.self)
        let lease = String(decoding: layout.leaseKey(key), as: UTF8.self)
        #expect(data == "app:{q:\(ClusterLayout.hash(key))}:data")
        #expect(lease == "app:{q:\(ClusterLayout.hash(key))}:lease")
        // Invalidation times: one hash in the namespace's slot, a field per scalar first key element.
        #expect(String(decoding: layout.invalidatedKey, as: UTF8.self) == "{app}:invalidated")
        #expect(ClusterLayout.invalidationField("todos") == ClusterLayout.hash(QueryKey(elements: ["todos"])))
        #expect(ClusterLayout.invalidationField(1) != ClusterLayout.invalidationField("1"))
        for groupless: JSONValue? in [nil, ["id": 1], [1]] {
            #expect(ClusterLayout.invalidationField(groupless) == "*")
        }
        // A page's lease: the key's slot, one name per direction and page param.
        let next = ClusterPage(param: 2, direction: .forward)
        let pageLease = String(decoding: layout.leaseKey(key, page: next), as: UTF8.self)
        #expect(pageLease == "app:{q:\(ClusterLayout.hash(key))}:lease:\(next.hash)")
        #expect(next.hash != ClusterPage(param: 2, direction: .backward).hash)
        #expect(next.hash != ClusterPage(param: 3, direction: .forward).hash)
        #expect(ClusterLayout.hash(key).count == 16)
        // FNV-1a 64 of the canonical text `["todos",1]`, pinned so the layout cannot drift silently.
        #expect(ClusterLayout.hash(key) == "231551fa8eb9ae7d")
        #expect(ClusterLayout.hash(key) != ClusterLayout.hash(QueryKey(elements: ["todos", 2])))
    }

    @Test func anEntryIsReadOnlyForItsOwnKeyAndIsFreshByTheCallersStaleTime() {
        let key = QueryKey(elements: ["k"])
        let entry = ClusterEntry(key: key, data: ["v": 1], dataUpdatedAt: 1_000)
        #expect(ClusterEntry(reply: .bulk(entry.encoded), for: key) == entry)
        #expect(ClusterEntry(reply: .bulk(entry.encoded), for: QueryKey(elements: ["other"])) == nil)
        #expect(ClusterEntry(reply: .null, for: key) == nil)
        #expect(ClusterEntry(reply: .bulk(Array("garbage".utf8)), for: key) == nil)
        #expect(entry.isFresh(at: 1_499, staleTime: .milliseconds(500)))
        #expect(!entry.isFresh(at: 1_500, staleTime: .milliseconds(500)))
        #expect(entry.isFresh(at: 99_999_999, staleTime: .infinity))
        let layout = ClusterLayout(namespace: "n")
        #expect(
            entry.setCommand(layout, gcTime: 300_000).map { String(decoding: $0, as: UTF8.self) }.suffix(2) == [
                "PX", "300000",
            ])
        #expect(entry.setCommand(layout, gcTime: nil).count == 3)
        #expect(entry.pageLinks == nil)
    }

    @Test func anInfiniteQuerysEntryCarriesEachPagesLinks() throws {
        let key = QueryKey(elements: ["feed"])
        let links = [PageLinks(next: 1, previous: nil), PageLinks(next: nil, previous: ["cursor": "a"])]
        let entry = ClusterEntry(
            key: key, data: ["pages": ["p0", "p1"], "pageParams": [0, 1]], dataUpdatedAt: 1_000, pageLinks: links)
        #expect(ClusterEntry(reply: .bulk(entry.encoded), for: key) == entry)
        let stored = try JSONParser.parse(entry.encoded)
        #expect(stored["pageLinks"] == [["next": 1], ["previous": ["cursor": "a"]]])
        // A null link is no page, as in a fetcher's answer.
        let withNull: JSONValue = [
            "key": ["feed"], "data": ["pages": ["p0"], "pageParams": [0]], "dataUpdatedAt": 5,
            "pageLinks": [["next": nil, "previous": 4]],
        ]
        let read = ClusterEntry(reply: .bulk(withNull.encoded), for: key)
        #expect(read?.pageLinks == [PageLinks(next: nil, previous: 4)])
    }
}
