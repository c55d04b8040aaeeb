// Compaction: a copy of a value whose objects and arrays hold no spare room.
//
// The parser sizes containers for speed (each object starts with room for 6 members, each array
// for 4 elements), which for a value kept for long, such as a query's data, is mostly empty
// buckets. `compacted()` rebuilds every container at the smallest capacity that holds it; strings
// and numbers are shared, not copied.

extension JSONValue {
    /// An equal value in which every object and array has the smallest capacity that holds it.
    public func compacted() -> JSONValue {
        switch self {
        case .null, .bool, .number, .string:
            return self
        case .array(let items):
            if items.isEmpty { return .array([]) }
            return .array(items.map { $0.compacted() })
        case .object(let members):
            if members.isEmpty { return .object([:]) }
            var compact = [String: JSONValue](minimumCapacity: members.count)
            for (name, value) in members {
                compact[name] = value.compacted()
            }
            return .object(compact)
        }
    }
}
