// Reading a method's by-name params, with -32602 errors that say which field is wrong and why.

import QuerydCore
import QuerydJSON
import QuerydRPC

/// A request's params object; positional (array) params are refused by every method but the test fixtures.
struct Params {
    let members: [String: JSONValue]
    /// The params as sent (for the test fixtures, which also take arrays).
    let raw: JSONValue?

    init(_ params: JSONValue?) throws(RPCError) {
        raw = params
        switch params {
        case nil: members = [:]
        case .object(let object): members = object
        default: members = [:]
        }
    }

    /// Refuses positional params and members other than `allowed`.
    func expect(_ allowed: Set<String>) throws(RPCError) {
        if case .array = raw { throw Params.invalid("params", "must be an object (by-name params)") }
        for name in members.keys where !allowed.contains(name) {
            throw Params.invalid(name, "unknown parameter; expected \(allowed.sorted().joined(separator: ", "))")
        }
    }

    static func invalid(_ field: String, _ reason: String) -> RPCError {
        RPCError(.invalidParams, data: ["field": .string(field), "reason": .string(reason)])
    }

    static func invalid(_ error: OptionsError) -> RPCError { invalid(error.field, error.reason) }

    subscript(name: String) -> JSONValue? { members[name] }

    /// A required query key.
    func key(_ name: String = "key") throws(RPCError) -> QueryKey {
        guard let value = members[name] else { throw Params.invalid(name, "required") }
        do { return try QueryKey(value) } catch { throw Params.invalid(name, error.message) }
    }

    /// An optional query key.
    func optionalKey(_ name: String = "key") throws(RPCError) -> QueryKey? {
        guard members[name] != nil else { return nil }
        return try key(name)
    }

    func bool(_ name: String, default value: Bool) throws(RPCError) -> Bool {
        guard let member = members[name] else { return value }
        guard case .bool(let b) = member else { throw Params.invalid(name, "must be a boolean") }
        return b
    }

    /// A required non-negative integer.
    func int(_ name: String) throws(RPCError) -> Int {
        guard let member = members[name] else { throw Params.invalid(name, "required") }
        guard let n = member.intValue, n >= 0 else { throw Params.invalid(name, "must be a non-negative integer") }
        return n
    }

    func optionalInt(_ name: String) throws(RPCError) -> Int? {
        guard members[name] != nil else { return nil }
        return try int(name)
    }

    func options(_ name: String = "options") throws(RPCError) -> QueryOptions {
        do { return try QueryOptions(json: members[name], path: name) } catch { throw Params.invalid(error) }
    }

    func filter() throws(RPCError) -> QueryFilter {
        do { return try QueryFilter(json: members["filter"]) } catch { throw Params.invalid(error) }
    }
}
