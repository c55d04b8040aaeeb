// `--persist-recover`: a damaged persistence file (and its -wal and -shm) is renamed with a UTC
// timestamp, e.g. cache.db -> cache.db.corrupt-20261125T131900Z (cache.db-wal ->
// cache.db.corrupt-20261125T131900Z-wal, so SQLite can still open the copy with its log).

import Glibc
import QuerydPersistence

/// Moves a damaged store out of the way.
enum DamagedStore {
    /// Renames `path` and its -wal and -shm files (those that exist) and returns the new names.
    static func moveAside(_ path: String) throws(PersistenceError) -> [String] {
        var target = path + ".corrupt-" + timestamp()
        var attempt = 1
        while access(target, F_OK) == 0 {
            attempt += 1
            target = path + ".corrupt-" + timestamp() + "-\(attempt)"
        }
        var moved: [String] = []
        for suffix in ["", "-wal", "-shm"] where access(path + suffix, F_OK) == 0 {
            guard rename(path + suffix, target + suffix) == 0 else {
                throw PersistenceError(
                    "cannot move \(path + suffix) aside to \(target + suffix): \(String(cString: strerror(errno)))")
            }
            moved.append("\(path + suffix) to \(target + suffix)")
        }
        return moved
    }

    /// The current UTC time as yyyyMMddTHHmmssZ.
    private static func timestamp() -> String {
        var now = time(nil)
        var parts = tm()
        gmtime_r(&now, &parts)
        var buffer = [CChar](repeating: 0, count: 32)
        let count = strftime(&buffer, buffer.count, "%Y%m%dT%H%M%SZ", &parts)
        return String(decoding: buffer.prefix(count).map { UInt8(bitPattern: $0) }, as: UTF8.self)
    }
}
