// A query key as the cache stores it: its canonical bytes without the spare capacity they were
// written with. Inline keys (at most 23 bytes) have none to drop.

extension QueryKey {
    /// An equal key whose bytes have no spare capacity.
    var compacted: QueryKey {
        guard case .heap(let bytes) = storage, bytes.capacity > bytes.count else { return self }
        // `Array(bytes)` would share the buffer; copying from raw bytes makes a new, exact one.
        return bytes.withUnsafeBytes { QueryKey(canonicalBytes: $0) }
    }
}
