// Reading a method's by-name params, with -32602 errors that say which field is wrong and why.

import QuerydCore
import QuerydJSON
import QuerydRPC

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

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

    /// Refuses positional params and members other than `allowed` and the reserved `_meta` (an
    /// object every params object may carry, ignored). The names are compile-time constants compared
    /// byte by byte, so the usual call (a literal list) allocates and hashes nothing.
    func expect(_ allowed: [StaticString]) throws(RPCError) {
        if case .array = raw { throw Params.invalid("params", "must be an object (by-name params)") }
        for name in members.keys where !Params.contains(allowed, name) {
            if name == Params.meta {
                guard case .object? = members[name] else { throw Params.invalid(name, "must be an object") }
                continue
            }
            let expected = Set(allowed.map { $0.description }).sorted().joined(separator: ", ")
            throw Params.invalid(name, "unknown parameter; expected \(expected)")
        }
    }

    /// The member reserved in every params object for tracing ids, deadlines and progress tokens.
    static let meta = "_meta"

    /// Whether `name` is one of `names`, with `String` equality. An ASCII name equals another
    /// ASCII name exactly when their bytes do, so that case compares bytes; a name with other
    /// characters (which may be canonically equivalent to an ASCII one) takes the `String` comparison.
    private static func contains(_ names: [StaticString], _ name: String) -> Bool {
        var name = name
        let byBytes: Bool? = name.withUTF8 { bytes in
            guard bytes.allSatisfy({ $0 < 0x80 }) else { return nil }
            return names.contains { allowed in
                allowed.utf8CodeUnitCount == bytes.count
                    && (bytes.isEmpty || memcmp(allowed.utf8Start, bytes.baseAddress!, bytes.count) == 0)
            }
        }
        return byBytes ?? names.contains { $0.description == name }
    }

    static func invalid(_ field: String, _ reason: String) -> RPCError {
        RPCError(
            .invalidParams, data: ["field": .string(EchoedText.shortened(field)), "reason": .string(reason)])
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

    /// What `query.set` and `queries.setData` write: exactly one of `data` and `mergePatch`.
    func write() throws(RPCError) -> QueryWrite {
        switch (members["data"], members["mergePatch"]) {
        case (let data?, nil): return .data(data)
        case (nil, let patch?): return .mergePatch(patch)
        default: throw Params.invalid("data", "give exactly one of data and mergePatch")
        }
    }
}
