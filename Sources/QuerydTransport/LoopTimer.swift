// A one-shot, re-armable loop timer (uv_timer_t): the server keeps one armed at the core's next deadline.
import CLibUV

/// A one-shot timer on an `EventLoop`. Scheduling again replaces the previous deadline and body.
/// A scheduled timer keeps the loop running; the timer lives until `close()` (or the loop's `close()`).
public final class LoopTimer: LoopHandleOwner {
    private let loop: EventLoop
    private let handle = allocateZeroed(uv_timer_t.self)
    private var body: (() -> Void)?
    private var closing = false

    /// Creates an idle timer on `loop`.
    public init(loop: EventLoop) {
        loop.assertInLoopThread()
        self.loop = loop
        uvMustSucceed(uv_timer_init(loop.rawLoop, handle), "uv_timer_init")
        retainOwner(self, in: asHandle(handle))
        loop.register(self)
    }

    deinit {
        handle.deallocate()
    }

    /// Runs `body` once, `ms` milliseconds after the loop's cached time (`nowMilliseconds`), replacing any previous
    /// schedule. Ignored after `close()`.
    public func schedule(afterMilliseconds ms: UInt64, _ body: @escaping () -> Void) {
        loop.assertInLoopThread()
        guard !closing else { return }
        self.body = body
        uvMustSucceed(
            uv_timer_start(
                handle,
                { timer in
                    owner(of: asHandle(timer!), as: LoopTimer.self).fire()
                }, ms, 0), "uv_timer_start")
    }

    /// Disarms the timer; the pending body, if any, will not run.
    public func cancel() {
        loop.assertInLoopThread()
        guard !closing else { return }
        body = nil
        uvMustSucceed(uv_timer_stop(handle), "uv_timer_stop")
    }

    /// True while a body is scheduled.
    public var isScheduled: Bool {
        !closing && uv_is_active(asHandle(handle)) != 0
    }

    /// Disarms and closes the timer; it cannot be scheduled again.
    public func close() {
        loop.assertInLoopThread()
        closeFromLoop()
    }

    private func fire() {
        let body = self.body
        self.body = nil
        body?()
    }

    func closeFromLoop() {
        guard !closing else { return }
        closing = true
        body = nil
        uv_close(asHandle(handle)) { handle in
            let timer = releaseOwner(of: handle, as: LoopTimer.self)
            timer.loop.unregister(timer)
        }
    }
}
