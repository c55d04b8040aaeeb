// Closing with a last word: a connection closed for a limit is told why in one final line, which
// goes out behind the bytes already queued; a peer that does not take them within a grace period
// is cut off (the queued bytes, the final line among them, are dropped).
import CLibUV

extension StreamConnection {
    /// Writes `line` after everything queued, shuts the write side once it is all sent, and
    /// closes; if the peer has not taken it all within `graceMilliseconds`, closes at once,
    /// dropping what is still queued. Reading stops now.
    public func closeAfterFinalLine(_ line: [UInt8], graceMilliseconds: UInt64) {
        loop.assertInLoopThread()
        guard !isClosed, !isShuttingDown else { return }
        write(line)
        let waiting = !isClosed && writeQueueSize > 0
        closeAfterWrites()
        guard waiting else { return }
        let timer = LoopTimer(loop: loop)
        // The timer holds the connection until it fires; closing an already closed connection does nothing.
        timer.schedule(afterMilliseconds: graceMilliseconds) { [self] in
            timer.close()
            close(reason: nil)
        }
    }
}
