// The write-behind writer as the consumer of the engine's data changes: which changes it collects, how they coalesce,
// what a flush writes (read from the cache at flush time), and retry after a failed flush.

import QuerydCore
import QuerydJSON
import QuerydPersistence
import QuerydTestSupport
import Testing

@Suite("PersistenceWriter")
struct PersistenceWriterTests {
    /// A cache, an open store in a temporary directory, and a writer given the data changes.
    final class Fixture {
        let directory = TemporaryDirectory()
        let recording = RecordingCache()
        let store: QueryStore
        private let attached: PersistenceWriter
        var firstChangeCalls = 0

        init() throws {
            store = try QueryStore(path: directory.file("cache.db"))
            _ = try store.restore(maxAge: nil, buster: "", now: start)
            attached = PersistenceWriter(cache: recording.cache)
            recording.observer = attached
            attached.onFirstChange = { [unowned self] in firstChangeCalls += 1 }
        }

        var cache: QueryCache { recording.cache }

        /// The writer, once the changes made so far reached it.
        var writer: PersistenceWriter {
            recording.applyEffects()
            return attached
        }

        func stored() throws -> [StoredQuery] {
            try store.restore(maxAge: nil, buster: "", now: recording.clock.now).entries
        }
    }

    @Test("writes coalesce per key; one flush writes each key's latest data once")
    func coalescing() throws {
        let fixture = try Fixture()
        _ = try fixture.cache.set(key: key(#"["a"]"#), .data(1), updatedAt: nil)
        _ = try fixture.cache.set(key: key(#"["b"]"#), .data("x"), updatedAt: start - 5)
        fixture.recording.advance(by: 10)
        _ = try fixture.cache.set(key: key(#"["a"]"#), .mergePatch(json(#"{"k":true}"#)), updatedAt: nil)
        fixture.recording.applyEffects()
        #expect(fixture.firstChangeCalls == 1)
        #expect(fixture.writer.pendingCount == 2)
        #expect(try fixture.stored() == [])
        #expect(try fixture.writer.flush(into: fixture.store) == 2)
        #expect(fixture.writer.pendingCount == 0)
        #expect(
            try fixture.stored() == [
                entry(#"["a"]"#, #"{"k":true}"#, at: start + 10, count: 2), entry(#"["b"]"#, #""x""#, at: start - 5),
            ])
        // Nothing pending: a flush writes nothing, and the next change asks for a flush again.
        #expect(try fixture.writer.flush(into: fixture.store) == 0)
        _ = try fixture.cache.set(key: key(#"["c"]"#), .data(nil), updatedAt: nil)
        fixture.recording.applyEffects()
        #expect(fixture.firstChangeCalls == 2)
    }

    @Test("queries.remove and garbage collection delete the key at the next flush")
    func removals() throws {
        let fixture = try Fixture()
        _ = try fixture.cache.set(key: key(#"["keep"]"#), .data(1), updatedAt: nil)
        _ = try fixture.cache.set(key: key(#"["gone",1]"#), .data(2), updatedAt: nil)
        try fixture.writer.flush(into: fixture.store)
        #expect(fixture.cache.removeQueries(try QueryFilter(json: json(#"{"key":["gone"]}"#))) == 1)
        #expect(fixture.writer.pendingCount == 1)
        #expect(try fixture.writer.flush(into: fixture.store) == 1)
        #expect(try fixture.stored() == [entry(#"["keep"]"#, "1", at: start)])
        // The default gcTime (5 min) collects the unused query; the store follows.
        fixture.recording.advance(by: 299_999)
        #expect(fixture.writer.pendingCount == 0)
        fixture.recording.advance(by: 1)
        #expect(fixture.cache.query(key(#"["keep"]"#)) == nil)
        #expect(try fixture.writer.flush(into: fixture.store) == 1)
        #expect(try fixture.stored() == [])
    }

    @Test("a key removed and written again before the flush is stored with the new data")
    func removedThenRewritten() throws {
        let fixture = try Fixture()
        _ = try fixture.cache.set(key: key(#"["k"]"#), .data(1), updatedAt: nil)
        try fixture.writer.flush(into: fixture.store)
        _ = fixture.cache.removeQueries(try QueryFilter(json: json(#"{"key":["k"]}"#)))
        _ = try fixture.cache.set(key: key(#"["k"]"#), .data(2), updatedAt: nil)
        #expect(try fixture.writer.flush(into: fixture.store) == 1)
        #expect(try fixture.stored() == [entry(#"["k"]"#, "2", at: start)])
    }

    @Test("a failed flush writes nothing and keeps its keys for the next one")
    func failedFlushRetries() throws {
        let directory = TemporaryDirectory()
        let recording = RecordingCache()
        let path = directory.file("cache.db")
        let store = try QueryStore(path: path)
        _ = try store.restore(maxAge: nil, buster: "", now: start)
        let writer = PersistenceWriter(cache: recording.cache)
        recording.observer = writer
        _ = try recording.cache.set(key: key(#"["a"]"#), .data(1), updatedAt: nil)
        recording.applyEffects()
        store.close()
        #expect(throws: PersistenceError.self) { try writer.flush(into: store) }
        #expect(writer.pendingCount == 1)
        let reopened = try QueryStore(path: path)
        #expect(try reopened.count() == 0)
        _ = try recording.cache.set(key: key(#"["a"]"#), .data(3), updatedAt: nil)
        recording.applyEffects()
        #expect(try writer.flush(into: reopened) == 1)
        #expect(
            try reopened.restore(maxAge: nil, buster: "", now: start).entries == [
                entry(#"["a"]"#, "3", at: start, count: 2)
            ])
    }
}
