// `cache.watch` / `cache.unwatch`: the whole cache as a snapshot and then a stream of coalesced
// `cache.changed` events (queries added, changed and removed; registrations; fetches and mutations
// started and settled), for the devtools page and `queryd watch --all`.

import QuerydCore
import QuerydJSON
import QuerydRPC

enum WatchMethods {
    static let all: [(String, MethodGate?, MethodHandler)] = [
        ("cache.watch", nil, watch),
        ("cache.unwatch", nil, unwatch),
    ]

    /// `cache.watch {filter?, data?, snapshot?}` → `{watch, queries?, fetchers, mutators, mutations}`.
    static func watch(_ call: MethodCall) throws(RPCError) {
        let params = call.params
        try params.expect(["filter", "data", "snapshot"])
        let filter = try params.filter()
        guard filter.type == .all, filter.stale == nil, filter.fetchStatus == nil else {
            throw Params.invalid("filter", "a watch filter takes only key and exact")
        }
        let withData = try params.bool("data", default: false)
        let snapshot = try params.bool("snapshot", default: true)
        let server = call.server
        let watch = server.cacheWatchers.add(connection: call.session.connection, filter: filter, withData: withData)
        server.updateCacheEventReporting()
        let queries = snapshot ? call.cache.watchedStates(filter) : []
        let fetchers = call.cache.fetcherRegistrations.map { CacheEventEncoding.json($0) }
        let mutators = server.mutations.mutatorRegistrations.map { CacheEventEncoding.json($0) }
        let mutations = server.mutations.list(MutationFilter()).map(\.jsonValue)
        call.reply.succeed(writing: { out in
            out.append(contentsOf: #"{"watch":"#.utf8)
            JSONWriter.writeInteger(Int64(watch.id), to: &out)
            if snapshot {
                out.append(contentsOf: #","queries":["#.utf8)
                for (index, state) in queries.enumerated() {
                    if index > 0 { out.append(UInt8(ascii: ",")) }
                    state.write(to: &out, shape: withData ? .standard : .withoutData)
                }
                out.append(UInt8(ascii: "]"))
            }
            out.append(contentsOf: #","fetchers":"#.utf8)
            JSONValue.array(fetchers).write(to: &out)
            out.append(contentsOf: #","mutators":"#.utf8)
            JSONValue.array(mutators).write(to: &out)
            out.append(contentsOf: #","mutations":"#.utf8)
            JSONValue.array(mutations).write(to: &out)
            out.append(UInt8(ascii: "}"))
        })
    }

    /// `cache.unwatch {watch}` → `{}`.
    static func unwatch(_ call: MethodCall) throws(RPCError) {
        try call.params.expect(["watch"])
        let id = try call.params.int("watch")
        guard call.server.cacheWatchers.remove(id, connection: call.session.connection) else {
            throw RPCError(failure: .unknownID("watch", id))
        }
        call.server.updateCacheEventReporting()
        call.reply.succeed([:])
    }
}
