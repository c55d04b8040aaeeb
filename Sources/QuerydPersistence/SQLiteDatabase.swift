// A thin owner of one SQLite connection: open, run SQL text, prepare statements, close.
//
// Only this file and SQLiteStatement.swift touch the C API. Everything runs on the caller's
// thread (the daemon's loop thread); the connection is opened without SQLite's own mutex.

import CSQLite

/// One open SQLite connection.
final class SQLiteDatabase {
    private(set) var handle: OpaquePointer?
    let path: String

    /// Opens (creating if needed) the database file at `path`; a symlink is refused.
    init(path: String) throws(PersistenceError) {
        self.path = path
        var connection: OpaquePointer?
        let flags = SQLITE_OPEN_READWRITE | SQLITE_OPEN_CREATE | SQLITE_OPEN_NOMUTEX | SQLITE_OPEN_NOFOLLOW
        let result = sqlite3_open_v2(path, &connection, flags, nil)
        guard result == SQLITE_OK, let connection else {
            let reason = connection.map { String(cString: sqlite3_errmsg($0)) } ?? "out of memory"
            sqlite3_close_v2(connection)
            throw PersistenceError("cannot open \(path): \(reason)", code: result)
        }
        handle = connection
        sqlite3_extended_result_codes(connection, 1)
    }

    deinit { close() }

    /// Closes the connection (finalize statements first); later calls throw "closed".
    func close() {
        guard let handle else { return }
        sqlite3_close_v2(handle)
        self.handle = nil
    }

    /// The open connection, or a "closed" error.
    func connection() throws(PersistenceError) -> OpaquePointer {
        guard let handle else { throw PersistenceError("the store \(path) is closed") }
        return handle
    }

    /// Runs one or more SQL statements that return no rows of interest.
    func execute(_ sql: String) throws(PersistenceError) {
        let connection = try connection()
        var message: UnsafeMutablePointer<CChar>?
        let result = sqlite3_exec(connection, sql, nil, nil, &message)
        guard result == SQLITE_OK else {
            let reason = message.map { String(cString: $0) } ?? lastErrorMessage
            sqlite3_free(message)
            throw PersistenceError("\(reason) in: \(sql)", code: result)
        }
    }

    /// Compiles one statement.
    func prepare(_ sql: String) throws(PersistenceError) -> SQLiteStatement {
        let connection = try connection()
        var statement: OpaquePointer?
        let result = sqlite3_prepare_v3(connection, sql, -1, UInt32(SQLITE_PREPARE_PERSISTENT), &statement, nil)
        guard result == SQLITE_OK, let statement else {
            throw PersistenceError("\(lastErrorMessage) in: \(sql)", code: result)
        }
        return SQLiteStatement(statement, database: self)
    }

    /// The rows changed by the last INSERT, UPDATE or DELETE.
    var changes: Int {
        guard let handle else { return 0 }
        return Int(sqlite3_changes(handle))
    }

    /// SQLite's message for the last failure on this connection.
    var lastErrorMessage: String {
        guard let handle else { return "the store is closed" }
        return String(cString: sqlite3_errmsg(handle))
    }

    /// Runs `body` inside `BEGIN IMMEDIATE` ... `COMMIT`, rolling back when it throws.
    func transaction<T>(_ body: () throws(PersistenceError) -> T) throws(PersistenceError) -> T {
        try execute("BEGIN IMMEDIATE")
        do {
            let value = try body()
            try execute("COMMIT")
            return value
        } catch {
            try? execute("ROLLBACK")
            throw error
        }
    }
}
