// A snapshot of the cache (TanStack's DehydratedState), versioned: `{version, queries, mutations}`.
// `cache.dehydrate` makes one, `cache.hydrate` merges one in; the rules per entry are in
// QueryCache+Hydration and MutationCache+Hydration.

public import QuerydJSON

/// Making and merging cache snapshots.
public enum CacheSnapshot {
    /// The snapshot format this daemon writes and reads.
    public static let version = 1

    /// What a hydration wrote.
    public struct Merged: Sendable, Equatable {
        /// Query entries written (the others met newer data in the cache).
        public var queries: Int
        /// Paused mutations added.
        public var mutations: Int

        /// A count of written entries.
        public init(queries: Int, mutations: Int) {
            self.queries = queries
            self.mutations = mutations
        }
    }

    /// The snapshot of the queries `filter` matches (successful ones, and pending ones with
    /// `includePending`) and of every paused mutation.
    public static func dehydrate(_ cache: MutationCache, filter: QueryFilter, includePending: Bool) -> JSONValue {
        [
            "version": .number(JSONNumber(version)),
            "queries": .array(cache.queries.dehydrateQueries(filter, includePending: includePending)),
            "mutations": .array(cache.dehydrateMutations()),
        ]
    }

    /// Reads the whole snapshot (`path` names it in errors), then merges it in: nothing is written
    /// when any part is malformed. The version must be `version`.
    public static func hydrate(_ snapshot: JSONValue?, into cache: MutationCache, path: String = "snapshot")
        throws(OptionsError) -> Merged
    {
        let fields = try SnapshotFields(snapshot, path: path, allowed: ["version", "queries", "mutations"])
        guard fields["version"]?.intValue == version else {
            throw OptionsError(
                field: fields.field("version"), reason: "unsupported snapshot version; supported: \(version)")
        }
        let queries = try fields.array("queries").enumerated().map { (index, item) throws(OptionsError) in
            try DehydratedQuery(json: item, path: "\(fields.field("queries"))[\(index)]")
        }
        let mutations = try fields.array("mutations").enumerated().map { (index, item) throws(OptionsError) in
            try DehydratedMutation(json: item, path: "\(fields.field("mutations"))[\(index)]")
        }
        var merged = Merged(queries: 0, mutations: 0)
        for entry in queries where cache.queries.hydrate(entry) { merged.queries += 1 }
        for entry in mutations {
            cache.hydrate(entry)
            merged.mutations += 1
        }
        cache.resumeRunnable()
        return merged
    }
}
