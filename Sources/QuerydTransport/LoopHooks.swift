// Loop-level handles: the before-sleep hook (uv_prepare_t) and signal watchers (uv_signal_t).
import CLibUV

/// The single `uv_prepare_t` of a loop, running every registered before-sleep body once per iteration.
final class BeforeSleepHook: LoopHandleOwner {
    private let loop: EventLoop
    private let handle = allocateZeroed(uv_prepare_t.self)
    private var closing = false
    /// The bodies to run, in registration order.
    var bodies: [() -> Void]

    init(loop: EventLoop, body: @escaping () -> Void) {
        self.loop = loop
        self.bodies = [body]
        uvMustSucceed(uv_prepare_init(loop.rawLoop, handle), "uv_prepare_init")
        retainOwner(self, in: asHandle(handle))
        loop.register(self)
        uvMustSucceed(
            uv_prepare_start(handle) { prepare in
                owner(of: asHandle(prepare!), as: BeforeSleepHook.self).fire()
            }, "uv_prepare_start")
        uv_unref(asHandle(handle))
    }

    deinit {
        handle.deallocate()
    }

    private func fire() {
        var index = 0
        while index < bodies.count {
            bodies[index]()
            index += 1
        }
    }

    func closeFromLoop() {
        guard !closing else { return }
        closing = true
        uv_close(asHandle(handle)) { handle in
            let hook = releaseOwner(of: handle, as: BeforeSleepHook.self)
            hook.loop.unregister(hook)
        }
    }
}

/// One `uv_signal_t` watching a signal number and calling a handler on the loop thread.
final class SignalWatcher: LoopHandleOwner {
    private let loop: EventLoop
    private let handle: UnsafeMutablePointer<uv_signal_t>
    private let handler: () -> Void
    private var closing = false

    /// Takes over an initialised signal handle.
    private init(loop: EventLoop, handle: UnsafeMutablePointer<uv_signal_t>, handler: @escaping () -> Void) {
        self.loop = loop
        self.handle = handle
        self.handler = handler
        retainOwner(self, in: asHandle(handle))
        loop.register(self)
    }

    deinit {
        handle.deallocate()
    }

    /// Starts watching `signum`; on failure the handle is closed again and the error returned.
    static func start(loop: EventLoop, signum: Int32, handler: @escaping () -> Void) -> TransportError? {
        let handle = allocateZeroed(uv_signal_t.self)
        if let failure = uvFailure(uv_signal_init(loop.rawLoop, handle), "uv_signal_init") {
            handle.deallocate()
            return failure
        }
        let watcher = SignalWatcher(loop: loop, handle: handle, handler: handler)
        let status = uv_signal_start(
            watcher.handle,
            { signal, _ in
                owner(of: asHandle(signal!), as: SignalWatcher.self).handler()
            }, signum)
        if let failure = uvFailure(status, "uv_signal_start \(signum)") {
            watcher.closeFromLoop()
            return failure
        }
        uv_unref(asHandle(watcher.handle))
        return nil
    }

    func closeFromLoop() {
        guard !closing else { return }
        closing = true
        uv_close(asHandle(handle)) { handle in
            let watcher = releaseOwner(of: handle, as: SignalWatcher.self)
            watcher.loop.unregister(watcher)
        }
    }
}
