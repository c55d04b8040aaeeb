// The options `query.set` finds or creates its query with (no options of its own over the key's
// defaults), resolved once per key prefix rather than once per write.
//
// Which fetcher registrations and `queries.setDefaults` entries apply to a key depends on the key's
// first n elements and its length only, n being the length of their prefix. So with L the longest
// such prefix, every key longer than L gets the defaults its first L elements decide, and the
// resolved options are kept by those elements' canonical bytes. Keys of at most L elements are
// resolved each time. Registering or unregistering a fetcher and changing the query defaults empty
// the cache (`registry` and `queryDefaults` call `invalidate` when they change).

/// Resolved write options by the key prefix that decides them.
struct WriteOptionsCache {
    /// The longest fetcher or defaults prefix (in elements) while the cache is in use; nil when it
    /// must be worked out again.
    var decidingCount: Int?
    /// The options of every key when `decidingCount` is 0 (no prefix decides anything).
    var forEveryKey: SharedOptions?
    /// The options by the first `decidingCount` elements of the keys, as a key of those elements.
    var byPrefix: [QueryKey: SharedOptions] = [:]

    /// The most prefixes kept; past it the cache starts again empty.
    static let capacity = 4096

    /// Forgets everything (the defaults changed).
    mutating func invalidate() {
        decidingCount = nil
        forEveryKey = nil
        byPrefix = [:]
    }
}

extension QueryCache {
    /// The options a write finds or creates the query for `key` with: `resolve(QueryOptions(),
    /// for: key, defaultRetry: 3)`, boxed, from the cache when a key with the same deciding prefix
    /// was written since the defaults last changed.
    func writeOptions(for key: QueryKey) -> SharedOptions {
        // Set only while no prefix decides anything (`invalidate` clears it with `decidingCount`).
        if let options = writeOptionsCache.forEveryKey { return options }
        return decidedWriteOptions(for: key)
    }

    /// `writeOptions(for:)` when they are not the same for every key, or not known yet.
    private func decidedWriteOptions(for key: QueryKey) -> SharedOptions {
        let resolved = { self.share(self.resolve(QueryOptions(), for: key, defaultRetry: 3)) }
        let decidingCount = writeOptionsCache.decidingCount ?? startWriteOptionsCache()
        if decidingCount == 0 {
            let options = resolved()
            writeOptionsCache.forEveryKey = options
            return options
        }
        guard let prefix = Self.decidingPrefix(of: key, count: decidingCount) else { return resolved() }
        if let options = writeOptionsCache.byPrefix[prefix] { return options }
        let options = resolved()
        if writeOptionsCache.byPrefix.count >= WriteOptionsCache.capacity { writeOptionsCache.byPrefix = [:] }
        writeOptionsCache.byPrefix[prefix] = options
        return options
    }

    /// Works out the longest prefix of the current fetchers and query defaults; returns it.
    private func startWriteOptionsCache() -> Int {
        var longest = 0
        for fetcher in registry.members { longest = max(longest, fetcher.prefix.count) }
        for entry in queryDefaults.entries { longest = max(longest, entry.prefix.count) }
        writeOptionsCache.decidingCount = longest
        return longest
    }

    /// The key of the first `count` elements of `key`, or nil when `key` has no more than `count`.
    private static func decidingPrefix(of key: QueryKey, count: Int) -> QueryKey? {
        key.withCanonicalBytes { bytes in
            var end = 0
            for _ in 0..<count {
                end = QueryKey.elementEnd(in: bytes, from: end + 1)
                if bytes[end] != UInt8(ascii: ",") { return nil }
            }
            // The elements' bytes closed as an array: the canonical bytes of the prefix as a key.
            return withUnsafeTemporaryAllocation(byteCount: end + 1, alignment: 1) { prefix in
                prefix.copyMemory(from: UnsafeRawBufferPointer(rebasing: bytes[..<end]))
                prefix[end] = UInt8(ascii: "]")
                return QueryKey(canonicalBytes: UnsafeRawBufferPointer(prefix))
            }
        }
    }
}
