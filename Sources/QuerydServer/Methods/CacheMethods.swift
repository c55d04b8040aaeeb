// `cache.dehydrate` and `cache.hydrate`: versioned snapshots of the cache (TanStack's dehydrate and
// hydrate), for moving a cache between daemons or seeding one.

import QuerydCore
import QuerydJSON
import QuerydRPC

enum CacheMethods {
    static let all: [(String, MethodGate?, MethodHandler)] = [
        ("cache.dehydrate", nil, dehydrate),
        ("cache.hydrate", nil, hydrate),
    ]

    /// `cache.dehydrate {filter?, includePending?}` -> `{version, queries, mutations}`.
    static func dehydrate(_ call: MethodCall) throws(RPCError) {
        try call.params.expect(["filter", "includePending"])
        let filter = try call.params.filter()
        let includePending = try call.params.bool("includePending", default: false)
        call.reply.succeed(
            CacheSnapshot.dehydrate(call.server.mutations, filter: filter, includePending: includePending))
    }

    /// `cache.hydrate {snapshot}` -> `{queries, mutations}`: how many entries were written. An
    /// unsupported version's -32602 adds `supported` and `requested` (a number, else null).
    static func hydrate(_ call: MethodCall) throws(RPCError) {
        try call.params.expect(["snapshot"])
        guard let snapshot = call.params["snapshot"] else { throw Params.invalid("snapshot", "required") }
        let merged: CacheSnapshot.Merged
        do { merged = try CacheSnapshot.hydrate(snapshot, into: call.server.mutations) } catch {
            guard error.field == "snapshot.version" else { throw Params.invalid(error) }
            var requested = JSONValue.null
            if case .number? = snapshot["version"] { requested = snapshot["version"]! }
            throw RPCError(
                .invalidParams,
                data: [
                    "field": .string(error.field), "reason": .string(error.reason),
                    "supported": [.number(JSONNumber(CacheSnapshot.version))], "requested": requested,
                ])
        }
        call.reply.succeed([
            "queries": .number(JSONNumber(merged.queries)), "mutations": .number(JSONNumber(merged.mutations)),
        ])
    }
}
