// Finding the queries a filter matches in steps of bounded work (a `QueryIndexCursor` over the
// index), for a filter sweep: the cache changes between steps.
//
// Which queries are found: those in the cache when the search began that are still there when the
// cursor reaches them (and whose state, when the filter reads it, matches then). Queries created
// during the search are left out: while a search runs the cache notes each query it creates
// (`QueryCache.sweepNewcomers`) and the search skips those.
//
// Each match is kept with the first 8 bytes of its key's canonical bytes after the ones all matches
// share (`SortableMatch`), so the sort by key that follows compares numbers and reads a query's key
// only on a tie: comparing keys themselves reads two queries scattered over the heap per move.

import QuerydJSON

/// The queries one filter matches, found a bounded amount of work at a time.
struct FilterMatches {
    private let filter: QueryFilter
    private var cursor: QueryIndexCursor<Query>?
    /// How many leading canonical bytes every match's key shares: those of the filter's leading
    /// scalar elements (equal scalars have equal canonical bytes), or the opening `[`.
    private let sharedBytes: Int
    /// The matches found so far, unretained, in no order (see `FilterSweep` for why they stay valid).
    private(set) var found: [SortableMatch] = []

    init(_ filter: QueryFilter) {
        self.filter = filter
        let prefix = filter.key ?? []
        cursor = QueryIndexCursor(prefix: prefix)
        sharedBytes = SortableMatch.sharedBytes(ofKeysUnder: prefix)
    }

    /// Whether every match has been found.
    var isDone: Bool { cursor == nil }

    /// Makes room for as many matches as the cache has queries, so the list never grows by
    /// copying (a large reservation is mapped lazily: its pages are touched as matches are added).
    mutating func reserveForAll(in cache: QueryCache) {
        found.reserveCapacity(cache.queries.count)
    }

    /// Searches on for about `budget` units of work; returns the work done (at least 1).
    mutating func step(in cache: QueryCache, budget: Int) -> Int {
        guard var cursor else { return 1 }
        self.cursor = nil
        if let key = filter.key, filter.exact {
            if let query = cache.queries[QueryKey(elements: key)] { keep(.passUnretained(query), in: cache) }
            return 1
        }
        let used = cursor.step(in: cache.queries, budget: budget) { keep($0, in: cache) }
        if !cursor.isDone { self.cursor = cursor }
        return used
    }

    private mutating func keep(_ query: Unmanaged<Query>, in cache: QueryCache) {
        if let newcomers = cache.sweepNewcomers, !newcomers.isEmpty, newcomers.contains(query.toOpaque()) { return }
        if filter.readsState, !QueryCache.stateMatches(query.takeUnretainedValue(), filter, now: cache.now) { return }
        found.append(SortableMatch(query, sharedBytes: sharedBytes))
    }
}

/// A match and the 8 bytes of its key's canonical bytes that follow the ones all matches share,
/// big-endian (zeros past the end: canonical bytes hold no zero byte, so a shorter key comes first).
struct SortableMatch {
    let head: UInt64
    let query: Unmanaged<Query>

    init(_ query: Unmanaged<Query>, sharedBytes: Int) {
        self.query = query
        head = query._withUnsafeGuaranteedRef { query in
            query.key.withCanonicalBytes { bytes in
                var head: UInt64 = 0
                for index in sharedBytes..<(sharedBytes + 8) {
                    head = head << 8 | UInt64(index < bytes.count ? bytes[index] : 0)
                }
                return head
            }
        }
    }

    /// How many leading canonical bytes every key matching `prefix` shares: those of the prefix's
    /// leading scalar elements (equal scalars have equal canonical bytes), or the opening `[`.
    static func sharedBytes(ofKeysUnder prefix: [JSONValue]) -> Int {
        let scalars = prefix.prefix { element in
            switch element {
            case .array, .object: false
            default: true
            }
        }
        return scalars.isEmpty ? 1 : QueryKey(elements: Array(scalars)).canonicalByteCount - 1
    }

    /// Whether `a`'s key comes before `b`'s (`QueryKey`'s order), given keys that share their
    /// first bytes: the heads decide unless they are equal.
    static func precedes(_ a: SortableMatch, _ b: SortableMatch) -> Bool {
        if a.head != b.head { return a.head < b.head }
        return a.query.takeUnretainedValue().key < b.query.takeUnretainedValue().key
    }
}
