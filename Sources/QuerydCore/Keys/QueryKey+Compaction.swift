// A query key as the cache stores it: its canonical bytes without the spare capacity they were
// written with.

extension QueryKey {
    /// An equal key whose bytes have no spare capacity.
    var compacted: QueryKey {
        guard canonical.capacity > canonical.count else { return self }
        return QueryKey(lookingUp: Array(canonical))
    }
}
