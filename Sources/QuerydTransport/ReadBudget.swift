// The read budget: one read buffer per connection per loop turn, so one busy connection cannot keep the
// loop from the others.
//
// libuv reads a stream up to 32 times (64 KB each) per loop iteration while each read fills its buffer
// (`uv__read`, src/unix/stream.c), so a peer that keeps megabytes of pipelined requests in flight had all of
// them handled before the loop polled any other connection. A connection whose read filled the slab stops
// reading (`uv_read_stop` ends libuv's loop over it) and is resumed by this check handle, right after the
// poll phase: the next poll reads it again together with every other ready connection.
import CLibUV

/// The loop's `uv_check_t` that resumes the connections paused for their turn's budget; active only while
/// one waits.
final class ReadResumer: LoopHandleOwner {
    private let loop: EventLoop
    private let handle = allocateZeroed(uv_check_t.self)
    private var closing = false
    private var waiting: [StreamConnection] = []

    init(loop: EventLoop) {
        self.loop = loop
        uvMustSucceed(uv_check_init(loop.rawLoop, handle), "uv_check_init")
        retainOwner(self, in: asHandle(handle))
        loop.register(self)
    }

    deinit {
        handle.deallocate()
    }

    /// Resumes `connection` after this turn's poll phase.
    func resumeAfterPoll(_ connection: StreamConnection) {
        guard !closing else { return }
        if waiting.isEmpty {
            uvMustSucceed(
                uv_check_start(handle) { check in
                    owner(of: asHandle(check!), as: ReadResumer.self).resumeAll()
                }, "uv_check_start")
        }
        waiting.append(connection)
    }

    private func resumeAll() {
        let resumed = waiting
        waiting = []
        uvMustSucceed(uv_check_stop(handle), "uv_check_stop")
        for connection in resumed { connection.resumeAfterBudget() }
    }

    func closeFromLoop() {
        guard !closing else { return }
        closing = true
        waiting = []
        uv_close(asHandle(handle)) { handle in
            let resumer = releaseOwner(of: handle, as: ReadResumer.self)
            resumer.loop.unregister(resumer)
        }
    }
}
