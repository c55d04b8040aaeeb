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
            let answer = unretainedCache._withUnsafeGuaranteedRef({
                Session.cachedAnswer(request, line: line, cache: $0, scratch: &keyScratch)
            })
        else { return false }
        outbox.appendLine { out in
            // The reply's envelope is 34 bytes with its newline; a little more is room to spare.
            let reply = 40 + request.id.count + answer.count
            if out.capacity - out.count < reply {
                out.reserveCapacity(out.count + reply * linesLeft(after: line))
            }
            RPCWriter.result(rawID: UnsafeRawBufferPointer(rebasing: line[request.id]), encodedResult: answer, to: &out)
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

    /// The `query.get` answer of the key in `request`, if its query has data. `scratch` holds the
    /// key's canonical bytes for the lookup (kept, so its storage is reused line after line).
    private static func cachedAnswer(
        _ request: GetRequestLine, line: UnsafeRawBufferPointer, cache: QueryCache, scratch: inout [UInt8]
    ) -> [UInt8]? {
        scratch.removeAll(keepingCapacity: true)
        request.appendCanonicalKey(from: line, to: &scratch)
        return cache.getAnswer(canonicalKeyBytes: scratch)
    }
}
