// The JSON of one cache event as `cache.changed` carries it (protocol/methods/cache-watch.md):
// `{"type": …}` plus the query's state, the key, the registration or the mutation's state.

import QuerydCore
import QuerydJSON

enum CacheEventEncoding {
    /// Appends the event's object to `out`; query states are read from `cache` now.
    static func write(_ event: CacheEvent, cache: QueryCache, withData: Bool, to out: inout [UInt8]) {
        switch event {
        case .queryAdded(let query), .queryChanged(let query):
            let type = if case .queryAdded = event { "query.added" } else { "query.changed" }
            out.append(contentsOf: #"{"type":""#.utf8)
            out.append(contentsOf: type.utf8)
            out.append(contentsOf: #"","state":"#.utf8)
            cache.watchedState(of: query).write(to: &out, shape: withData ? .standard : .withoutData)
            out.append(UInt8(ascii: "}"))
        case .queryRemoved(let key):
            JSONValue.object(["type": "query.removed", "key": key.jsonValue]).write(to: &out)
        case .fetchStarted(let key):
            JSONValue.object(["type": "fetch.started", "key": key.jsonValue]).write(to: &out)
        case .fetchSettled(let key, let succeeded):
            JSONValue.object(["type": "fetch.settled", "key": key.jsonValue, "succeeded": .bool(succeeded)])
                .write(to: &out)
        case .registered(let registration):
            json(registration, type: "\(registration.role.rawValue).registered").write(to: &out)
        case .unregistered(let registration):
            json(registration, type: "\(registration.role.rawValue).unregistered").write(to: &out)
        case .mutationStarted(let state):
            JSONValue.object(["type": "mutation.started", "mutation": state.jsonValue]).write(to: &out)
        case .mutationSettled(let state):
            JSONValue.object(["type": "mutation.settled", "mutation": state.jsonValue]).write(to: &out)
        }
    }

    /// A registration as `cache.watch` lists it (with `type` when given).
    static func json(_ registration: Registration, type: String? = nil) -> JSONValue {
        var members: [String: JSONValue] = [
            "id": .number(JSONNumber(registration.id)),
            "connection": .number(JSONNumber(registration.connection.rawValue)),
            "prefix": .array(registration.prefix), "exact": .bool(registration.exact),
            "inFlight": .number(JSONNumber(registration.inFlight)),
        ]
        if registration.role == .fetcher { members["cancellable"] = .bool(registration.cancellable) }
        if let type { members["type"] = .string(type) }
        return .object(members)
    }
}
