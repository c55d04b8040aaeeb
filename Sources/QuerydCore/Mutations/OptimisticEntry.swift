// The optimistic writes made to one query that a rollback may still undo: the state before the
// first of them (the base) and every write since, in order, each tagged with its mutation.
//
// Rolling a mutation back removes its writes and puts back the base with the others re-applied,
// so overlapping mutations on one key undo only their own part. A write to the query from
// anywhere else (a fetch, `query.set`, a reset or removal) replaces all of it: the entry is then
// no longer current and nothing is rolled back over that newer state.

import QuerydJSON

/// Optimistic writes to one query that are open to rollback.
final class OptimisticEntry {
    /// One write, by one mutation, at one time; committed once its mutation succeeded.
    struct Layer {
        let mutation: MutationID
        let write: QueryWrite
        let at: Int64
        var committed: Bool
    }

    /// The data fields of a state; they change on every write, and only on writes.
    struct Fingerprint: Equatable {
        let data: JSONValue?
        let dataUpdatedAt: Int64
        let dataUpdateCount: Int

        init(_ state: QueryState) {
            data = state.data
            dataUpdatedAt = state.dataUpdatedAt
            dataUpdateCount = state.dataUpdateCount
        }
    }

    let query: Query
    /// The exact state before the first write.
    let base: QueryState
    var layers: [Layer] = []
    /// The data fields the last write left, to tell whether anyone else wrote since.
    var written: Fingerprint
    /// A successful mutation's invalidation of this query waits for the open writes to settle.
    var postponedInvalidation = false

    init(query: Query, base: QueryState) {
        self.query = query
        self.base = base
        self.written = Fingerprint(base)
    }

    /// Whether a write of a mutation that has not settled is still in place.
    var isOpen: Bool { layers.contains { !$0.committed } }

    /// Whether the query still holds what the last optimistic write left.
    func isCurrent(in cache: QueryCache) -> Bool {
        cache.isCached(query) && Fingerprint(query.state) == written
    }
}
