// A mailbox into the loop from other threads (uv_async_t): any thread posts a message, and the
// loop thread receives every posted message, in order, in its next iteration.
import CLibUV
import Synchronization

/// Delivers messages posted from any thread to a handler on the loop thread. Posts made after the
/// inbox closed (or the loop closed it) are dropped. The inbox does not keep the loop alive.
public final class LoopInbox<Message: Sendable> {
    /// Posts messages to the inbox; may be copied to and used from any thread.
    public struct Sender: Sendable {
        fileprivate let mailbox: Mailbox<Message>

        /// Queues `message` and wakes the loop. Thread-safe; a no-op once the inbox closed.
        public func post(_ message: Message) {
            mailbox.state.withLock { state in
                guard let handle = state.handle else { return }
                state.messages.append(message)
                // uv_async_send is the one libuv call documented as safe from any thread; the handle
                // stays valid while it is in `state` (closing clears it under this lock first).
                uv_async_send(handle)
            }
        }
    }

    private let wakeup: AsyncWakeup
    private let mailbox: Mailbox<Message>

    /// Creates the inbox on `loop`; `handler` runs on the loop thread for each message.
    public init(loop: EventLoop, handler: @escaping (Message) -> Void) {
        let mailbox = Mailbox<Message>()
        self.mailbox = mailbox
        wakeup = AsyncWakeup(loop: loop, handle: mailbox.handle) {
            for message in mailbox.take() { handler(message) }
        }
        wakeup.onClose = { mailbox.close() }
    }

    /// A sender for other threads.
    public var sender: Sender { Sender(mailbox: mailbox) }

    /// Stops delivery; later posts are dropped.
    public func close() {
        wakeup.close()
    }
}

/// The state shared between an inbox and its senders.
final class Mailbox<Message: Sendable>: Sendable {
    struct State {
        /// The async handle while the inbox is open.
        var handle: UnsafeMutablePointer<uv_async_t>?
        var messages: [Message] = []

        init(handle: UnsafeMutablePointer<uv_async_t>) { self.handle = handle }
    }

    /// Made here (allocated, not yet initialised) so senders and the wakeup share it from the start;
    /// the wakeup initialises it and frees it after its close callback.
    let state = Mutex(State(handle: allocateZeroed(uv_async_t.self)))

    /// The async handle (read before any close).
    var handle: UnsafeMutablePointer<uv_async_t> { state.withLock { $0.handle! } }

    func take() -> [Message] {
        state.withLock { state in
            let taken = state.messages
            state.messages.removeAll()
            return taken
        }
    }

    func close() {
        state.withLock { state in
            state.handle = nil
            state.messages.removeAll()
        }
    }
}

/// The `uv_async_t` of an inbox: calls `onWake` on the loop thread after any number of sends.
final class AsyncWakeup: LoopHandleOwner {
    private let loop: EventLoop
    let handle: UnsafeMutablePointer<uv_async_t>
    private let onWake: () -> Void
    /// Runs first thing when the handle starts closing, before libuv can free anything.
    var onClose: (() -> Void)?
    private var closing = false

    /// Initialises `handle` (zeroed memory this object frees after the close callback).
    init(loop: EventLoop, handle: UnsafeMutablePointer<uv_async_t>, onWake: @escaping () -> Void) {
        loop.assertInLoopThread()
        self.loop = loop
        self.handle = handle
        self.onWake = onWake
        uvMustSucceed(
            uv_async_init(loop.rawLoop, handle) { async in
                owner(of: asHandle(async!), as: AsyncWakeup.self).onWake()
            }, "uv_async_init")
        retainOwner(self, in: asHandle(handle))
        loop.register(self)
        uv_unref(asHandle(handle))
    }

    deinit {
        handle.deallocate()
    }

    func close() {
        loop.assertInLoopThread()
        closeFromLoop()
    }

    func closeFromLoop() {
        guard !closing else { return }
        closing = true
        onClose?()
        uv_close(asHandle(handle)) { handle in
            let wakeup = releaseOwner(of: handle, as: AsyncWakeup.self)
            wakeup.loop.unregister(wakeup)
        }
    }
}
