// Start-up restore of the paused mutations kept by `--persist` (TanStack's persisted paused
// mutations): each comes back as a hydrated mutation, paused until the network is up and a mutator
// for its key registers (see MutationCache+Hydration).

public import QuerydCore

/// What a start-up restore of paused mutations did, for the daemon's log.
public struct RestoredMutations: Sendable, Equatable {
    /// Mutations restored, paused.
    public var restored: Int
    /// Rows dropped because they could not be read (the next write of the paused mutations replaces them all).
    public var unreadable: Int

    /// Creates a report.
    public init(restored: Int, unreadable: Int) {
        self.restored = restored
        self.unreadable = unreadable
    }
}

extension MutationCache {
    /// Restores the paused mutations `store` holds, in submission order. Run it after the queries'
    /// restore, which applies the buster, and before the socket opens: with no mutator registered
    /// yet none can start, and the first registration resumes them.
    public func restore(from store: QueryStore, maxDepth: Int = 512) throws(PersistenceError) -> RestoredMutations {
        let (entries, unparsable) = try store.storedMutations(maxDepth: maxDepth)
        var restored = 0
        for (index, value) in entries.enumerated() {
            guard let entry = try? DehydratedMutation(json: value, path: "mutations[\(index)]") else { continue }
            hydrate(entry, persisted: true)
            restored += 1
        }
        return RestoredMutations(restored: restored, unreadable: unparsable + entries.count - restored)
    }
}
