// The one error type of the persistence module: what failed, with SQLite's own message and code.

import CSQLite

/// A persistence failure: the store could not be opened, read or written.
public struct PersistenceError: Error, Sendable, Equatable, CustomStringConvertible {
    /// What was being done and why it failed, e.g. "cannot open /x.db: unable to open database file".
    public let message: String
    /// SQLite's result code (0 when the failure did not come from SQLite).
    public let code: Int32

    /// Creates an error with a message and SQLite result code.
    public init(_ message: String, code: Int32 = 0) {
        self.message = message
        self.code = code
    }

    /// Whether SQLite found the file damaged or not a database at all (SQLITE_CORRUPT, SQLITE_NOTADB).
    public var isCorruption: Bool {
        code & 0xff == SQLITE_CORRUPT || code & 0xff == SQLITE_NOTADB
    }

    /// The message (and the SQLite code when there is one).
    public var description: String {
        code == 0 ? message : "\(message) (SQLite code \(code))"
    }
}
