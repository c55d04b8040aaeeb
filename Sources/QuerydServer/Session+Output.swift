// A session's output: flushing what is queued to the transport, holding it while the peer has
// not read what was written before (where pushes coalesce), and closing a connection whose peer
// leaves too much unread, with a `$/closing` line.

import QuerydRPC

extension Session {
    /// Writes what is queued; closes when a close was requested. While the peer has not taken
    /// what was written before, new output stays here, where pushes coalesce (returns false then);
    /// past `maxOutboundBytes` of waiting output the connection is closed.
    @discardableResult
    func flush() -> Bool {
        guard !isClosed, !isClosing else { return true }
        let queued = transport.queuedWriteBytes
        if queued + outbox.queuedBytes > server.configuration.maxOutboundBytes {
            abortUnread()
            return true
        }
        if !outbox.isEmpty {
            guard queued <= server.configuration.outboundHoldBytes else { return false }
            if var line = outbox.take(orEncodeInto: &server.outputScratch) {
                transport.write(line)
                outbox.recycle(&line)
            } else {
                transport.write(server.outputScratch)
                // Capacity is kept for the next flush, unless a burst made it large.
                server.outputScratch.removeAll(keepingCapacity: server.outputScratch.capacity <= 1 << 20)
            }
        }
        if closeRequested {
            isClosing = true
            transport.closeAfterWrites()
        }
        return true
    }

    /// Closes a connection whose peer leaves its output unread past the limit, with a log line.
    /// Its unwritten output (queued replies, coalesced pushes) is dropped to make room for a
    /// `$/closing` line, which follows what the socket's queue already holds (see
    /// `SessionTransport.abort(finalLine:)`).
    func abortUnread() {
        guard !isClosing else { return }
        let limit = server.configuration.maxOutboundBytes
        let reason = "\(pendingOutputBytes) bytes of output unread (limit --max-outbound-bytes \(limit))"
        server.logger.warning("closing connection \(connection): \(reason)")
        closeRequested = true
        isClosing = true
        outbox = Outbox()
        var line: [UInt8] = []
        Session.writeClosing(reason, limit: "max-outbound-bytes", to: &line)
        line.append(UInt8(ascii: "\n"))
        transport.abort(finalLine: line)
    }
}
