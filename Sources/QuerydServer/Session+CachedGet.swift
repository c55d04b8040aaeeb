// The `query.get` fast path: a request line in the plain form `GetRequestScanner` recognises, for
// a cached query with data, is answered straight from the line's bytes and the query's encoded
// answer, with no JSON values, strings or reply object built. Every other line (a miss, a query
// without data, another method or form) takes the general path, which gives the same reply for
// a hit; the fast path only skips work.

import QuerydCore
import QuerydRPC

extension Session {
    /// Answers `line` when it is a plain `query.get` request whose query has data; returns false,
    /// having done nothing visible, when the line must take the general path.
    ///
    /// Unlike a general-path answer this does not check whether the connection may now close:
    /// lines are handled here only before the peer's end of input is seen, when it may not.
    func answerCachedGet(_ line: UnsafeRawBufferPointer) -> Bool {
        // At shutdown every request gets the shutdown error, from the general path.
        guard !server.isShuttingDown,
            let request = GetRequestScanner.scan(line, maxDepth: server.configuration.maxDepth),
            let query = unretainedCache._withUnsafeGuaranteedRef({
                Session.cachedQuery(request, line: line, cache: $0, scratch: &keyScratch)
            }),
            let answerBytes = query.getAnswerByteCount
        else { return false }
        outbox.appendLine { out in
            // The reply's envelope is 34 bytes with its newline; a little more is room to spare.
            let reply = 40 + request.id.count + answerBytes
            if out.capacity - out.count < reply {
                out.reserveCapacity(out.count + reply * linesLeft(after: line))
            }
            // The query has data (checked above), so the answer is always written.
            _ = RPCWriter.result(
                rawID: UnsafeRawBufferPointer(rebasing: line[request.id]), resultBytes: answerBytes, to: &out
            ) { query.writeGetAnswer(to: &$0) }
        }
        return true
    }

    /// About how many lines of `line`'s length are left in the bytes being received, from `line`
    /// on (at least 1): pipelined requests come alike, so the line of replies grows once per read
    /// rather than doubling reply after reply.
    private func linesLeft(after line: UnsafeRawBufferPointer) -> Int {
        guard let start = line.baseAddress, let readStart = currentRead.baseAddress, line.count > 0 else { return 1 }
        let readEnd = readStart + currentRead.count
        guard start >= readStart, start < readEnd else { return 1 }
        return max(1, (readEnd - start) / line.count)
    }

    /// The cached query of the key in `request`. `scratch` holds the key's canonical bytes for the
    /// lookup (kept, so its storage is reused line after line).
    private static func cachedQuery(
        _ request: GetRequestLine, line: UnsafeRawBufferPointer, cache: QueryCache, scratch: inout [UInt8]
    ) -> Query? {
        scratch.removeAll(keepingCapacity: true)
        request.appendCanonicalKey(from: line, to: &scratch)
        return cache.query(canonicalKeyBytes: scratch)
    }
}
