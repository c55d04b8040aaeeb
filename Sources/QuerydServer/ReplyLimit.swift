// Replies that could never be written: a reply line longer than `--max-outbound-bytes` would make
// the connection close as a slow consumer's, so it is answered with -32006 instead, and a write
// whose data could never be read back is refused before it is stored.

import QuerydCore
import QuerydJSON
import QuerydRPC

extension RPCError {
    /// The -32006 answer to a request whose reply line (`bytes` long, with its newline) would pass
    /// `--max-outbound-bytes`: `{"limit":"max-outbound-bytes","max":N,"bytes":S,"retryable":false}`,
    /// plus `extra` members.
    static func replyTooLarge(bytes: Int, limit: Int, extra: [String: JSONValue] = [:]) -> RPCError {
        var data: [String: JSONValue] = [
            "limit": "max-outbound-bytes", "max": .number(JSONNumber(limit)), "bytes": .number(JSONNumber(bytes)),
            "retryable": false,
        ]
        data.merge(extra) { $1 }
        return RPCError(.limitExceeded, data: .object(data))
    }

    /// The -32006 answer to a `query.set` whose data (`bytes` long, encoded) could not be sent
    /// back within `--max-outbound-bytes`, neither in its reply nor in a later read or push; the
    /// message limit is named too (`maxMessageBytes`), since it is what lets such a write arrive.
    static func dataTooLarge(bytes: Int, configuration: ServerConfiguration) -> RPCError {
        let outbound = configuration.maxOutboundBytes
        let message = configuration.maxMessageBytes
        return .replyTooLarge(
            bytes: bytes, limit: outbound,
            extra: [
                "maxMessageBytes": .number(JSONNumber(message)),
                "reason": .string(
                    "the data takes \(bytes) bytes: its replies and pushes could not fit --max-outbound-bytes "
                        + "\(outbound) (--max-message-bytes is \(message))"),
            ])
    }
}

extension ServerConfiguration {
    /// The most bytes a query's encoded data and key may take: what leaves room, in a reply or push
    /// line of at most `maxOutboundBytes`, for the state's other members and the envelope (4096
    /// bytes, or half the limit when it is below 8192).
    var maxDataBytes: Int { maxOutboundBytes - min(4096, maxOutboundBytes / 2) }
}

enum ReplyLimit {
    /// Appends the reply `write` writes for `id`; when that line (with its newline) would be longer
    /// than `limit`, appends the -32006 `replyTooLarge` error instead.
    static func write(id: RPCID, limit: Int, to out: inout [UInt8], _ write: (RPCID, inout [UInt8]) -> Void) {
        let start = out.count
        write(id, &out)
        let bytes = out.count - start + 1
        guard bytes > limit else { return }
        out.removeSubrange(start...)
        RPCWriter.error(id: id, error: .replyTooLarge(bytes: bytes, limit: limit), to: &out)
    }
}

extension Outbox {
    /// The `query.changed` line for a push of `view` whose line (`bytes` long) would pass `limit`:
    /// its state without `data`, and `dataOmitted: {"limit":"max-outbound-bytes","max":N,"bytes":S}`
    /// saying why. Reading the data (`query.get`) then gets the -32006 reply.
    static func dataOmittedPush(_ view: QueryView, to subscription: SubscriptionID, bytes: Int, limit: Int)
        -> [UInt8]
    {
        var out = Array(#"{"jsonrpc":"2.0","method":"query.changed","params":{"dataOmitted":"#.utf8)
        let reason: JSONValue = [
            "limit": "max-outbound-bytes", "max": .number(JSONNumber(limit)), "bytes": .number(JSONNumber(bytes)),
        ]
        reason.write(to: &out)
        out.append(contentsOf: #","state":"#.utf8)
        view.result.withoutData.write(to: &out)
        out.append(contentsOf: #","subscription":"#.utf8)
        JSONWriter.writeInteger(Int64(subscription.rawValue), to: &out)
        out.append(contentsOf: "}}\n".utf8)
        return out
    }
}
