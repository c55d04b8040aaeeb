// The views of one query that subscriptions share. Subscriptions without select and without a shown
// placeholder see a query version the same way except for `isStale`, so their view is made once per
// (version, isStale) and shared: by the subscriptions one publish pushes to, by later subscribers of
// the same version, and by stale flips that fire one after another. Whether a view equals the one a
// subscription was last sent is worked out once per distinct last view (after a shared push, most
// subscriptions of a key hold the same one).

import QuerydJSON

/// The shared views of the current version of one query (fresh, stale, and a stale-flip bump at most).
struct ViewShare {
    private struct Entry {
        let view: QueryView
        let version: UInt64
        let isStale: Bool
        /// The last view this one was compared with, and whether the two were equal.
        var compared: QueryView?
        var equal = false
    }

    /// The query the views are of (nil for an empty share). Held strongly, so that identity means
    /// the same query (a weak reference would also make every retain of a query slower).
    private var query: Query?
    /// Its kind when the views were made (views show the paging flags of infinite queries).
    private var kind = Query.Kind.undecided
    private var entries: [Entry] = []

    /// Whether a subscription with these options sees the shared view of `query`: no select, and
    /// no placeholder shown now.
    static func applies(select: JSONPointer?, placeholder: Placeholder?, to query: Query) -> Bool {
        select == nil && (placeholder == nil || query.status != .pending)
    }

    /// Moves the share out (leaving an empty one), emptied unless it holds views of `query`.
    mutating func take(for query: Query) -> ViewShare {
        var share = ViewShare()
        swap(&share, &self)
        if share.query !== query || share.kind != query.kind {
            share = ViewShare()
            share.query = query
            share.kind = query.kind
        }
        return share
    }

    /// Lets go of `query`'s views (the query leaves the cache).
    mutating func forget(_ query: Query) {
        if self.query === query { self = ViewShare() }
    }

    /// The index of the view for `version` and `isStale`, made with `make` the first time. Views of
    /// older versions are dropped (versions only grow).
    mutating func index(version: UInt64, isStale: Bool, make: () -> QueryResult) -> Int {
        for index in entries.indices where entries[index].version == version && entries[index].isStale == isStale {
            return index
        }
        add(QueryView(make()), version: version, isStale: isStale)
        return entries.count - 1
    }

    /// The view at `index`.
    func view(at index: Int) -> QueryView { entries[index].view }

    /// Adds the view made for `version` (also a stale-flip push's view, for the subscriptions after it).
    mutating func add(_ view: QueryView, version: UInt64, isStale: Bool) {
        entries.removeAll { $0.version != version }
        entries.append(Entry(view: view, version: version, isStale: isStale))
    }

    /// Whether the view at `index` equals `last` (versions aside, as `QueryResult`'s `==`).
    mutating func isEqual(at index: Int, to last: QueryView) -> Bool {
        if entries[index].compared === last { return entries[index].equal }
        let equal = entries[index].view === last || entries[index].view.result == last.result
        entries[index].compared = last
        entries[index].equal = equal
        return equal
    }
}
