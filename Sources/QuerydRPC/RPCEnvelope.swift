// The members of a JSON-RPC envelope that decoding looks at, gathered from a parsed object or,
// on the fast path, straight from the line's bytes as the parser meets them.

import QuerydJSON

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// The six envelope members (each nil when absent; a present `null` is `.null`). Others are ignored.
struct RPCEnvelope {
    var version: JSONValue?
    var id: JSONValue?
    var method: JSONValue?
    var params: JSONValue?
    var result: JSONValue?
    var error: JSONValue?

    init() {}

    /// The envelope members of a parsed object, found in one pass over its keys (cheaper than one
    /// hashed lookup per member name for these small objects).
    init(_ members: [String: JSONValue]) {
        for (name, value) in members {
            // Dispatch on the length first: one string comparison per member at most.
            switch name.utf8.count {
            case 2: if name == "id" { id = value }
            case 5: if name == "error" { error = value }
            case 6:
                if name == "method" {
                    method = value
                } else if name == "params" {
                    params = value
                } else if name == "result" {
                    result = value
                }
            case 7: if name == "jsonrpc" { version = value }
            default: break
            }
        }
    }

    /// Stores one member read from the line. False (give up the fast path) for a name that is not
    /// an envelope member, since any other member would need the full parser's duplicate check,
    /// and for a member seen before, which the full parser refuses as a duplicate.
    mutating func take(_ name: UnsafeRawBufferPointer, _ value: JSONValue) -> Bool {
        switch name.count {
        case 2: return Self.matches(name, "id") && Self.store(value, in: &id)
        case 5: return Self.matches(name, "error") && Self.store(value, in: &error)
        case 6:
            if Self.matches(name, "method") { return Self.store(value, in: &method) }
            if Self.matches(name, "params") { return Self.store(value, in: &params) }
            if Self.matches(name, "result") { return Self.store(value, in: &result) }
            return false
        case 7: return Self.matches(name, "jsonrpc") && Self.store(value, in: &version)
        default: return false
        }
    }

    @inline(__always)
    private static func store(_ value: JSONValue, in slot: inout JSONValue?) -> Bool {
        guard slot == nil else { return false }
        slot = value
        return true
    }

    /// Whether `name` holds exactly the bytes of `expected` (the caller checked the length).
    @inline(__always)
    private static func matches(_ name: UnsafeRawBufferPointer, _ expected: StaticString) -> Bool {
        memcmp(name.baseAddress!, expected.utf8Start, expected.utf8CodeUnitCount) == 0
    }
}
