// The store's own thread: a serial dispatch queue that owns the `QueryStore` once the daemon has
// restored from it, so SQLite work (and its fsyncs) never runs on the event loop.
//
// The loop hands over batches of encoded rows (plain `Sendable` values) and learns the outcome
// through the `done` callback, which runs on the store thread (the daemon posts it back to the
// loop through a `LoopInbox`). The loop bounds the queue itself: it keeps at most one batch in
// flight and lets later changes coalesce in its pending set meanwhile.

import Dispatch
import Glibc
import Synchronization

/// Runs a store's writes on a thread of its own.
public final class StoreThread: Sendable {
    private let queue = DispatchQueue(label: "queryd.persistence")
    /// Only the queue's thread (or `finish`, after the queue drained) touches the store; the lock
    /// is what makes the non-`Sendable` store transferable and is never contended.
    private let store: Mutex<QueryStore>

    /// Takes over `store`; use it only through this object from now on.
    public init(store: sending QueryStore) {
        self.store = Mutex(store)
    }

    /// Writes `rows` (and, when not nil, the paused mutations) in one transaction on the store
    /// thread, then calls `done` there with the outcome.
    public func write(
        _ rows: [StoreRow], mutations: [[UInt8]]? = nil,
        done: @escaping @Sendable (Result<Void, PersistenceError>) -> Void
    ) {
        queue.async { [self] in
            Self.yieldToTheLoop()
            let outcome = store.withLock { store -> Result<Void, PersistenceError> in
                Result { () throws(PersistenceError) in try store.write(rows: rows, mutations: mutations) }
            }
            done(outcome)
        }
    }

    /// Lowers the calling thread's scheduling priority to nice 10, so that on a busy machine the event
    /// loop's thread wins the CPU over a long write. Linux keeps nice per thread (`who` 0 is the
    /// calling thread); the daemon runs nothing else on dispatch threads.
    private static func yieldToTheLoop() {
        let which = __priority_which_t(PRIO_PROCESS.rawValue)
        if getpriority(which, 0) < 10 { _ = setpriority(which, 0, 10) }
    }

    /// Waits until every queued write ran, then runs `body` with the store on the calling thread.
    public func finish<T: Sendable>(_ body: (QueryStore) throws(PersistenceError) -> T) throws(PersistenceError) -> T {
        queue.sync {}
        return try store.withLock { store throws(PersistenceError) -> T in try body(store) }
    }
}
