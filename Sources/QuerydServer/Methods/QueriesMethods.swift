// `queries.*`: operations over every query a filter matches.

import QuerydCore
import QuerydJSON
import QuerydRPC

enum QueriesMethods {
    static let all: [(String, MethodGate?, MethodHandler)] = [
        ("queries.invalidate", nil, { call throws(RPCError) in try filterWrite(call, "queries.invalidate") }),
        ("queries.refetch", nil, { call throws(RPCError) in try filterWrite(call, "queries.refetch") }),
        ("queries.cancel", nil, { call throws(RPCError) in try filterWrite(call, "queries.cancel") }),
        ("queries.remove", nil, { call throws(RPCError) in try filterWrite(call, "queries.remove") }),
        ("queries.reset", nil, { call throws(RPCError) in try filterWrite(call, "queries.reset") }),
        ("queries.list", nil, list),
        ("queries.setData", nil, setData),
    ]

    /// `queries.invalidate {filter?, refetchType?, cancelRefetch?}`, `queries.refetch` / `reset`
    /// `{filter?, cancelRefetch?}`, `queries.remove` / `cancel` `{filter?}` (see `FilterWrite`);
    /// in a cluster, also sent to every other node.
    private static func filterWrite(_ call: MethodCall, _ method: String) throws(RPCError) {
        guard let write = try FilterWrite(method: method, params: call.params) else { return }
        let outcome = call.server.apply(write, method: method, params: call.params.raw)
        call.server.answerFilterCall(outcome, reply: call.reply, session: call.session)
    }

    /// `queries.setData {filter, data | mergePatch, updatedAt?}` (setQueriesData): writes to every
    /// cached match, all or nothing.
    static func setData(_ call: MethodCall) throws(RPCError) {
        let params = call.params
        try params.expect(["filter", "data", "mergePatch", "updatedAt"])
        guard params["filter"] != nil else { throw Params.invalid("filter", "required (use {} for every query)") }
        let filter = try params.filter()
        let write = try params.write()
        let updatedAt = try params.optionalInt("updatedAt").map(Int64.init)
        let keys: [QueryKey]
        do {
            keys = try call.cache.setData(filter, write, updatedAt: updatedAt)
        } catch  where error.code == RPCErrorCode.limitExceeded.rawValue {
            throw .dataTooLarge(bytes: error.data?["bytes"]?.intValue ?? 0, configuration: call.server.configuration)
        } catch {
            throw RPCError(failure: error)
        }
        // As for `query.set`: subscriptions of this connection with `echo: false` are not pushed.
        call.server.applyEffects()
        for key in keys { call.session.outbox.dropEchoes(ofWriteTo: key) }
        if let cluster = call.server.cluster {
            var published = params.members
            published["updatedAt"] = .number(JSONNumber(updatedAt ?? call.cache.now))
            cluster.wroteData(method: "queries.setData", params: .object(published), keys: keys)
        }
        call.reply.succeed(["matched": .number(JSONNumber(keys.count))])
    }

    /// `queries.list {filter?, cursor?, limit?}`: without `cursor`, every match as an array;
    /// with one (`null` to start), a page `{"queries": [...], "nextCursor": s}` (no `nextCursor` on
    /// the last page).
    static func list(_ call: MethodCall) throws(RPCError) {
        try call.params.expect(["filter", "cursor", "limit"])
        let filter = try call.params.filter()
        guard let cursor = call.params["cursor"] else {
            if call.params["limit"] != nil { throw Params.invalid("limit", "only with \"cursor\"") }
            let results = call.cache.list(filter)
            call.reply.succeed(writing: { out in write(results, to: &out) })
            return
        }
        var after: [UInt8]?
        if cursor != .null {
            guard let text = cursor.stringValue, let bytes = ListCursor.decode(text) else {
                throw Params.invalid("cursor", "must be null or a nextCursor returned by queries.list")
            }
            after = bytes
        }
        let limit = try call.params.optionalInt("limit") ?? ListCursor.defaultLimit
        guard (1...ListCursor.maxLimit).contains(limit) else {
            throw Params.invalid("limit", "must be an integer from 1 to \(ListCursor.maxLimit)")
        }
        let (page, more) = call.cache.listPage(filter, after: after, limit: limit)
        call.reply.succeed(writing: { out in
            out.append(contentsOf: #"{"queries":"#.utf8)
            write(page, to: &out)
            // A cursor is hex digits: written as it is, with no escaping to do.
            if more, let last = page.last {
                out.append(contentsOf: #","nextCursor":"\#(ListCursor.encode(last.key))""#.utf8)
            }
            out.append(UInt8(ascii: "}"))
        })
    }

    /// Writes states as a JSON array.
    private static func write(_ results: [QueryResult], to out: inout [UInt8]) {
        out.append(UInt8(ascii: "["))
        for (index, result) in results.enumerated() {
            if index > 0 { out.append(UInt8(ascii: ",")) }
            result.write(to: &out)
        }
        out.append(UInt8(ascii: "]"))
    }
}

/// The `queries.list` cursor: the last listed key's canonical bytes in lowercase hex (opaque to
/// clients; keys order by these bytes, so the next page starts after it).
enum ListCursor {
    static let defaultLimit = 100
    static let maxLimit = 1000
    private static let digits = Array("0123456789abcdef".utf8)

    static func encode(_ key: QueryKey) -> String {
        var text: [UInt8] = []
        key.withCanonicalBytes { bytes in
            for byte in bytes {
                text.append(digits[Int(byte >> 4)])
                text.append(digits[Int(byte & 15)])
            }
        }
        return String(decoding: text, as: UTF8.self)
    }

    /// The bytes of a cursor, or nil when `text` is not one.
    static func decode(_ text: String) -> [UInt8]? {
        let utf8 = Array(text.utf8)
        guard !utf8.isEmpty, utf8.count % 2 == 0 else { return nil }
        var bytes: [UInt8] = []
        bytes.reserveCapacity(utf8.count / 2)
        var index = 0
        while index < utf8.count {
            guard let high = digits.firstIndex(of: utf8[index]), let low = digits.firstIndex(of: utf8[index + 1])
            else { return nil }
            bytes.append(UInt8(high << 4 | low))
            index += 2
        }
        return bytes
    }
}
