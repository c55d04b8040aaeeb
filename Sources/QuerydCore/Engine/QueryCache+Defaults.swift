// `queries.setDefaults`, `mutations.setDefaults` and `queries.getDefaults` on the engine: option
// defaults by key prefix (see Fetching/PrefixDefaults.swift for the rules). Query defaults are
// layered over the fetchers' registration defaults when options are resolved; mutation defaults
// are merged member by member under a `mutation.run`'s own options before they are read.

public import QuerydJSON
import QuerydRPC

extension CacheFailure {
    /// A new defaults prefix beyond `PrefixDefaults.capacity`.
    static func tooManyDefaults(max: Int) -> CacheFailure {
        CacheFailure(
            .limitExceeded, data: ["limit": "defaults", "max": .number(JSONNumber(max)), "retryable": false])
    }
}

extension QueryCache {
    /// Sets the query defaults for keys under `prefix` to `options` (the object `json`); an empty
    /// object removes them. Throws -32006 past the number of prefixes allowed.
    public func setQueryDefaults(prefix: [JSONValue], json: JSONValue, options: QueryOptions) throws(CacheFailure) {
        guard queryDefaults.set(prefix, json: json, options: json == [:] ? nil : options) else {
            throw .tooManyDefaults(max: PrefixDefaults<QueryOptions>.capacity)
        }
    }

    /// The query defaults entries, in the order first set; with `key`, those applying to it,
    /// shortest prefix first.
    public func queryDefaultsEntries(for key: QueryKey?) -> [DefaultsEntry<QueryOptions>] {
        key.map(queryDefaults.matching) ?? queryDefaults.entries
    }

    /// Every default for `key` below the call's own options: the fetchers' registration defaults,
    /// then the `queries.setDefaults` entries, shorter prefixes under longer ones.
    func defaults(for key: QueryKey) -> QueryOptions {
        var merged = registry.defaults(for: key)
        guard !queryDefaults.entries.isEmpty else { return merged }
        for entry in queryDefaults.matching(key) { merged = entry.options.layered(over: merged) }
        return merged
    }
}

extension MutationCache {
    /// Sets the mutation defaults for keys under `prefix` to the options object `json` (already
    /// read as valid `MutationOptions`); an empty object removes them. Throws -32006 past the
    /// number of prefixes allowed.
    public func setDefaults(prefix: [JSONValue], json: JSONValue) throws(CacheFailure) {
        let members = json.objectValue ?? [:]
        guard defaults.set(prefix, json: json, options: members.isEmpty ? nil : members) else {
            throw .tooManyDefaults(max: PrefixDefaults<[String: JSONValue]>.capacity)
        }
    }

    /// The mutation defaults entries, in the order first set; with `key`, those applying to it,
    /// shortest prefix first.
    public func defaultsEntries(for key: QueryKey?) -> [DefaultsEntry<[String: JSONValue]>] {
        key.map(defaults.matching) ?? defaults.entries
    }

    /// `mutation.run`'s options for `key`: the members of `json` over those of every defaults
    /// entry applying to the key (longer prefixes over shorter ones).
    public func options(for key: QueryKey, json: JSONValue?) throws(OptionsError) -> MutationOptions {
        let applying = defaults.entries.isEmpty ? [] : defaults.matching(key)
        // Not an object (or no entry applies): read as it is, so a malformed value is reported as such.
        let own = json == nil || json == .null ? [:] : json?.objectValue
        guard !applying.isEmpty, let own else { return try MutationOptions(json: json) }
        var members: [String: JSONValue] = [:]
        for entry in applying { members.merge(entry.options) { _, later in later } }
        members.merge(own) { _, mine in mine }
        return try MutationOptions(json: .object(members))
    }
}
