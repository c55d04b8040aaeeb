// Telling a full close from a half-close. Both reach the reader as EOF; on a Unix stream socket a
// peer that only shut its write side (shutdown(SHUT_WR)) still reads, while a peer that closed
// its socket is gone, and the kernel then reports POLLHUP on ours (both directions shut).
import CLibUV
import Glibc

extension StreamConnection {
    /// Whether the peer has closed its socket entirely (not only its write side). A non-blocking
    /// `poll` of the socket asking for no event: POLLHUP and POLLERR are reported anyway.
    public var peerHasHungUp: Bool {
        var descriptor: uv_os_fd_t = -1
        guard !isClosed, uv_fileno(asHandle(pipe), &descriptor) == 0 else { return false }
        var poller = pollfd(fd: descriptor, events: 0, revents: 0)
        return poll(&poller, 1, 0) == 1 && poller.revents & Int16(POLLHUP | POLLERR) != 0
    }

    /// After EOF: calls `hungUp` once the peer has closed entirely, checking now and then every
    /// `intervalMilliseconds` until it has or this connection closes (a half-closed peer may
    /// close later). The timer holds the connection until then.
    public func watchForHangup(intervalMilliseconds: UInt64, _ hungUp: @escaping () -> Void) {
        loop.assertInLoopThread()
        guard !isClosed else { return }
        if peerHasHungUp {
            hungUp()
            return
        }
        let timer = LoopTimer(loop: loop)
        func check() {
            if isClosed {
                timer.close()
            } else if peerHasHungUp {
                timer.close()
                hungUp()
            } else {
                timer.schedule(afterMilliseconds: intervalMilliseconds, check)
            }
        }
        timer.schedule(afterMilliseconds: intervalMilliseconds, check)
    }
}
