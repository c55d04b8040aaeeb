// The read budget: one read buffer (16 KB) per connection per loop turn, so one busy connection cannot keep the
// loop from the others.
//
// libuv reads a stream up to 32 times per loop iteration while each read fills its buffer (`uv__read`,
// src/unix/stream.c), so a peer that keeps megabytes of pipelined requests in flight had all of them handled
// before the loop polled any other connection. A connection whose read filled the slab records the loop's read
// turn; asked for another buffer in the same turn, its alloc callback gives an empty one, on which libuv ends the
// stream's reads (`UV_ENOBUFS`) without stopping them: the socket stays watched, and the next poll reports it
// again together with every other ready connection. This check handle moves the turn on after the poll phase.
import CLibUV

/// The loop's `uv_check_t` that moves `EventLoop.readTurn` on after a poll phase in which a connection spent its
/// read budget; active only then.
final class ReadTurnEnd: LoopHandleOwner {
    private let loop: EventLoop
    private let handle = allocateZeroed(uv_check_t.self)
    private var closing = false
    private var armed = false

    init(loop: EventLoop) {
        self.loop = loop
        uvMustSucceed(uv_check_init(loop.rawLoop, handle), "uv_check_init")
        retainOwner(self, in: asHandle(handle))
        loop.register(self)
    }

    deinit {
        handle.deallocate()
    }

    /// Ends the read turn once this turn's poll phase is over.
    func arm() {
        guard !closing, !armed else { return }
        armed = true
        uvMustSucceed(
            uv_check_start(handle) { check in
                owner(of: asHandle(check!), as: ReadTurnEnd.self).endTurn()
            }, "uv_check_start")
    }

    private func endTurn() {
        armed = false
        loop.readTurn &+= 1
        uvMustSucceed(uv_check_stop(handle), "uv_check_stop")
    }

    func closeFromLoop() {
        guard !closing else { return }
        closing = true
        uv_close(asHandle(handle)) { handle in
            let end = releaseOwner(of: handle, as: ReadTurnEnd.self)
            end.loop.unregister(end)
        }
    }
}
