// The SQLite store on its own: round trips, upserts and deletes, the buster and schema wipes,
// maxAge, all-or-nothing batches, unreadable rows, and the refusals (not a store, in use).

import QuerydCore
import QuerydJSON
import QuerydPersistence
import Testing

@Suite("QueryStore")
struct QueryStoreTests {
    @Test("entries come back exactly, ordered by key text, after the store is closed and reopened")
    func roundTrip() throws {
        let directory = TemporaryDirectory()
        let path = directory.file("cache.db")
        let written = [
            entry(#"["todos",{"page":1,"done":false}]"#, #"{"items":[1,2.5,"x"],"big":9007199254740993}"#, at: start),
            entry(#"["user",42]"#, "null", at: start - 10, count: 7),
            entry(#"["a"]"#, #""héllo \u2028 \"quoted\"""#, at: start - 20, count: 3),
        ]
        do {
            let store = try QueryStore(path: path)
            _ = try store.restore(maxAge: nil, buster: "", now: start)
            try store.write(batch: written.map { .upsert($0) })
            store.close()
        }
        let reopened = try QueryStore(path: path)
        let restored = try reopened.restore(maxAge: nil, buster: "", now: start)
        #expect(
            restored
                == RestoredQueries(
                    entries: [written[2], written[0], written[1]], expired: 0, unreadable: 0, wipeReason: nil))
        // Object members in another order are the same key.
        #expect(restored.entries[1].key == key(#"["todos",{"done":false,"page":1}]"#))
    }

    @Test("an upsert replaces the entry with the same key; a delete removes it; unknown deletes are no-ops")
    func upsertAndDelete() throws {
        let directory = TemporaryDirectory()
        let store = try QueryStore(path: directory.file("cache.db"))
        _ = try store.restore(maxAge: nil, buster: "", now: start)
        try store.write(batch: [.upsert(entry(#"["a"]"#, "1", at: start)), .upsert(entry(#"["b"]"#, "2", at: start))])
        try store.write(batch: [
            .upsert(entry(#"["a"]"#, #"{"v":2}"#, at: start + 5, count: 2)), .delete(key(#"["b"]"#)),
            .delete(key(#"["never"]"#)),
        ])
        #expect(try store.count() == 1)
        let restored = try store.restore(maxAge: nil, buster: "", now: start + 5)
        #expect(restored.entries == [entry(#"["a"]"#, #"{"v":2}"#, at: start + 5, count: 2)])
    }

    @Test("a different buster empties the store and is kept for the next start")
    func busterWipe() throws {
        let directory = TemporaryDirectory()
        let path = directory.file("cache.db")
        do {
            let store = try QueryStore(path: path)
            #expect(
                try store.restore(maxAge: nil, buster: "v1", now: start).wipeReason == #"buster "" replaced by "v1""#)
            try store.write(batch: [.upsert(entry(#"["a"]"#, "1", at: start))])
            store.close()
        }
        do {
            let store = try QueryStore(path: path)
            let same = try store.restore(maxAge: nil, buster: "v1", now: start)
            #expect(
                same
                    == RestoredQueries(
                        entries: [entry(#"["a"]"#, "1", at: start)], expired: 0, unreadable: 0, wipeReason: nil))
            store.close()
        }
        let store = try QueryStore(path: path)
        let other = try store.restore(maxAge: nil, buster: "v2", now: start)
        #expect(
            other
                == RestoredQueries(entries: [], expired: 0, unreadable: 0, wipeReason: #"buster "v1" replaced by "v2""#)
        )
        #expect(try store.count() == 0)
        #expect(try store.restore(maxAge: nil, buster: "v2", now: start).wipeReason == nil)
    }

    @Test("entries older than maxAge are dropped and deleted; exactly maxAge old is kept")
    func maxAge() throws {
        let directory = TemporaryDirectory()
        let store = try QueryStore(path: directory.file("cache.db"))
        _ = try store.restore(maxAge: nil, buster: "", now: start)
        let now = start + 100_000
        try store.write(batch: [
            .upsert(entry(#"["edge"]"#, "1", at: now - 60_000)),
            .upsert(entry(#"["old"]"#, "2", at: now - 60_001)),
            .upsert(entry(#"["new"]"#, "3", at: now)),
        ])
        let restored = try store.restore(maxAge: 60_000, buster: "", now: now)
        #expect(restored.entries == [entry(#"["edge"]"#, "1", at: now - 60_000), entry(#"["new"]"#, "3", at: now)])
        #expect(restored.expired == 1)
        #expect(try store.count() == 2)
        let zero = try store.restore(maxAge: 0, buster: "", now: now)
        #expect(zero.entries == [entry(#"["new"]"#, "3", at: now)])
        #expect(zero.expired == 1)
    }

    @Test("a batch is one transaction: a failing change rolls back the changes before it")
    func batchIsAtomic() throws {
        let directory = TemporaryDirectory()
        let store = try QueryStore(path: directory.file("cache.db"))
        _ = try store.restore(maxAge: nil, buster: "", now: start)
        try store.write(batch: [.upsert(entry(#"["kept"]"#, "1", at: start))])
        let failing: [StoreChange] = [
            .upsert(entry(#"["first"]"#, "1", at: start)),
            .delete(key(#"["kept"]"#)),
            .upsert(StoredQuery(key: key(#"["bad"]"#), data: 1, dataUpdatedAt: start, dataUpdateCount: -1)),
        ]
        #expect(throws: PersistenceError.self) { try store.write(batch: failing) }
        let restored = try store.restore(maxAge: nil, buster: "", now: start)
        #expect(restored.entries == [entry(#"["kept"]"#, "1", at: start)])
        // The store still works after the rollback.
        try store.write(batch: [.upsert(entry(#"["after"]"#, "2", at: start))])
        #expect(try store.count() == 2)
    }

    @Test("rows whose key or data cannot be parsed are dropped and deleted")
    func unreadableRows() throws {
        let directory = TemporaryDirectory()
        let path = directory.file("cache.db")
        do {
            let store = try QueryStore(path: path)
            _ = try store.restore(maxAge: nil, buster: "", now: start)
            try store.write(batch: [.upsert(entry(#"["good"]"#, "[1]", at: start))])
            store.close()
        }
        rawExecute(
            path,
            """
            INSERT INTO queries VALUES ('["bad-data"]', '{"unterminated', 1, 1);
            INSERT INTO queries VALUES ('{"not":"an array"}', '1', 1, 1);
            INSERT INTO queries VALUES ('[]', '1', 1, 1);
            """)
        let store = try QueryStore(path: path)
        let restored = try store.restore(maxAge: nil, buster: "", now: start)
        #expect(restored.entries == [entry(#"["good"]"#, "[1]", at: start)])
        #expect(restored.unreadable == 3)
        #expect(try store.count() == 1)
    }

    @Test("a store of another schema version is emptied at open and rebuilt")
    func schemaWipe() throws {
        let directory = TemporaryDirectory()
        let path = directory.file("cache.db")
        rawExecute(
            path,
            """
            CREATE TABLE queryd_meta (name TEXT PRIMARY KEY, value TEXT NOT NULL);
            INSERT INTO queryd_meta VALUES ('schema', '0'), ('buster', 'v1');
            CREATE TABLE queries (key TEXT PRIMARY KEY, blob TEXT);
            INSERT INTO queries VALUES ('["a"]', 'x');
            """)
        let store = try QueryStore(path: path)
        let restored = try store.restore(maxAge: nil, buster: "v1", now: start)
        #expect(
            restored
                == RestoredQueries(entries: [], expired: 0, unreadable: 0, wipeReason: "schema 0 replaced by schema 2"))
        try store.write(batch: [.upsert(entry(#"["a"]"#, "1", at: start))])
        #expect(try store.restore(maxAge: nil, buster: "v1", now: start).entries == [entry(#"["a"]"#, "1", at: start)])
    }

    @Test("a SQLite file that is not a queryd store is refused and left untouched")
    func foreignDatabase() throws {
        let directory = TemporaryDirectory()
        let path = directory.file("other.db")
        rawExecute(path, "CREATE TABLE precious (x INTEGER); INSERT INTO precious VALUES (1);")
        #expect {
            _ = try QueryStore(path: path)
        } throws: { error in
            (error as? PersistenceError)?.message
                == "\(path) is a SQLite database but not a queryd store; refusing to use it"
        }
        rawExecute(path, "INSERT INTO precious VALUES (2);")
    }

    @Test("a file that is not SQLite at all is refused")
    func notSQLite() throws {
        let directory = TemporaryDirectory()
        let path = directory.file("text.db")
        rawWriteFile(path, String(repeating: "not a database\n", count: 100))
        #expect(throws: PersistenceError.self) { _ = try QueryStore(path: path) }
    }

    @Test("a second store on the same file is refused while the first is open, and accepted after")
    func exclusiveLock() throws {
        let directory = TemporaryDirectory()
        let path = directory.file("cache.db")
        let first = try QueryStore(path: path)
        _ = try first.restore(maxAge: nil, buster: "", now: start)
        #expect {
            _ = try QueryStore(path: path)
        } throws: { error in
            (error as? PersistenceError)?.message == "\(path) is in use by another process"
        }
        first.close()
        let second = try QueryStore(path: path)
        #expect(try second.count() == 0)
    }

    @Test("a closed store refuses writes")
    func closedStore() throws {
        let directory = TemporaryDirectory()
        let store = try QueryStore(path: directory.file("cache.db"))
        store.close()
        #expect(throws: PersistenceError.self) { try store.write(batch: [.delete(key(#"["a"]"#))]) }
    }
}
