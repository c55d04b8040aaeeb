// Hydration into the cache (TanStack's hydrate, B139-B140): restored queries are success, idle,
// keep dataUpdateCount, are invalidated (stale) so the first subscriber revalidates, never
// overwrite newer data, are collected after the default gcTime, and are not written back.

import QuerydCore
import QuerydJSON
import QuerydPersistence
import QuerydTestSupport
import Testing

@Suite("Cache restore")
struct CacheRestoreTests {
    @Test("a restored query is success, idle, invalidated and stale, with its dataUpdateCount")
    func restoredState() throws {
        let recording = RecordingCache()
        let applied = recording.cache.restore(
            key: key(#"["todos"]"#), data: json("[1,2]"), dataUpdatedAt: start - 1000, dataUpdateCount: 4)
        #expect(applied)
        let state = try #require(recording.cache.state(of: key(#"["todos"]"#)))
        #expect(state.status == .success)
        #expect(state.fetchStatus == .idle)
        #expect(state.data == json("[1,2]"))
        #expect(state.dataUpdatedAt == start - 1000)
        #expect(state.dataUpdateCount == 4)
        #expect(state.error == nil)
        #expect(state.isInvalidated)
        #expect(state.isStale)
        #expect(recording.fetchRequests.isEmpty)
    }

    @Test("restore never overwrites newer or equally recent data, and replaces older data")
    func newerDataWins() throws {
        let recording = RecordingCache()
        let cache = recording.cache
        _ = try cache.set(key: key(#"["k"]"#), .data("live"), updatedAt: start)
        #expect(!cache.restore(key: key(#"["k"]"#), data: "old", dataUpdatedAt: start - 1, dataUpdateCount: 9))
        #expect(!cache.restore(key: key(#"["k"]"#), data: "same-time", dataUpdatedAt: start, dataUpdateCount: 9))
        var state = try #require(cache.state(of: key(#"["k"]"#)))
        #expect(state.data == "live")
        #expect(state.dataUpdateCount == 1)
        #expect(!state.isInvalidated)
        #expect(cache.restore(key: key(#"["k"]"#), data: "newer", dataUpdatedAt: start + 1, dataUpdateCount: 9))
        state = try #require(cache.state(of: key(#"["k"]"#)))
        #expect(state.data == "newer")
        #expect(state.dataUpdatedAt == start + 1)
        #expect(state.dataUpdateCount == 9)
        #expect(state.isInvalidated)
    }

    @Test("the first subscriber of a restored query revalidates it while showing the restored data")
    func subscriberRevalidates() throws {
        let recording = RecordingCache()
        let cache = recording.cache
        let fetcher = cache.registerFetcher(
            connection: ConnectionID(1), prefix: ["todos"], exact: false, cancellable: false, defaults: QueryOptions())
        cache.restore(key: key(#"["todos"]"#), data: json("[1]"), dataUpdatedAt: start - 50, dataUpdateCount: 2)
        var options = QueryOptions()
        options.staleTime = .milliseconds(60_000)
        let (_, view) = try cache.subscribe(connection: ConnectionID(2), key: key(#"["todos"]"#), options: options)
        #expect(view.status == .success)
        #expect(view.fetchStatus == .fetching)
        #expect(view.data == json("[1]"))
        #expect(view.dataUpdateCount == 2)
        #expect(recording.fetchRequests.map(\.key) == [key(#"["todos"]"#)])
        #expect(recording.fetchRequests.map(\.fetcher) == [fetcher])
    }

    @Test("an unused restored query is collected after the default gcTime, counted from the restore")
    func garbageCollection() throws {
        let recording = RecordingCache()
        recording.cache.restore(key: key(#"["k"]"#), data: 1, dataUpdatedAt: start - 10_000_000, dataUpdateCount: 1)
        recording.advance(by: 299_999)
        #expect(recording.cache.query(key(#"["k"]"#)) != nil)
        recording.advance(by: 1)
        #expect(recording.cache.query(key(#"["k"]"#)) == nil)
    }

    @Test("restore(from:) hydrates every entry, skips ones met by newer data, and does not mark them for writing")
    func restoreFromStore() throws {
        let directory = TemporaryDirectory()
        let path = directory.file("cache.db")
        do {
            let store = try QueryStore(path: path)
            _ = try store.restore(maxAge: nil, buster: "b", now: start)
            try store.write(batch: [
                .upsert(entry(#"["a"]"#, "1", at: start - 100, count: 3)),
                .upsert(entry(#"["b"]"#, "2", at: start - 100)),
                .upsert(entry(#"["expired"]"#, "3", at: start - 2000)),
            ])
            store.close()
        }
        let recording = RecordingCache()
        _ = try recording.cache.set(key: key(#"["b"]"#), .data("fresh"), updatedAt: nil)
        let store = try QueryStore(path: path)
        let writer = PersistenceWriter(cache: recording.cache)
        recording.observer = writer
        let report = try recording.cache.restore(from: store, maxAge: 1000, buster: "b")
        recording.applyEffects()
        #expect(report == RestoreReport(read: 2, restored: 1, expired: 1, unreadable: 0, wipeReason: nil))
        #expect(writer.pendingCount == 0)
        #expect(recording.cache.state(of: key(#"["a"]"#))?.dataUpdateCount == 3)
        #expect(recording.cache.state(of: key(#"["b"]"#))?.data == "fresh")
    }
}
