// The libuv loop owner: runs the loop on one thread and tracks every handle the transport creates on it.
import CLibUV
import Glibc

/// One libuv event loop. Create it, and every transport object on it, on the thread that calls `run()`;
/// everything built on the loop is then touched only from that thread (asserted in debug builds).
public final class EventLoop {
    /// Size of the read buffer shared by every connection of this loop, and what one connection is read per
    /// loop turn at most (Redis reads 16 KB per client per event too, `PROTO_IOBUF_LEN`).
    static let readSlabSize = 16_384

    /// The libuv loop, allocated here and freed in `deinit` once `uv_loop_close` succeeded.
    let rawLoop: UnsafeMutablePointer<uv_loop_t>
    /// The read slab handed out by every alloc callback; the read callback consumes it synchronously.
    let readSlab: UnsafeMutablePointer<CChar>
    private let thread: pthread_t
    private var owners: [ObjectIdentifier: any LoopHandleOwner] = [:]
    private var beforeSleep: BeforeSleepHook?
    /// Ends the read turn after the poll phase (ReadBudget.swift); made on first use.
    private var readTurnEnd: ReadTurnEnd?
    /// Counts the turns in which a connection spent its read budget (ReadBudget.swift).
    var readTurn: UInt64 = 0
    private var isRunning = false

    /// True once `close()` has closed every handle and `uv_loop_close` succeeded.
    public private(set) var isClosed = false
    /// Why the last `close()` could not close the libuv loop (handles the transport did not create), if it failed.
    public private(set) var closeError: TransportError?

    /// Creates and initialises a libuv loop owned by the calling thread.
    public init() throws(TransportError) {
        let loop = allocateZeroed(uv_loop_t.self)
        do {
            try uvCheck(uv_loop_init(loop), "uv_loop_init")
        } catch {
            loop.deallocate()
            throw error
        }
        rawLoop = loop
        readSlab = .allocate(capacity: Self.readSlabSize)
        thread = pthread_self()
        // Safety: `data` holds an unretained pointer to this object. Every callback that reads it runs inside
        // `uv_run` on this loop, and the object outlives every run: `deinit` needs `close()`'s callbacks finished.
        rawLoop.pointee.data = Unmanaged.passUnretained(self).toOpaque()
    }

    deinit {
        // Every handle owner holds a strong reference to its loop until its close callback, so no transport handle
        // is left here; `uv_loop_close` only fails for handles created outside the transport.
        if !isClosed {
            isClosed = uv_loop_close(rawLoop) == 0
        }
        if isClosed {
            rawLoop.deallocate()
        }
        // A loop that libuv still references (handles created outside the transport) is deliberately leaked.
        readSlab.deallocate()
    }

    /// Runs the loop (`UV_RUN_DEFAULT`) until `stop()` is called or no referenced handle is left.
    public func run() {
        assertInLoopThread()
        precondition(!isRunning, "EventLoop.run() is not reentrant")
        isRunning = true
        _ = uv_run(rawLoop, UV_RUN_DEFAULT)
        isRunning = false
    }

    /// Makes `run()` return after the current iteration.
    public func stop() {
        assertInLoopThread()
        uv_stop(rawLoop)
    }

    /// The loop's cached clock in milliseconds (`uv_now`), refreshed at the start of each iteration.
    public var nowMilliseconds: UInt64 {
        uv_now(rawLoop)
    }

    /// Refreshes the cached clock read by `nowMilliseconds` (`uv_update_time`).
    public func updateTime() {
        uv_update_time(rawLoop)
    }

    /// Registers `body` to run once per loop iteration, just before the loop polls (and possibly blocks) for I/O.
    /// The hook does not keep the loop alive on its own.
    public func onBeforeSleep(_ body: @escaping () -> Void) {
        assertInLoopThread()
        if let beforeSleep {
            beforeSleep.bodies.append(body)
        } else {
            beforeSleep = BeforeSleepHook(loop: self, body: body)
        }
    }

    /// Runs `handler` on the loop thread whenever signal `signum` arrives. The watcher does not keep the loop alive
    /// on its own. Returns the error if libuv refused the signal number.
    @discardableResult
    public func onSignal(_ signum: Int32, _ handler: @escaping () -> Void) -> TransportError? {
        assertInLoopThread()
        return SignalWatcher.start(loop: self, signum: signum, handler: handler)
    }

    /// Closes every handle created on this loop (timers, hooks, signal watchers, listeners, connections), runs the
    /// loop until their close callbacks have run, then closes the libuv loop. Sets `closeError` if that fails.
    /// Listeners unlink their socket (if it is still theirs); connections get `connectionDidClose`. Call it after
    /// `run()` has returned, never from inside a callback (libuv's `uv_run` is not reentrant).
    public func close() {
        assertInLoopThread()
        precondition(!isRunning, "EventLoop.close() called from inside run(); stop() first")
        guard !isClosed else { return }
        closeAllHandles()
        if let error = uvFailure(uv_loop_close(rawLoop), "uv_loop_close") {
            closeError = error
        } else {
            isClosed = true
            closeError = nil
        }
    }

    /// Ignores SIGPIPE for the whole process, so writes to a vanished peer fail with EPIPE instead of killing it.
    public static func ignoreSIGPIPE() {
        _ = signal(SIGPIPE, SIG_IGN)
    }

    /// Moves `readTurn` on once this turn's poll phase is over, so the connections that spent their read
    /// budget in it are read again in the next (see ReadBudget.swift).
    func endReadTurnAfterPoll() {
        if readTurnEnd == nil { readTurnEnd = ReadTurnEnd(loop: self) }
        readTurnEnd?.arm()
    }

    /// Closes every registered handle and runs non-blocking iterations until all their close callbacks ran.
    func closeAllHandles() {
        beforeSleep = nil
        readTurnEnd = nil
        var rounds = 0
        while !owners.isEmpty && rounds < 1_000 {
            for owner in Array(owners.values) {
                owner.closeFromLoop()
            }
            _ = uv_run(rawLoop, UV_RUN_NOWAIT)
            rounds += 1
        }
    }

    /// Records a handle owner so `close()` can reach it.
    func register(_ owner: any LoopHandleOwner) {
        owners[ObjectIdentifier(owner)] = owner
    }

    /// Forgets a handle owner; called from its close callback.
    func unregister(_ owner: any LoopHandleOwner) {
        owners[ObjectIdentifier(owner)] = nil
    }

    /// Traps in debug builds when called from a thread other than the one that created the loop.
    @inline(__always)
    func assertInLoopThread(_ function: StaticString = #function) {
        assert(pthread_equal(pthread_self(), thread) != 0, "EventLoop: \(function) called off the loop thread")
    }

    /// Recovers the `EventLoop` from a libuv loop pointer inside a callback.
    @inline(__always)
    static func owning(_ loop: UnsafeMutablePointer<uv_loop_t>?) -> EventLoop {
        // Safety: `data` was set in `init` to this unretained object, which outlives every `uv_run` (see `init`).
        Unmanaged<EventLoop>.fromOpaque(loop!.pointee.data).takeUnretainedValue()
    }
}
