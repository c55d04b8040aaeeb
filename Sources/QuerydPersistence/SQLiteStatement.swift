// One prepared SQLite statement: bind parameters, step through rows, read columns, reset.

import CSQLite

/// A compiled statement, reused across executions (`reset` clears its bindings).
final class SQLiteStatement {
    private var handle: OpaquePointer?
    private unowned let database: SQLiteDatabase

    init(_ handle: OpaquePointer, database: SQLiteDatabase) {
        self.handle = handle
        self.database = database
    }

    deinit { finalize() }

    /// Releases the statement; must happen before its connection closes.
    func finalize() {
        guard let handle else { return }
        sqlite3_finalize(handle)
        self.handle = nil
    }

    private func statement() throws(PersistenceError) -> OpaquePointer {
        guard let handle else { throw PersistenceError("statement used after finalize") }
        return handle
    }

    /// Binds UTF-8 text (copied by SQLite) to the 1-based parameter `index`.
    func bind(_ index: Int32, text bytes: [UInt8]) throws(PersistenceError) {
        let statement = try statement()
        let result = bytes.withUnsafeBufferPointer { buffer in
            buffer.withMemoryRebound(to: CChar.self) { chars in
                // An empty array may have no base address; the shim binds "" then.
                csqlite_bind_text_copy(statement, index, chars.baseAddress, Int32(chars.count))
            }
        }
        try check(result, "bind")
    }

    /// Binds a 64-bit integer to the 1-based parameter `index`.
    func bind(_ index: Int32, integer value: Int64) throws(PersistenceError) {
        try check(sqlite3_bind_int64(try statement(), index, value), "bind")
    }

    /// Advances to the next row: true when a row is available, false when done.
    func step() throws(PersistenceError) -> Bool {
        let result = sqlite3_step(try statement())
        switch result {
        case SQLITE_ROW: return true
        case SQLITE_DONE: return false
        default: throw PersistenceError(database.lastErrorMessage, code: result)
        }
    }

    /// Runs the statement to completion (for statements without result rows) and resets it.
    func run() throws(PersistenceError) {
        defer { reset() }
        while try step() {}
    }

    /// Rewinds the statement and clears its bindings so it can run again.
    func reset() {
        guard let handle else { return }
        sqlite3_reset(handle)
        sqlite3_clear_bindings(handle)
    }

    /// The 0-based column `index` of the current row as an integer.
    func integer(at index: Int32) -> Int64 {
        guard let handle else { return 0 }
        return sqlite3_column_int64(handle, index)
    }

    /// The 0-based column `index` of the current row as raw UTF-8 bytes (empty for NULL).
    func bytes(at index: Int32) -> [UInt8] {
        guard let handle, let text = sqlite3_column_text(handle, index) else { return [] }
        let count = Int(sqlite3_column_bytes(handle, index))
        return Array(UnsafeBufferPointer(start: text, count: count))
    }

    /// The 0-based column `index` of the current row as a string (empty for NULL).
    func text(at index: Int32) -> String {
        String(decoding: bytes(at: index), as: UTF8.self)
    }

    private func check(_ result: Int32, _ action: String) throws(PersistenceError) {
        guard result == SQLITE_OK else {
            throw PersistenceError("\(action) failed: \(database.lastErrorMessage)", code: result)
        }
    }
}
