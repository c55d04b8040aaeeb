// `queries.setDefaults`, `mutations.setDefaults` and `queries.getDefaults`: option defaults by key
// prefix without being a fetcher or a mutator (TanStack's setQueryDefaults / setMutationDefaults).

import QuerydCore
import QuerydJSON
import QuerydRPC

enum DefaultsMethods {
    static let all: [(String, MethodGate?, MethodHandler)] = [
        ("queries.setDefaults", nil, setQueryDefaults),
        ("queries.getDefaults", nil, getDefaults),
        ("mutations.setDefaults", nil, setMutationDefaults),
    ]

    /// `{key, options}`: query options (as `query.subscribe` takes them) for keys under `key`.
    static func setQueryDefaults(_ call: MethodCall) throws(RPCError) {
        let (prefix, json) = try prefixAndOptions(call.params)
        let options: QueryOptions
        do { options = try QueryOptions(json: json) } catch { throw Params.invalid(error) }
        do { try call.cache.setQueryDefaults(prefix: prefix, json: json, options: options) } catch {
            throw RPCError(failure: error)
        }
        call.reply.succeed([:])
    }

    /// `{key, options}`: `mutation.run` options for mutation keys under `key`.
    static func setMutationDefaults(_ call: MethodCall) throws(RPCError) {
        let (prefix, json) = try prefixAndOptions(call.params)
        do { _ = try MutationOptions(json: json) } catch { throw Params.invalid(error) }
        do { try call.server.mutations.setDefaults(prefix: prefix, json: json) } catch {
            throw RPCError(failure: error)
        }
        call.reply.succeed([:])
    }

    /// `{key?}` -> `{queries: [{key, options}], mutations: [{key, options}]}`: every entry in the
    /// order first set, or with `key` the entries applying to it, shortest prefix first.
    static func getDefaults(_ call: MethodCall) throws(RPCError) {
        try call.params.expect(["key"])
        let key = call.params["key"] == nil ? nil : try call.params.key()
        let queries = call.cache.queryDefaultsEntries(for: key).map { listed($0.prefix, $0.json) }
        let mutations = call.server.mutations.defaultsEntries(for: key).map { listed($0.prefix, $0.json) }
        call.reply.succeed(["queries": .array(queries), "mutations": .array(mutations)])
    }

    private static func prefixAndOptions(_ params: Params) throws(RPCError) -> ([JSONValue], JSONValue) {
        try params.expect(["key", "options"])
        guard case .array(let prefix)? = params["key"] else { throw Params.invalid("key", "required: a JSON array") }
        guard let options = params["options"], case .object = options else {
            throw Params.invalid("options", "required: an object (empty to remove the defaults)")
        }
        return (prefix, options)
    }

    private static func listed(_ prefix: [JSONValue], _ options: JSONValue) -> JSONValue {
        ["key": .array(prefix), "options": options]
    }
}
