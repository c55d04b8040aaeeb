// `fetcher.register` / `fetcher.unregister`: a connection offers to serve `fetch` for a key prefix.

import QuerydCore
import QuerydJSON
import QuerydRPC

enum FetcherMethods {
    static let all: [(String, MethodGate?, MethodHandler)] = [
        ("fetcher.register", nil, register),
        ("fetcher.unregister", nil, unregister),
    ]

    static func register(_ call: MethodCall) throws(RPCError) {
        let params = call.params
        try params.expect(["key", "exact", "cancellable", "defaults"])
        guard case .array(let prefix)? = params["key"] else { throw Params.invalid("key", "required: a JSON array") }
        let exact = try params.bool("exact", default: false)
        if exact, prefix.isEmpty { throw Params.invalid("exact", "an exact fetcher needs a non-empty key") }
        let id = call.cache.registerFetcher(
            connection: call.session.connection, prefix: prefix, exact: exact,
            cancellable: try params.bool("cancellable", default: false), defaults: try params.options("defaults"),
            startWaiting: false)
        call.reply.succeed(["fetcher": .number(JSONNumber(id.rawValue))])
        // After the answer, so a fetcher never sees a fetch for a registration it has not been told of.
        call.cache.startFetches(waitingFor: id)
    }

    static func unregister(_ call: MethodCall) throws(RPCError) {
        try call.params.expect(["fetcher"])
        let id = FetcherID(try call.params.int("fetcher"))
        do {
            try call.cache.unregisterFetcher(id, connection: call.session.connection)
        } catch {
            throw RPCError(failure: error)
        }
        call.reply.succeed([:])
    }
}
