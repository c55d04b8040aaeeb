// The `query.set` fast path: a request line in the plain form `SetRequestScanner` recognises is
// written to the cache from the line's bytes (the key's text and the data's canonical encoding,
// which is the data's text itself unless object members need sorting, are stored as they are) and
// answered with the same reply as the general path, with no JSON values, strings or re-encoding
// made. Every other line (another form, data outside the plain subset, an infinite query, data
// over the limit, a clustered server, whose writes are published from their values) takes the
// general path; the fast path only skips work.

import QuerydCore
import QuerydRPC

extension Session {
    /// Writes and answers `line`, a plain `query.set` request (`request` its parts), when the fast
    /// path can take it; returns false, having done nothing visible, when it must take the general path.
    func answerPlainSet(_ request: SetRequestLine, line: UnsafeRawBufferPointer) -> Bool {
        let configuration = server.configuration
        // At shutdown every request gets the shutdown error, and a line reusing the id of a waiting
        // request is refused, both from the general path.
        guard !server.isShuttingDown, server.cluster == nil else { return false }
        if hasDeferredAnswers, reusesPendingID(request.id, in: line) { return false }
        assert(!receivedEOF, "the fast path runs only before the end of input, when no close is due")
        // The data fits `maxDataBytes` once written, which leaves the state's reply room within the
        // outbound limit; an id long enough to pass it anyway takes the general path, which refuses it.
        guard request.id.count < configuration.maxOutboundBytes - configuration.maxDataBytes - 1024 else {
            return false
        }
        let key = UnsafeRawBufferPointer(rebasing: line[request.key])
        // Each result is unwrapped where it is made (an optional result kept to unwrap later is
        // destroyed through the runtime's generic witness, which costs more than the unwrapping).
        let result: WrittenState
        if request.dataIsCanonical {
            // The server keeps its cache alive, so the call needs no reference of its own.
            assert(unretainedCache.takeUnretainedValue() === server.cache, "the unretained cache is the server's")
            let data = UnsafeRawBufferPointer(rebasing: line[request.data])
            guard
                let written = unretainedCache._withUnsafeGuaranteedRef({
                    $0.set(canonicalKey: key, encodedData: data)
                })
            else { return false }
            result = written
        } else {
            // Objects with their members in another order: the data is written sorted first.
            keyScratch.removeAll(keepingCapacity: true)
            guard request.appendCanonicalData(from: line, maxDepth: configuration.maxDepth, to: &keyScratch),
                let written = keyScratch.withUnsafeBytes({ server.cache.set(canonicalKey: key, encodedData: $0) })
            else { return false }
            result = written
        }
        server.counters.requests[server.methods.querySetIndex] &+= 1
        // As in the general path: subscriptions of this connection with `echo: false` are not
        // pushed this change (its pushes are queued once the effects are applied).
        server.applyEffects()
        outbox.dropEchoes(ofWriteTo: result.key)
        outbox.appendLine { out in
            let before = out.count
            let id = UnsafeRawBufferPointer(rebasing: line[request.id])
            // The commonest state is written with the envelope in one pass over the line's free
            // capacity (the head's room counts its closing brace, written as the tail).
            let head = RPCWriter.resultFramingByteCount + id.count
            let plain = result.appendPlainState(to: &out, headRoom: head, tail: UInt8(ascii: "}")) {
                RPCWriter.writeResultHead(rawID: id, at: $0)
            }
            if !plain {
                out.append(addingCapacity: head - 1) { span in
                    span.withUnsafeMutableBufferPointer { buffer, initialized in
                        // Safety: `head - 1` bytes are free from `initialized` on, and the envelope's
                        // head (without its closing brace) takes exactly that.
                        let start = buffer.baseAddress! + initialized
                        initialized += RPCWriter.writeResultHead(rawID: id, at: start) - start
                    }
                }
                result.write(to: &out)
                out.append(UInt8(ascii: "}"))
            }
            // Pipelined writes come alike: room for replies of this size to the rest of the read
            // (and the slack the state's writer asks for) is made at once, rather than the line of
            // replies doubling several times per read.
            let reply = out.count - before + 1
            if out.capacity - out.count < reply + QueryResult.writeRoomSlack {
                out.reserveCapacity(out.count + reply * linesLeft(after: line) + QueryResult.writeRoomSlack)
            }
        }
        return true
    }
}
