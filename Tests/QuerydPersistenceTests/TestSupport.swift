// Helpers for the persistence tests: a private temporary directory, raw SQL against a closed
// store (to plant old schemas and corrupt rows), and a cache on a manual clock that records its effects.

import CSQLite
import Glibc
import QuerydCore
import QuerydJSON
import QuerydPersistence
import QuerydTestSupport

/// A fresh directory under /tmp, removed with its files when released.
final class TemporaryDirectory {
    let path: String

    init() {
        var template = Array("/tmp/qd-persist-XXXXXX".utf8CString)
        let made = template.withUnsafeMutableBufferPointer { mkdtemp($0.baseAddress!) }
        precondition(made != nil, "mkdtemp failed")
        path = String(cString: template.withUnsafeBufferPointer { $0.baseAddress! })
    }

    /// The path of a file in the directory.
    func file(_ name: String) -> String { path + "/" + name }

    deinit {
        if let directory = opendir(path) {
            while let entry = readdir(directory) {
                let name = withUnsafeBytes(of: entry.pointee.d_name) { raw in
                    String(cString: raw.bindMemory(to: CChar.self).baseAddress!)
                }
                if name != "." && name != ".." { unlink(path + "/" + name) }
            }
            closedir(directory)
        }
        rmdir(path)
    }
}

/// Runs SQL on the file at `path` with a plain connection (the store must be closed).
func rawExecute(_ path: String, _ sql: String) {
    var connection: OpaquePointer?
    precondition(sqlite3_open(path, &connection) == SQLITE_OK, "cannot open \(path)")
    defer { sqlite3_close(connection) }
    var message: UnsafeMutablePointer<CChar>?
    let result = sqlite3_exec(connection, sql, nil, nil, &message)
    precondition(result == SQLITE_OK, "raw SQL failed: \(message.map { String(cString: $0) } ?? "?")")
}

/// A key from JSON text written in a test.
func key(_ text: String) -> QueryKey {
    do {
        return try QueryKey(JSONParser.parse(text))
    } catch {
        fatalError("bad key literal \(text): \(error)")
    }
}

/// An entry for `key` (JSON text) with data `data` (JSON text).
func entry(_ keyText: String, _ dataText: String, at time: Int64, count: Int = 1) -> StoredQuery {
    StoredQuery(key: key(keyText), data: json(dataText), dataUpdatedAt: time, dataUpdateCount: count)
}

/// The manual clock's start (ms).
let start: Int64 = 1_700_000_000_000

/// A cache on a manual clock whose effects are applied as the server would: fetch requests are
/// recorded, data changes go to `observer`.
final class RecordingCache {
    let clock = ManualClock(start: start)
    let cache: QueryCache
    private var requests: [FetchRequest] = []
    /// Gets the data-change effects (the persistence writer under test).
    var observer: (any QueryCacheObserver)? {
        didSet { cache.reportsDataChanges = observer != nil }
    }

    init() {
        cache = QueryCache(clock: clock)
    }

    /// The fetch requests sent so far.
    var fetchRequests: [FetchRequest] {
        applyEffects()
        return requests
    }

    /// Moves the clock, firing due timers.
    func advance(by ms: Int64) {
        cache.advance(clock, by: ms)
        applyEffects()
    }

    /// Applies the effects of the inputs so far.
    func applyEffects() {
        cache.effects.drain { effect in
            switch effect {
            case .sendFetch(let request): requests.append(request)
            case .dataChanged(let query): observer?.queryDataChanged(query)
            case .queryRemoved(let key): observer?.queryRemoved(key)
            case .pausedMutationsChanged: observer?.pausedMutationsChanged()
            default: break
            }
        }
    }
}

/// Writes `text` to a new file at `path`.
func rawWriteFile(_ path: String, _ text: String) {
    let fd = open(path, O_WRONLY | O_CREAT | O_TRUNC, 0o600)
    precondition(fd >= 0, "cannot create \(path)")
    let bytes = Array(text.utf8)
    precondition(bytes.withUnsafeBytes { write(fd, $0.baseAddress, $0.count) } == bytes.count, "short write")
    close(fd)
}

/// One change of a batch written by `QueryStore.write(batch:)` (tests write entries, the daemon rows).
enum StoreChange {
    /// Insert the entry, or replace the one with the same key.
    case upsert(StoredQuery)
    /// Remove the entry for the key (nothing happens when there is none).
    case delete(QueryKey)
}

/// What `QueryStore.restore(maxAge:buster:now:)` found, collected.
struct RestoredQueries: Equatable {
    /// The entries to hydrate, ordered by key text.
    var entries: [StoredQuery]
    var expired: Int
    var unreadable: Int
    var wipeReason: String?
}

extension QueryStore {
    /// Applies the changes in one transaction, as `write(rows:)`.
    func write(batch: [StoreChange]) throws(PersistenceError) {
        try write(
            rows: batch.map { change in
                switch change {
                case .upsert(let entry):
                    StoreRow(
                        keyText: entry.key.jsonValue.encoded, data: entry.data.encoded,
                        dataUpdatedAt: entry.dataUpdatedAt, dataUpdateCount: Int64(entry.dataUpdateCount))
                case .delete(let key): StoreRow(keyText: key.jsonValue.encoded, data: nil)
                }
            })
    }

    /// Restores every entry into an array.
    func restore(maxAge: Int64?, buster: String, now: Int64, maxDepth: Int = 512) throws(PersistenceError)
        -> RestoredQueries
    {
        var entries: [StoredQuery] = []
        let counts = try restore(maxAge: maxAge, buster: buster, now: now, maxDepth: maxDepth) { entries.append($0) }
        return RestoredQueries(
            entries: entries, expired: counts.expired, unreadable: counts.unreadable, wipeReason: counts.wipeReason)
    }
}
