// Option defaults set by key prefix, without being a fetcher or a mutator: `queries.setDefaults`
// and `mutations.setDefaults` (TanStack's setQueryDefaults / setMutationDefaults).
//
// Rules:
// - An entry applies to every key its prefix matches (as a fetcher's prefix does). Several entries
//   are layered shortest prefix first, so the longest matching prefix wins member by member.
// - Setting the same prefix again replaces that entry's options; an empty options object removes it.
// - For queries the layers are: built-in defaults, then fetcher-registration `defaults`, then these
//   entries, then the call's own options (TanStack layers query defaults under the call's options).

public import QuerydJSON

/// One prefix's defaults: the options as given (listed back by `queries.getDefaults`) and parsed.
public struct DefaultsEntry<Options>: Sendable where Options: Sendable {
    /// The key prefix the entry applies to.
    public let prefix: [JSONValue]
    /// The options object as it was set.
    public let json: JSONValue
    let options: Options
}

/// Every defaults entry of one kind (query or mutation), in the order first set.
struct PrefixDefaults<Options: Sendable> {
    /// The most entries of one kind; setting a new prefix beyond it is refused.
    static var capacity: Int { 1024 }

    private(set) var entries: [DefaultsEntry<Options>] = []

    /// Sets (or, with `options` nil, removes) the entry for `prefix`; false when a new entry would
    /// exceed `capacity`.
    mutating func set(_ prefix: [JSONValue], json: JSONValue, options: Options?) -> Bool {
        let index = entries.firstIndex { $0.prefix == prefix }
        guard let options else {
            if let index { entries.remove(at: index) }
            return true
        }
        let entry = DefaultsEntry(prefix: prefix, json: json, options: options)
        if let index {
            entries[index] = entry
            return true
        }
        guard entries.count < Self.capacity else { return false }
        entries.append(entry)
        return true
    }

    /// The entries that apply to `key`, shortest prefix first (the order they are layered in).
    func matching(_ key: QueryKey) -> [DefaultsEntry<Options>] {
        entries.filter { KeyMatching.matches(key, prefix: $0.prefix) }.sorted { $0.prefix.count < $1.prefix.count }
    }
}
