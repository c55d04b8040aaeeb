// The persistence file: one SQLite database in WAL mode holding the successful data of queries and
// the paused mutations.
//
// Layout (schema 2):
//   queryd_meta(name TEXT PRIMARY KEY, value TEXT)  -- "schema" = "2", "buster" = the --persist-buster
//   queries(key TEXT PRIMARY KEY, data TEXT, data_updated_at INTEGER, data_update_count INTEGER)
//   mutations(position INTEGER PRIMARY KEY, entry TEXT)  -- snapshot entries, in submission order
// Keys, data and entries are canonical JSON text. A schema-1 store (no mutations table) is migrated
// when opened: the table is added and its queries kept. A store written with any other schema
// version is emptied when opened; one written with another buster is emptied by `restore`. The
// connection holds an exclusive lock for its whole life, so a second daemon cannot share the file
// by mistake.
// Durability: WAL with synchronous=NORMAL keeps every committed batch across a process crash
// (kill -9); only a power loss can take back the last commits.

import CSQLite
import QuerydCore
import QuerydJSON

/// A SQLite file of persisted queries. Use it from one thread only.
public final class QueryStore {
    /// The layout version written by this build; any other version but `migratableVersion` is
    /// discarded at open.
    public static let schemaVersion = "2"
    /// The earlier layout that is migrated rather than emptied (schema 2 only adds `mutations`).
    static let migratableVersion = "1"

    /// Page cache for writing (negative: KiB): up to 32 MiB, so a large batch does not spill pages
    /// mid-transaction.
    private static let writeCacheKiB = -32768
    /// Page cache while restoring: the rows are read once, in order; a large cache would only leave
    /// freed memory scattered between the restored queries.
    private static let restoreCacheKiB = -1024

    /// The file's path.
    public let path: String
    private let database: SQLiteDatabase
    private var upsertStatement: SQLiteStatement?
    private var deleteStatement: SQLiteStatement?
    /// Why `init` emptied the store (an unknown schema), reported by the first `restore`.
    private var openWipeReason: String?

    /// Opens (creating if needed) the store at `path` in WAL mode, taking its exclusive lock.
    /// - Throws: when the file cannot be opened, is not a queryd store, or another process uses it.
    public init(path: String) throws(PersistenceError) {
        self.path = path
        database = try SQLiteDatabase(path: path)
        do {
            try configure()
            try prepareSchema()
            upsertStatement = try database.prepare(
                """
                INSERT INTO queries (key, data, data_updated_at, data_update_count) VALUES (?1, ?2, ?3, ?4)
                ON CONFLICT (key) DO UPDATE SET data = excluded.data,
                  data_updated_at = excluded.data_updated_at, data_update_count = excluded.data_update_count
                """)
            deleteStatement = try database.prepare("DELETE FROM queries WHERE key = ?1")
        } catch {
            close()
            throw explainCorruption(error)
        }
    }

    deinit { close() }

    /// Finalizes statements and closes the file; the WAL is checkpointed into the database.
    public func close() {
        upsertStatement?.finalize()
        deleteStatement?.finalize()
        upsertStatement = nil
        deleteStatement = nil
        database.close()
    }

    private func configure() throws(PersistenceError) {
        do throws(PersistenceError) {
            try database.execute("PRAGMA locking_mode = EXCLUSIVE")
            let mode = try database.prepare("PRAGMA journal_mode = WAL")
            defer { mode.finalize() }
            guard try mode.step(), mode.text(at: 0).lowercased() == "wal" else {
                throw PersistenceError("\(path): cannot switch the journal to WAL mode")
            }
            try database.execute("PRAGMA synchronous = NORMAL")
            try database.execute("PRAGMA cache_size = \(Self.writeCacheKiB)")
        } catch {
            throw Self.explainBusy(error, path: path)
        }
    }

    private func prepareSchema() throws(PersistenceError) {
        do throws(PersistenceError) {
            try database.transaction { () throws(PersistenceError) in
                let tables = try tableNames()
                if tables.isEmpty {
                    try createTables()
                } else if !tables.contains("queryd_meta") {
                    throw PersistenceError("\(path) is a SQLite database but not a queryd store; refusing to use it")
                } else {
                    let version = try metaValue("schema")
                    if version == Self.migratableVersion {
                        try createMutationsTable()
                        try setMeta("schema", Self.schemaVersion)
                    } else if version != Self.schemaVersion {
                        try database.execute(
                            "DROP TABLE IF EXISTS queries; DROP TABLE IF EXISTS mutations; DELETE FROM queryd_meta")
                        try createTables()
                        openWipeReason = "schema \(version ?? "none") replaced by schema \(Self.schemaVersion)"
                    }
                }
            }
        } catch {
            throw Self.explainBusy(error, path: path)
        }
    }

    private func createTables() throws(PersistenceError) {
        try database.execute(
            """
            CREATE TABLE IF NOT EXISTS queryd_meta (name TEXT PRIMARY KEY, value TEXT NOT NULL) WITHOUT ROWID;
            CREATE TABLE queries (
              key TEXT PRIMARY KEY,
              data TEXT NOT NULL,
              data_updated_at INTEGER NOT NULL,
              data_update_count INTEGER NOT NULL CHECK (data_update_count >= 0)
            ) WITHOUT ROWID;
            """)
        try createMutationsTable()
        try setMeta("schema", Self.schemaVersion)
        try setMeta("buster", "")
    }

    private func createMutationsTable() throws(PersistenceError) {
        try database.execute("CREATE TABLE mutations (position INTEGER PRIMARY KEY, entry TEXT NOT NULL)")
    }

    private func tableNames() throws(PersistenceError) -> Set<String> {
        let statement = try database.prepare("SELECT name FROM sqlite_master WHERE type = 'table'")
        defer { statement.finalize() }
        var names: Set<String> = []
        while try statement.step() { names.insert(statement.text(at: 0)) }
        return names
    }

    private func metaValue(_ name: String) throws(PersistenceError) -> String? {
        let statement = try database.prepare("SELECT value FROM queryd_meta WHERE name = ?1")
        defer { statement.finalize() }
        try statement.bind(1, text: Array(name.utf8))
        return try statement.step() ? statement.text(at: 0) : nil
    }

    private func setMeta(_ name: String, _ value: String) throws(PersistenceError) {
        let statement = try database.prepare(
            """
            INSERT INTO queryd_meta (name, value) VALUES (?1, ?2)
            ON CONFLICT (name) DO UPDATE SET value = excluded.value
            """)
        defer { statement.finalize() }
        try statement.bind(1, text: Array(name.utf8))
        try statement.bind(2, text: Array(value.utf8))
        try statement.run()
    }

    /// The cache epoch kept in the store: the stored one, or `fresh` (stored now) on first use.
    public func epoch(creating fresh: String) throws(PersistenceError) -> String {
        if let stored = try metaValue("epoch") { return stored }
        try setMeta("epoch", fresh)
        return fresh
    }

    /// With `true`, every commit is synced to the disk before it returns (`synchronous = FULL`:
    /// durable across a power loss); with `false` (the default, `NORMAL`), a commit survives a
    /// process crash and only a power loss can take back the last ones.
    public func setSyncEveryCommit(_ sync: Bool) throws(PersistenceError) {
        try database.execute(sync ? "PRAGMA synchronous = FULL" : "PRAGMA synchronous = NORMAL")
    }

    /// A corruption error reworded to name the file; other errors as they are.
    private func explainCorruption(_ error: PersistenceError) -> PersistenceError {
        guard error.isCorruption else { return error }
        return PersistenceError(
            "\(path) is damaged or not a SQLite database (\(error.message))", code: error.code)
    }

    private static func explainBusy(_ error: PersistenceError, path: String) -> PersistenceError {
        guard error.code & 0xff == SQLITE_BUSY || error.code & 0xff == SQLITE_LOCKED else { return error }
        return PersistenceError("\(path) is in use by another process", code: error.code)
    }

    // MARK: - Reading and writing

    /// Reads every entry to hydrate, in one transaction, handing each to `each` as it is read (so
    /// no parsed copy of the whole store is ever held). A store written with a different `buster`
    /// is emptied first (and takes the new buster); entries whose data is older than `maxAge`
    /// milliseconds at `now` (nil: no limit) and rows that cannot be parsed are dropped and deleted.
    /// JSON deeper than `maxDepth` counts as unreadable. An entry written "in the future" (a clock
    /// that went back since) comes back as written at `now`.
    /// - Throws: `PersistenceError` with `isCorruption` when the file turns out damaged while read.
    public func restore(
        maxAge: Int64?, buster: String, now: Int64, maxDepth: Int = 512, each: (StoredQuery) -> Void
    ) throws(PersistenceError) -> RestoreCounts {
        var wipeReason = openWipeReason
        openWipeReason = nil
        do {
            try database.execute("PRAGMA cache_size = \(Self.restoreCacheKiB)")
            defer { try? database.execute("PRAGMA cache_size = \(Self.writeCacheKiB)") }
            return try database.transaction { () throws(PersistenceError) -> RestoreCounts in
                let storedBuster = try metaValue("buster") ?? ""
                if storedBuster != buster {
                    try database.execute("DELETE FROM queries; DELETE FROM mutations")
                    try setMeta("buster", buster)
                    wipeReason = wipeReason ?? "buster \"\(storedBuster)\" replaced by \"\(buster)\""
                }
                let expired = try deleteExpired(maxAge: maxAge, now: now)
                var unreadableKeys: [[UInt8]] = []
                let select = try database.prepare(
                    "SELECT key, data, data_updated_at, data_update_count FROM queries ORDER BY key")
                defer { select.finalize() }
                var read = 0
                while try select.step() {
                    let keyText = select.bytes(at: 0)
                    if let entry = Self.parse(
                        key: keyText, data: select.bytes(at: 1), dataUpdatedAt: min(select.integer(at: 2), now),
                        dataUpdateCount: select.integer(at: 3), maxDepth: maxDepth)
                    {
                        read += 1
                        each(entry)
                    } else {
                        unreadableKeys.append(keyText)
                    }
                }
                select.reset()
                for keyText in unreadableKeys {
                    try deleteRow(keyText: keyText)
                }
                return RestoreCounts(
                    read: read, expired: expired, unreadable: unreadableKeys.count, wipeReason: wipeReason)
            }
        } catch {
            throw explainCorruption(error)
        }
    }

    /// Deletes the entries older than `maxAge` ms at `now` (nil: none) and returns how many.
    private func deleteExpired(maxAge: Int64?, now: Int64) throws(PersistenceError) -> Int {
        guard let maxAge else { return 0 }
        let (cutoff, overflow) = now.subtractingReportingOverflow(max(0, maxAge))
        let delete = try database.prepare("DELETE FROM queries WHERE data_updated_at < ?1")
        defer { delete.finalize() }
        try delete.bind(1, integer: overflow ? Int64.min : cutoff)
        try delete.run()
        return database.changes
    }

    private static func parse(
        key: [UInt8], data: [UInt8], dataUpdatedAt: Int64, dataUpdateCount: Int64, maxDepth: Int
    ) -> StoredQuery? {
        guard let keyValue = try? JSONParser.parse(key, maxDepth: maxDepth),
            let queryKey = try? QueryKey(keyValue),
            let dataValue = try? JSONParser.parse(data, maxDepth: maxDepth)
        else { return nil }
        return StoredQuery(
            key: queryKey, data: dataValue, dataUpdatedAt: dataUpdatedAt, dataUpdateCount: Int(dataUpdateCount))
    }

    /// Applies every row of `rows` in one transaction: all of them are stored, or (on error) none.
    /// Rows are applied in key order (the table's order), so a large batch touches each page once;
    /// of two rows with the same key the later one wins. `mutations`, when not nil, replaces the
    /// stored paused mutations (canonical JSON entries, in order) in the same transaction.
    public func write(rows: [StoreRow], mutations: [[UInt8]]? = nil) throws(PersistenceError) {
        guard !rows.isEmpty || mutations != nil else { return }
        let ordered = rows.indices.sorted { a, b in
            let order = rows[a].keyText.lexicographicallyPrecedes(rows[b].keyText)
            return order || (rows[a].keyText == rows[b].keyText && a < b)
        }
        try database.transaction { () throws(PersistenceError) in
            for index in ordered {
                let row = rows[index]
                if let data = row.data {
                    try upsert(row, data: data)
                } else {
                    try deleteRow(keyText: row.keyText)
                }
            }
            if let mutations { try replaceMutations(mutations) }
        }
    }

    private func replaceMutations(_ entries: [[UInt8]]) throws(PersistenceError) {
        try database.execute("DELETE FROM mutations")
        let insert = try database.prepare("INSERT INTO mutations (position, entry) VALUES (?1, ?2)")
        defer { insert.finalize() }
        for (position, entry) in entries.enumerated() {
            try insert.bind(1, integer: Int64(position))
            try insert.bind(2, text: entry)
            try insert.run()
            insert.reset()
        }
    }

    /// The stored paused mutations' entries, parsed, in submission order; rows that do not parse
    /// (deeper than `maxDepth`, or damaged) are left out and counted.
    func storedMutations(maxDepth: Int = 512) throws(PersistenceError) -> (entries: [JSONValue], unreadable: Int) {
        let select = try database.prepare("SELECT entry FROM mutations ORDER BY position")
        defer { select.finalize() }
        var entries: [JSONValue] = []
        var unreadable = 0
        while try select.step() {
            if let entry = try? JSONParser.parse(select.bytes(at: 0), maxDepth: maxDepth) {
                entries.append(entry)
            } else {
                unreadable += 1
            }
        }
        return (entries, unreadable)
    }

    private func upsert(_ row: StoreRow, data: [UInt8]) throws(PersistenceError) {
        guard let statement = upsertStatement else { throw PersistenceError("the store \(path) is closed") }
        defer { statement.reset() }
        try statement.bind(1, text: row.keyText)
        try statement.bind(2, text: data)
        try statement.bind(3, integer: row.dataUpdatedAt)
        try statement.bind(4, integer: row.dataUpdateCount)
        try statement.run()
    }

    private func deleteRow(keyText: [UInt8]) throws(PersistenceError) {
        guard let statement = deleteStatement else { throw PersistenceError("the store \(path) is closed") }
        defer { statement.reset() }
        try statement.bind(1, text: keyText)
        try statement.run()
    }

    /// The number of stored entries.
    public func count() throws(PersistenceError) -> Int {
        let statement = try database.prepare("SELECT count(*) FROM queries")
        defer { statement.finalize() }
        return try statement.step() ? Int(statement.integer(at: 0)) : 0
    }
}
