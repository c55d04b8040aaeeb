// The pieces of persistence off the loop: batches of encoded rows taken from the writer (sliced,
// put back after a failure), the store thread that writes them, the epoch kept in the store, and
// restored queries kept in the compact layout (encoded only).

import Dispatch
import QuerydJSON
import QuerydPersistence
import QuerydTestSupport
import Synchronization
import Testing

@testable import QuerydCore

@Suite("Persistence off the loop")
struct StoreThreadTests {
    @Test("takeBatch slices the pending keys; rows are the encoded data or a delete; putBack re-marks them")
    func batchesOfRows() throws {
        let recording = RecordingCache()
        let writer = PersistenceWriter(cache: recording.cache)
        recording.observer = writer
        for index in 0..<5 {
            _ = try recording.cache.set(key: key(#"["k",\#(index)]"#), .data(json(#"{"i":\#(index)}"#)), updatedAt: nil)
        }
        _ = recording.cache.removeQueries(try QueryFilter(json: json(#"{"key":["k",4]}"#)))
        recording.applyEffects()
        let first = writer.takeBatch(limit: 3)
        #expect(first.keys.count == 3 && first.rows.count == 3)
        #expect(writer.pendingCount == 2)
        let rest = writer.takeBatch(limit: 3)
        #expect(writer.pendingCount == 0)
        let rows = (first.rows + rest.rows).sorted { $0.keyText.lexicographicallyPrecedes($1.keyText) }
        #expect(rows.map { String(decoding: $0.keyText, as: UTF8.self) } == (0..<5).map { #"["k",\#($0)]"# })
        for (index, row) in rows.prefix(4).enumerated() {
            #expect(row.data == Array(#"{"i":\#(index)}"#.utf8))
            #expect(row.dataUpdatedAt == start && row.dataUpdateCount == 1)
        }
        #expect(rows[4].data == nil)
        writer.putBack(first.keys)
        #expect(writer.pendingCount == 3)
        // Reading the rows left no parsed copy of the unused queries' data behind.
        #expect(recording.cache.query(key(#"["k",0]"#))?.keptParsedData == nil)
    }

    @Test("the store thread writes batches in order and finish waits for them")
    func storeThreadWrites() throws {
        let directory = TemporaryDirectory()
        let path = directory.file("cache.db")
        let store = try QueryStore(path: path)
        _ = try store.restore(maxAge: nil, buster: "", now: start)
        let thread = StoreThread(store: store)
        let outcomes = Mutex<[Bool]>([])
        let done = DispatchSemaphore(value: 0)
        for index in 0..<3 {
            let row = StoreRow(keyText: Array(#"["a"]"#.utf8), data: Array("\(index)".utf8), dataUpdatedAt: start)
            thread.write([row]) { result in
                outcomes.withLock { $0.append((try? result.get()) != nil) }
                done.signal()
            }
        }
        for _ in 0..<3 { done.wait() }
        #expect(outcomes.withLock { $0 } == [true, true, true])
        let entries = try thread.finish { store throws(PersistenceError) in
            try store.restore(maxAge: nil, buster: "", now: start).entries
        }
        #expect(entries == [entry(#"["a"]"#, "2", at: start, count: 0)])
    }

    @Test("the epoch is created once and then kept across reopening")
    func epochIsKept() throws {
        let directory = TemporaryDirectory()
        let path = directory.file("cache.db")
        do {
            let store = try QueryStore(path: path)
            #expect(try store.epoch(creating: "first") == "first")
            #expect(try store.epoch(creating: "second") == "first")
            store.close()
        }
        let reopened = try QueryStore(path: path)
        #expect(try reopened.epoch(creating: "third") == "first")
    }

    @Test("restored queries keep only their encoded data, like queries set over the wire")
    func restoredQueriesAreCompact() throws {
        let recording = RecordingCache()
        #expect(
            recording.cache.restore(
                key: key(#"["r"]"#), data: json(#"{"big":[1,2,3]}"#), dataUpdatedAt: start, dataUpdateCount: 1))
        let query = try #require(recording.cache.query(key(#"["r"]"#)))
        #expect(query.keptParsedData == nil)
        #expect(query.getAnswer == Array(#"{"data":{"big":[1,2,3]},"dataUpdatedAt":1700000000000}"#.utf8))
    }

    @Test("a row written in the future is restored as written now")
    func futureRowsComeBackAsNow() throws {
        let directory = TemporaryDirectory()
        let store = try QueryStore(path: directory.file("cache.db"))
        _ = try store.restore(maxAge: nil, buster: "", now: start)
        try store.write(batch: [
            .upsert(entry(#"["f"]"#, "1", at: start + 5000)), .upsert(entry(#"["p"]"#, "2", at: start - 5)),
        ])
        let restored = try store.restore(maxAge: 0, buster: "", now: start + 10)
        #expect(restored.entries == [entry(#"["f"]"#, "1", at: start + 10)])
        #expect(restored.expired == 1)
    }
}
