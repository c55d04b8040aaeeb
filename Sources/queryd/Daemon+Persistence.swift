// `--persist PATH`: the daemon's write-behind persistence. At start (before the loop accepts
// connections) the store is opened and its entries restored into the cache, stale; afterwards a
// loop timer flushes the changed keys `--persist-flush-ms` after the first change of each batch,
// and `finish()` flushes what is left once the loop has stopped (graceful shutdown). A kill -9
// loses at most the changes of the last flush interval.

import Logging
import QuerydCore
import QuerydPersistence
import QuerydTransport

/// The persistence flags of `queryd serve`.
struct PersistenceSettings {
    /// The SQLite file.
    var path: String
    /// Restored data may be at most this old (ms); nil means any age.
    var maxAge: Int64?
    /// Data persisted under another buster is discarded at start.
    var buster: String
    /// The longest a change waits before it is written (ms).
    var flushInterval: UInt64
}

/// The open store, its writer (the cache's observer once started) and the flush timer.
final class DaemonPersistence {
    private let settings: PersistenceSettings
    private let store: QueryStore
    private let logger: Logger
    private var writer: PersistenceWriter?
    private var timer: LoopTimer?
    private var failing = false

    /// Opens the store (before the daemon binds its socket, so a refusal leaves nothing behind).
    /// - Throws: when the file cannot be opened, is not a queryd store, or another process uses it.
    init(opening settings: PersistenceSettings, logger: Logger) throws(PersistenceError) {
        self.settings = settings
        self.logger = logger
        store = try QueryStore(path: settings.path)
    }

    /// Restores the store into `cache` and starts mirroring the cache's changes, flushed on `loop`.
    func start(cache: QueryCache, loop: EventLoop, maxDepth: Int) throws(PersistenceError) {
        let report = try cache.restore(
            from: store, maxAge: settings.maxAge, buster: settings.buster, maxDepth: max(512, maxDepth))
        if let reason = report.wipeReason {
            logger.notice("persistence: emptied \(settings.path) (\(reason))")
        }
        logger.info(
            """
            persistence: restored \(report.restored) of \(report.read) queries from \(settings.path) \
            (\(report.expired) older than the max age, \(report.unreadable) unreadable)
            """)
        let writer = PersistenceWriter(store: store, cache: cache)
        self.writer = writer
        timer = LoopTimer(loop: loop)
        writer.onFirstChange = { [unowned self] in scheduleFlush() }
        cache.observer = writer
    }

    private func scheduleFlush() {
        timer?.schedule(afterMilliseconds: settings.flushInterval) { [unowned self] in flush() }
    }

    /// Writes the pending changes; after a failure they stay pending and the flush is retried.
    private func flush() {
        guard let writer else { return }
        do {
            let written = try writer.flush()
            if failing {
                failing = false
                logger.notice("persistence: writing to \(settings.path) works again")
            }
            logger.debug("persistence: wrote \(written) changes (\(writer.writtenCount) since start)")
        } catch {
            failing = true
            logger.error(
                "persistence: cannot write \(writer.pendingCount) changes to \(settings.path): \(error); retrying")
            scheduleFlush()
        }
    }

    /// Flushes what is left and closes the store; call after the loop stopped.
    /// - Throws: when the final flush fails (the changes since the last flush are lost).
    func finish() throws(PersistenceError) {
        defer { store.close() }
        guard let writer else { return }
        let pending = writer.pendingCount
        do {
            try writer.flush()
        } catch {
            logger.error("persistence: the final flush of \(pending) changes to \(settings.path) failed: \(error)")
            throw error
        }
        logger.info("persistence: wrote \(pending) changes at shutdown (\(writer.writtenCount) since start)")
    }
}

extension Daemon {
    /// Restores `persistence` into this daemon's cache and starts its flushes; call before `run()`.
    func startPersistence(_ persistence: DaemonPersistence) throws(PersistenceError) {
        try persistence.start(cache: server.cache, loop: loop, maxDepth: configuration.maxDepth)
    }
}

extension ServeCommand {
    /// The persistence settings from the flags, or nil without `--persist`; bad values refuse the start.
    func persistenceSettings() throws(Refusal) -> PersistenceSettings? {
        guard let path = persist else { return nil }
        guard !path.isEmpty else { throw Refusal("--persist needs a file path") }
        guard persistMaxAge >= 0 else { throw Refusal("--persist-max-age must be 0 or more milliseconds") }
        guard persistFlushMs > 0 else { throw Refusal("--persist-flush-ms must be positive") }
        return PersistenceSettings(
            path: path, maxAge: persistMaxAge, buster: persistBuster, flushInterval: UInt64(persistFlushMs))
    }
}
