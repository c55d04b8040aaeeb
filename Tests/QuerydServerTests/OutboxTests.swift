// The outbox's `query.changed` lines: a view shared by many subscriptions is written as the same
// bytes its own full encoding gives, and coalescing (newest view, place kept), dropped pushes and
// held pushes behave as they did when every push was encoded on its own.

import QuerydCore
import QuerydJSON
import QuerydRPC
import Testing

@testable import QuerydServer

@Suite struct OutboxTests {
    /// Views of two keys, as a subscriber is shown them.
    static func views() -> (QueryView, QueryView) {
        let cache = QueryCache(clock: ManualClock())
        let first = QueryKey(elements: [.string("a")])
        let second = QueryKey(elements: [.string("b"), .number(JSONNumber(2))])
        _ = try! cache.set(key: first, .data(["text": "é\n\"", "list": [1, 2.5, nil, true]]), updatedAt: nil)
        _ = try! cache.set(key: second, .data(42), updatedAt: nil)
        let (_, a) = try! cache.subscribe(connection: ConnectionID(1), key: first, options: QueryOptions())
        let (_, b) = try! cache.subscribe(connection: ConnectionID(1), key: second, options: QueryOptions())
        return (QueryView(a), QueryView(b))
    }

    /// The line the outbox wrote before views were shared: the whole notification encoded as JSON.
    static func ownLine(_ view: QueryView, _ subscription: Int) -> [UInt8] {
        var out: [UInt8] = []
        let params: JSONValue = ["state": view.result.jsonValue, "subscription": .number(JSONNumber(subscription))]
        RPCWriter.notification(method: "query.changed", params: params, to: &out)
        out.append(UInt8(ascii: "\n"))
        return out
    }

    @Test func aSharedViewIsWrittenAsItsOwnEncoding() {
        let (a, b) = OutboxTests.views()
        var ownState: [UInt8] = []
        a.result.write(to: &ownState)
        #expect(a.encodedState == ownState)
        var outbox = Outbox()
        for subscription in [1, 22, 333, 4_444_444] { outbox.appendPush(a, to: SubscriptionID(subscription)) }
        outbox.appendPush(b, to: SubscriptionID(5))
        let expected =
            OutboxTests.ownLine(a, 1) + OutboxTests.ownLine(a, 22) + OutboxTests.ownLine(a, 333)
            + OutboxTests.ownLine(a, 4_444_444) + OutboxTests.ownLine(b, 5)
        #expect(outbox.take() == expected)
        #expect(outbox.isEmpty)
    }

    @Test func pushesCoalesceInPlaceAndDroppedOnesMoveToTheEnd() {
        let (a, b) = OutboxTests.views()
        var outbox = Outbox()
        outbox.appendPush(a, to: SubscriptionID(1))
        outbox.appendPush(a, to: SubscriptionID(2))
        outbox.appendLine { $0.append(contentsOf: "reply".utf8) }
        outbox.appendPush(b, to: SubscriptionID(1))
        outbox.dropPushes(of: SubscriptionID(2))
        outbox.appendPush(a, to: SubscriptionID(3))
        outbox.dropPushes(of: SubscriptionID(3))
        outbox.appendPush(b, to: SubscriptionID(3))
        let expected = OutboxTests.ownLine(b, 1) + Array("reply\n".utf8) + OutboxTests.ownLine(b, 3)
        #expect(outbox.take() == expected)
        // After a take, a subscription's next push takes a new place.
        outbox.appendLine { $0.append(contentsOf: "next".utf8) }
        outbox.appendPush(a, to: SubscriptionID(1))
        #expect(outbox.take() == Array("next\n".utf8) + OutboxTests.ownLine(a, 1))
    }

    @Test func heldPushesFollowTheBatchReply() {
        let (a, b) = OutboxTests.views()
        var outbox = Outbox()
        outbox.appendPush(a, to: SubscriptionID(1))
        outbox.holdPushes()
        outbox.appendPush(b, to: SubscriptionID(1))
        outbox.appendPush(a, to: SubscriptionID(2))
        outbox.appendPush(b, to: SubscriptionID(3))
        outbox.dropPushes(of: SubscriptionID(3))
        outbox.appendLine { $0.append(contentsOf: "[batch reply]".utf8) }
        outbox.releasePushes()
        outbox.appendPush(b, to: SubscriptionID(2))
        let expected =
            OutboxTests.ownLine(b, 1) + Array("[batch reply]\n".utf8) + OutboxTests.ownLine(b, 2)
        #expect(outbox.take() == expected)
    }

    @Test func aPushLongerThanTheLineLimitIsSentWithoutItsData() {
        let (a, b) = OutboxTests.views()
        var outbox = Outbox()
        let aLine = OutboxTests.ownLine(a, 7).count
        outbox.lineLimit = aLine - 1
        outbox.appendPush(a, to: SubscriptionID(7))
        outbox.appendPush(b, to: SubscriptionID(8))
        let lines = String(decoding: outbox.take(), as: UTF8.self).split(separator: "\n").map(String.init)
        #expect(lines.count == 2)
        guard case .object(var state) = a.result.jsonValue else { return }
        state["data"] = nil
        // The line's length as reckoned before writing: its one-digit id, `}}` and newline (4 bytes)
        // counted as 20 digits of room and those 3 bytes.
        let reckoned = aLine - 4 + 23
        #expect(
            (try? JSONParser.parse(lines[0]))
                == [
                    "jsonrpc": "2.0", "method": "query.changed",
                    "params": [
                        "dataOmitted": [
                            "limit": "max-outbound-bytes", "max": .number(JSONNumber(aLine - 1)),
                            "bytes": .number(JSONNumber(reckoned)),
                        ],
                        "state": .object(state), "subscription": 7,
                    ],
                ])
        #expect(Array((lines[1] + "\n").utf8) == OutboxTests.ownLine(b, 8))
    }

    @Test func subscriptionsSharingAFilterBitCoalesceApart() {
        let (a, b) = OutboxTests.views()
        var outbox = Outbox()
        // 1, 1,025 and 2,049 share the pending-push filter's bit (ids modulo 512); 7 does not.
        outbox.appendPush(a, to: SubscriptionID(1))
        outbox.appendPush(a, to: SubscriptionID(1_025))
        outbox.appendPush(a, to: SubscriptionID(7))
        outbox.appendPush(b, to: SubscriptionID(2_049))
        outbox.appendPush(b, to: SubscriptionID(1_025))
        outbox.appendPush(b, to: SubscriptionID(7))
        outbox.dropPushes(of: SubscriptionID(1))
        outbox.dropPushes(of: SubscriptionID(3))
        let expected = OutboxTests.ownLine(b, 1_025) + OutboxTests.ownLine(b, 7) + OutboxTests.ownLine(b, 2_049)
        #expect(outbox.take() == expected)
    }

    @Test func manySubscriptionsKeepTheirPlacesWhenTheyCoalesce() {
        let (a, b) = OutboxTests.views()
        var outbox = Outbox()
        let ids = Array(1...3_000)
        for id in ids { outbox.appendPush(a, to: SubscriptionID(id)) }
        outbox.appendLine { $0.append(contentsOf: "reply".utf8) }
        for id in ids where id % 7 == 0 { outbox.appendPush(b, to: SubscriptionID(id)) }
        for id in ids where id % 11 == 0 { outbox.dropPushes(of: SubscriptionID(id)) }
        outbox.appendPush(a, to: SubscriptionID(11))
        var expected: [UInt8] = []
        for id in ids where id % 11 != 0 { expected += OutboxTests.ownLine(id % 7 == 0 ? b : a, id) }
        expected += Array("reply\n".utf8) + OutboxTests.ownLine(a, 11)
        #expect(outbox.take() == expected)
        #expect(outbox.isEmpty)
    }

    @Test func heldPushesOutliveATakeAndStillCoalesce() {
        let (a, b) = OutboxTests.views()
        var outbox = Outbox()
        outbox.appendPush(a, to: SubscriptionID(1))
        outbox.holdPushes()
        outbox.appendPush(b, to: SubscriptionID(2))
        outbox.appendPush(a, to: SubscriptionID(3))
        outbox.appendLine { $0.append(contentsOf: "reply".utf8) }
        // A flush while the batch is handled writes what is not held.
        #expect(outbox.take() == OutboxTests.ownLine(a, 1) + Array("reply\n".utf8))
        outbox.appendPush(b, to: SubscriptionID(3))
        outbox.appendPush(a, to: SubscriptionID(1))
        outbox.dropPushes(of: SubscriptionID(2))
        outbox.appendLine { $0.append(contentsOf: "[batch reply]".utf8) }
        outbox.releasePushes()
        outbox.appendPush(a, to: SubscriptionID(3))
        let expected = Array("[batch reply]\n".utf8) + OutboxTests.ownLine(a, 3) + OutboxTests.ownLine(a, 1)
        #expect(outbox.take() == expected)
        #expect(outbox.isEmpty)
    }
}
