// The paused mutations in the store: a schema-1 file is migrated (its queries kept), the writer
// rewrites the paused mutations when they change, and a fresh mutation cache restores them paused.

import QuerydCore
import QuerydJSON
import QuerydPersistence
import Testing

@Suite("Paused mutations in the store")
struct PausedMutationStoreTests {
    @Test("a schema-1 store is migrated at open: its queries stay, mutations can be kept")
    func schemaOneMigrates() throws {
        let directory = TemporaryDirectory()
        let path = directory.file("cache.db")
        rawExecute(
            path,
            """
            CREATE TABLE queryd_meta (name TEXT PRIMARY KEY, value TEXT NOT NULL) WITHOUT ROWID;
            INSERT INTO queryd_meta VALUES ('schema', '1'), ('buster', '');
            CREATE TABLE queries (key TEXT PRIMARY KEY, data TEXT NOT NULL, data_updated_at INTEGER NOT NULL,
              data_update_count INTEGER NOT NULL CHECK (data_update_count >= 0)) WITHOUT ROWID;
            INSERT INTO queries VALUES ('["a"]', '1', \(start), 1);
            """)
        let store = try QueryStore(path: path)
        let restored = try store.restore(maxAge: nil, buster: "", now: start)
        #expect(restored == RestoredQueries(entries: [entry(#"["a"]"#, "1", at: start)], expired: 0, unreadable: 0))
        try store.write(rows: [], mutations: [Array(#"{"key":["m"],"state":{}}"#.utf8)])
        let mutations = MutationCache(queries: QueryCache(clock: ManualClock(start: start)))
        #expect(try mutations.restore(from: store) == RestoredMutations(restored: 1, unreadable: 0))
        #expect(mutations.list(MutationFilter()).map(\.isPaused) == [true])
    }

    @Test("the writer keeps exactly the paused mutations; a new cache restores them paused")
    func writerKeepsPausedMutations() throws {
        let directory = TemporaryDirectory()
        let store = try QueryStore(path: directory.file("cache.db"))
        let recording = RecordingCache()
        let mutations = MutationCache(queries: recording.cache)
        let writer = PersistenceWriter(cache: recording.cache)
        recording.observer = writer
        mutations.setOnline(false)
        _ = try mutations.run(
            connection: ConnectionID(1), key: try QueryKey(["todos", "add"]), variables: "milk",
            options: MutationOptions(json: ["meta": "m"]), waiter: WaiterToken(1))
        recording.applyEffects()
        #expect(writer.pendingCount == 1)
        try writer.flush(into: store)
        let restoredCache = MutationCache(queries: QueryCache(clock: ManualClock(start: start)))
        #expect(try restoredCache.restore(from: store) == RestoredMutations(restored: 1, unreadable: 0))
        let restored = try #require(restoredCache.list(MutationFilter()).first)
        #expect(restored.isPaused && restored.status == .pending && restored.variables == "milk")
        #expect(restored.meta == "m")

        // Back online with a mutator: it starts, so it leaves the store.
        _ = mutations.registerMutator(connection: ConnectionID(2), prefix: ["todos"], exact: false)
        mutations.setOnline(true)
        recording.applyEffects()
        #expect(writer.pendingCount == 1)
        try writer.flush(into: store)
        let emptied = MutationCache(queries: QueryCache(clock: ManualClock(start: start)))
        #expect(try emptied.restore(from: store) == RestoredMutations(restored: 0, unreadable: 0))
    }
}
