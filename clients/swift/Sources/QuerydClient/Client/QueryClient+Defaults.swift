// Defaults by key prefix: `queries.setDefaults`, `mutations.setDefaults` and `queries.getDefaults`
// (TanStack's setQueryDefaults / setMutationDefaults). The longest matching prefix wins; query
// defaults sit above fetcher-registration defaults and below a call's own options.

public import QuerydJSON

/// One defaults entry: a key prefix and the options set for it, as the daemon lists them.
public struct DefaultsEntry: Sendable, Hashable {
    /// The key prefix (a JSON array).
    public var key: JSONValue
    /// The options object as it was set.
    public var options: JSONValue
}

/// What `queries.getDefaults` lists.
public struct DefaultsListing: Sendable, Hashable {
    /// Query defaults entries.
    public var queries: [DefaultsEntry]
    /// Mutation defaults entries.
    public var mutations: [DefaultsEntry]
}

extension QueryClient {
    /// `queries.setDefaults`: `options` for every query key under `prefix`; empty options remove the entry.
    public func setQueryDefaults(_ prefix: some QueryKey, options: QueryOptions) async throws(QueryClientError) {
        let params: JSONValue = ["key": try KeyEncoding.json(prefix), "options": options.jsonValue]
        _ = try await request("queries.setDefaults", params, binding: nil)
    }

    /// `mutations.setDefaults`: `options` for every mutation key under `prefix`; empty options remove the entry.
    public func setMutationDefaults(_ prefix: some QueryKey, options: MutationOptions) async throws(QueryClientError) {
        let params: JSONValue = ["key": try KeyEncoding.json(prefix), "options": options.jsonValue]
        _ = try await request("mutations.setDefaults", params, binding: nil)
    }

    /// `queries.getDefaults`: every entry, in the order first set.
    public func getDefaults() async throws(QueryClientError) -> DefaultsListing {
        try await defaultsListing([:])
    }

    /// `queries.getDefaults {key}`: the entries applying to `key`, shortest prefix first.
    public func getDefaults(for key: some QueryKey) async throws(QueryClientError) -> DefaultsListing {
        try await defaultsListing(["key": try KeyEncoding.json(key)])
    }

    private func defaultsListing(_ params: JSONValue) async throws(QueryClientError) -> DefaultsListing {
        let result = try await request("queries.getDefaults", params, binding: nil)
        func entries(_ name: String) throws(QueryClientError) -> [DefaultsEntry] {
            guard case .array(let items)? = result[name] else {
                throw .invalidResponse("queries.getDefaults: \(result.encodedString)")
            }
            var listed: [DefaultsEntry] = []
            for item in items {
                guard let key = item["key"], let options = item["options"] else {
                    throw .invalidResponse("queries.getDefaults: \(result.encodedString)")
                }
                listed.append(DefaultsEntry(key: key, options: options))
            }
            return listed
        }
        return DefaultsListing(queries: try entries("queries"), mutations: try entries("mutations"))
    }
}
