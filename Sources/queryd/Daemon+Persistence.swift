// `--persist PATH`: the daemon's write-behind persistence. At start, before the socket is bound,
// the store is opened (a damaged file is refused, or with `--persist-recover` moved aside) and its
// entries restored into the cache, stale, and its paused mutations into the mutation cache, paused. Afterwards SQLite runs only on the store thread: the loop
// takes batches of encoded rows from the writer fed with the engine's data changes and hands them over, one batch in flight
// at a time, and learns the outcome through a `LoopInbox`.
//
// `--persist-sync interval` (default): a batch is taken `--persist-flush-ms` after the first change,
// in slices of `sliceRows` rows so no loop turn spends long copying; a kill -9 loses at most the
// changes of the last interval. `--persist-sync always`: every loop turn that changed data ends by
// sending all its changes as one batch (group commit, synced to the disk), and the daemon holds the
// output produced meanwhile until that batch is durable, so no client sees a reply (or a push) for a
// write that a crash could still take back. `finish()` writes what is left once the loop stopped.

import ArgumentParser
import Logging
import QuerydCore
import QuerydJSON
import QuerydPersistence
import QuerydTransport

/// When a change is durable (`--persist-sync`).
enum PersistSync: String, ExpressibleByArgument, CaseIterable {
    /// Written within `--persist-flush-ms`; replies do not wait.
    case interval
    /// Written (and synced) before the reply to the write is sent.
    case always
}

/// The persistence flags of `queryd serve`.
struct PersistenceSettings {
    /// The SQLite file.
    var path: String
    /// Restored data may be at most this old (ms); nil means any age.
    var maxAge: Int64?
    /// Data persisted under another buster is discarded at start.
    var buster: String
    /// The longest a change waits before it is written (ms); also the retry delay after a failure.
    var flushInterval: UInt64
    /// When a change is durable.
    var sync: PersistSync
    /// Move a damaged file aside and start empty instead of refusing to start.
    var recover: Bool
}

/// The outcome of one batch, posted from the store thread to the loop.
struct BatchOutcome: Sendable {
    let sequence: UInt64
    let result: Result<Void, PersistenceError>
}

/// The store thread, the writer of the engine's data changes, the flush timer and the batch in flight.
final class DaemonPersistence {
    /// Rows copied per loop turn in `interval` mode (about a millisecond of copying).
    static let sliceRows = 2048

    private let settings: PersistenceSettings
    private let logger: Logger
    /// Consumes the engine's data-change effects (the server hands them over).
    let writer: PersistenceWriter
    private let thread: StoreThread
    private let timer: LoopTimer
    private var inbox: LoopInbox<BatchOutcome>?
    /// The batch the store thread is writing: its sequence number and keys.
    private var inFlight: (sequence: UInt64, keys: [QueryKey], mutations: Bool)?
    private var lastSequence: UInt64 = 0
    /// A flush was due and pending keys remain to be sliced into batches.
    private var draining = false
    private var failing = false
    private var written = 0
    /// `always` mode: called once every batch up to this sequence number is durable.
    var onDurable: ((UInt64) -> Void)?

    /// The epoch kept in the store at `settings.path`, or `fresh` when it has none (then stored) or
    /// cannot be read now (a damaged or busy file: the start proper refuses it, or moves it aside and
    /// stores `fresh` in the new one).
    static func keptEpoch(in settings: PersistenceSettings, creating fresh: String) -> String {
        guard let store = try? QueryStore(path: settings.path) else { return fresh }
        defer { store.close() }
        return (try? store.epoch(creating: fresh)) ?? fresh
    }

    /// Opens the store and restores it into `cache` (refusing a damaged file, or moving it aside with
    /// `recover`), keeps `epoch` in it when it has none, then starts mirroring the cache's changes
    /// from `loop`. Call before binding the socket.
    init(
        settings: PersistenceSettings, cache: QueryCache, loop: EventLoop, maxDepth: Int, epoch: String,
        logger: Logger
    ) throws(PersistenceError) {
        self.settings = settings
        self.logger = logger
        try Self.openAndRestore(settings, cache: cache, maxDepth: maxDepth, logger: logger)
        // The store thread gets a connection of its own: the one that restored is tied to the cache.
        let store = try QueryStore(path: settings.path)
        do {
            _ = try store.epoch(creating: epoch)
            try store.setSyncEveryCommit(settings.sync == .always)
        } catch {
            store.close()
            throw error
        }
        writer = PersistenceWriter(cache: cache)
        thread = StoreThread(store: store)
        timer = LoopTimer(loop: loop)
        inbox = LoopInbox(loop: loop) { [unowned self] outcome in finished(outcome) }
        writer.onFirstChange = { [unowned self] in
            if settings.sync == .interval { scheduleFlush() }
        }
    }

    private static func openAndRestore(
        _ settings: PersistenceSettings, cache: QueryCache, maxDepth: Int, logger: Logger
    ) throws(PersistenceError) {
        do {
            try restore(settings, cache: cache, maxDepth: maxDepth, logger: logger)
        } catch  where error.isCorruption {
            guard settings.recover else {
                throw PersistenceError(
                    """
                    \(error.message); move it (and its -wal and -shm files) aside, or start with \
                    --persist-recover to have it moved aside and start empty
                    """, code: error.code)
            }
            // The max-age delete reads every row before any is hydrated, so the damage is met
            // first; should a row have been hydrated before it all the same, it goes too.
            _ = cache.removeQueries(QueryFilter())
            let moved = try DamagedStore.moveAside(settings.path)
            logger.warning(
                "persistence: \(error.message); moved \(moved.joined(separator: ", ")) aside and starting empty")
            try restore(settings, cache: cache, maxDepth: maxDepth, logger: logger)
        }
    }

    /// Rows written under an earlier, higher `--max-depth` still restore, up to what this thread's
    /// stack can recurse through.
    private static func restoreDepth(_ maxDepth: Int) -> Int {
        min(max(512, maxDepth), JSONNestingLimit.maximumDepth(stackBytes: JSONNestingLimit.mainThreadStackBytes()))
    }

    private static func restore(
        _ settings: PersistenceSettings, cache: QueryCache, maxDepth: Int, logger: Logger
    ) throws(PersistenceError) {
        let store = try QueryStore(path: settings.path)
        defer { store.close() }
        let report = try cache.restore(
            from: store, maxAge: settings.maxAge, buster: settings.buster, maxDepth: Self.restoreDepth(maxDepth))
        if let reason = report.wipeReason {
            logger.notice("persistence: emptied \(settings.path) (\(reason))")
        }
        logger.info(
            """
            persistence: restored \(report.restored) of \(report.read) queries from \(settings.path) \
            (\(report.expired) older than the max age, \(report.unreadable) unreadable)
            """)
        if let mutations = cache.attachedMutationCache {
            let report = try mutations.restore(from: store, maxDepth: Self.restoreDepth(maxDepth))
            logger.info("persistence: restored \(report.restored) paused mutations (\(report.unreadable) unreadable)")
        }
    }

    /// Whether output may have to wait for a batch (`always` mode).
    var holdsOutput: Bool { settings.sync == .always }

    /// `always` mode: the sequence number of the batch that will make the output produced now
    /// durable (nil: nothing is waiting to be written, the output may go at once). Nil in `interval` mode.
    var outputTicket: UInt64? {
        guard settings.sync == .always else { return nil }
        if writer.pendingCount > 0 { return lastSequence + 1 }
        return inFlight?.sequence
    }

    /// Called at the end of every loop turn: in `always` mode, sends the turn's changes.
    func endOfTurn() {
        if settings.sync == .always, !failing { sendBatch() }
    }

    private func scheduleFlush() {
        timer.schedule(afterMilliseconds: settings.flushInterval) { [unowned self] in
            draining = true
            sendBatch()
        }
    }

    /// Hands the next batch to the store thread, unless one is in flight.
    private func sendBatch() {
        guard inFlight == nil, writer.pendingCount > 0, let sender = inbox?.sender else { return }
        let batch = writer.takeBatch(limit: settings.sync == .always ? .max : Self.sliceRows)
        if writer.pendingCount == 0 { draining = false }
        lastSequence += 1
        let sequence = lastSequence
        inFlight = (sequence, batch.keys, batch.mutations != nil)
        thread.write(batch.rows, mutations: batch.mutations) { result in
            sender.post(BatchOutcome(sequence: sequence, result: result))
        }
    }

    private func finished(_ outcome: BatchOutcome) {
        guard let batch = inFlight, batch.sequence == outcome.sequence else { return }
        inFlight = nil
        switch outcome.result {
        case .success:
            // The paused mutations, rewritten whole, count as one change.
            let changes = batch.keys.count + (batch.mutations ? 1 : 0)
            written += changes
            if failing {
                failing = false
                logger.notice("persistence: writing to \(settings.path) works again")
            }
            logger.debug("persistence: wrote \(changes) changes (\(written) since start)")
            onDurable?(batch.sequence)
            if draining || settings.sync == .always { sendBatch() }
        case .failure(let error):
            writer.putBack(batch.keys, mutations: batch.mutations)
            failing = true
            logger.error(
                "persistence: cannot write \(writer.pendingCount) changes to \(settings.path): \(error); retrying")
            scheduleFlush()
        }
    }

    /// Writes what is left on this thread and closes the store; call after the loop stopped.
    /// - Throws: when the final write fails (the changes since the last batch are lost).
    func finish() throws(PersistenceError) {
        // A batch still in flight may have failed unseen: its keys are written again (upserts of
        // the current state, so writing them twice is harmless).
        if let batch = inFlight { writer.putBack(batch.keys, mutations: batch.mutations) }
        inFlight = nil
        let pending = writer.pendingCount
        let writer = writer
        do {
            try thread.finish { store throws(PersistenceError) in
                defer { store.close() }
                try writer.flush(into: store)
            }
        } catch {
            logger.error("persistence: the final write of \(pending) changes to \(settings.path) failed: \(error)")
            throw error
        }
        logger.info("persistence: wrote \(pending) changes at shutdown (\(written + pending) since start)")
    }
}

extension ServeCommand {
    /// The persistence settings from the flags, or nil without `--persist`; bad values refuse the start.
    func persistenceSettings() throws(Refusal) -> PersistenceSettings? {
        guard let path = persist else {
            if persistRecover { throw Refusal("--persist-recover needs --persist") }
            return nil
        }
        guard !path.isEmpty else { throw Refusal("--persist needs a file path") }
        guard persistMaxAge >= 0 else { throw Refusal("--persist-max-age must be 0 or more milliseconds") }
        guard persistFlushMs > 0 else { throw Refusal("--persist-flush-ms must be positive") }
        return PersistenceSettings(
            path: path, maxAge: persistMaxAge, buster: persistBuster, flushInterval: UInt64(persistFlushMs),
            sync: persistSync, recover: persistRecover)
    }
}
