// The `query.get` fast path: a request line in the plain form `GetRequestScanner` recognises, for
// a cached query with data, is answered straight from the line's bytes and the query's encoded
// answer, with no JSON values, strings or reply object built. Every other line (a miss, a query
// without data, another method or form) takes the general path, which gives the same reply for
// a hit; the fast path only skips work.
//
// The invariants it relies on are checked in debug builds (`assert`), where they are cheap enough:
// the connection has not seen its end of input (so no close needs checking), the unretained cache
// is the server's, and a remembered query that still has data is the one its key text looks up.

import QuerydCore
import QuerydJSON
import QuerydRPC

extension Session {
    /// Whether the id at `range` of `line` (a JSON number or string) is a waiting request's.
    func reusesPendingID(_ range: Range<Int>, in line: UnsafeRawBufferPointer) -> Bool {
        guard let value = try? JSONParser.parse(UnsafeRawBufferPointer(rebasing: line[range]), maxDepth: 1),
            let id = RPCID(jsonValue: value)
        else { return true }
        return isPending(id)
    }

    /// Answers `line` when it is a plain `query.get` request whose query has data; returns false,
    /// having done nothing visible, when the line must take the general path.
    ///
    /// Unlike a general-path answer this does not check whether the connection may now close:
    /// lines are handled here only before the peer's end of input is seen, when it may not.
    ///
    /// A plain `query.set` line is found by the same scan, and its parts put in `setRequest`.
    func answerCachedGet(_ line: UnsafeRawBufferPointer, orFindSet setRequest: inout SetRequestLine?) -> Bool {
        // At shutdown every request gets the shutdown error, and a line reusing the id of a waiting
        // request is refused, both from the general path.
        guard !server.isShuttingDown, let request = scanGet(line, orFindSet: &setRequest) else { return false }
        if hasDeferredAnswers, reusesPendingID(request.id, in: line) { return false }
        assert(!receivedEOF, "the fast path runs only before the end of input, when no close is due")
        assert(unretainedCache.takeUnretainedValue() === server.cache, "the unretained cache is the server's")
        let query: Query
        let answerBytes: Int
        // The remembered query answers when the line has its key text and the query still has
        // data and is still cached (one call checks both); otherwise the key is looked up.
        if request.isKnownKey, let last = lastGetQuery, let bytes = last.getAnswerByteCount {
            assert(isCurrent(last, of: request, line: line), "the same key text is the same cached query")
            query = last
            answerBytes = bytes
        } else {
            guard
                let found = unretainedCache._withUnsafeGuaranteedRef({
                    Session.cachedQuery(request, line: line, cache: $0, scratch: &keyScratch)
                }),
                let bytes = found.getAnswerByteCount
            else { return false }
            rememberGet(found, request, line: line)
            query = found
            answerBytes = bytes
        }
        // A reply that could not fit the outbound limit takes the general path, which refuses it.
        guard answerBytes + request.id.count < server.configuration.maxOutboundBytes - 64 else { return false }
        outbox.appendLine { out in
            let room = RPCWriter.resultFramingByteCount + request.id.count + answerBytes
            if out.capacity - out.count < room {
                out.reserveCapacity(out.count + room * linesLeft(after: line))
            }
            // The reply is written in one pass over the line's free capacity: envelope, answer, brace.
            out.append(addingCapacity: room) { span in
                span.withUnsafeMutableBufferPointer { buffer, initialized in
                    // Safety: `room` bytes are free from `initialized` on, and the reply takes at
                    // most that (`getAnswerByteCount` is the answer's upper bound).
                    let start = buffer.baseAddress! + initialized
                    let id = UnsafeRawBufferPointer(rebasing: line[request.id])
                    let answer = RPCWriter.writeResultHead(rawID: id, at: start)
                    let end = RPCWriter.writeResultTail(at: query.writeGetAnswer(at: answer))
                    assert(end - start <= room, "the reply fits the room set aside for it")
                    initialized += end - start
                }
            }
        }
        return true
    }

    /// About how many lines of `line`'s length are left in the bytes being received, from `line`
    /// on (at least 1): pipelined requests come alike, so the line of replies grows once per read
    /// rather than doubling reply after reply.
    func linesLeft(after line: UnsafeRawBufferPointer) -> Int {
        guard let start = line.baseAddress, let readStart = currentRead.baseAddress, line.count > 0 else { return 1 }
        let readEnd = readStart + currentRead.count
        guard start >= readStart, start < readEnd else { return 1 }
        return max(1, (readEnd - start) / line.count)
    }

    /// Scans `line` as a `query.get` request, telling the scanner the key text of the last one
    /// answered here (a line with the same key text is not scanned again: `isKnownKey`); a plain
    /// `query.set` line's parts are put in `setRequest`.
    private func scanGet(_ line: UnsafeRawBufferPointer, orFindSet setRequest: inout SetRequestLine?)
        -> GetRequestLine?
    {
        let maxDepth = server.configuration.maxDepth
        guard lastGetQuery != nil else { return RequestLineScanner.scan(line, maxDepth: maxDepth, set: &setRequest) }
        return lastGetKeyText.withUnsafeBytes {
            RequestLineScanner.scan(line, maxDepth: maxDepth, knownKey: $0, set: &setRequest)
        }
    }

    /// Remembers `query` as the query of `request`'s key text (short compact keys only: the text
    /// is kept, and given to the scanner as a key it accepted).
    private func rememberGet(_ query: Query, _ request: GetRequestLine, line: UnsafeRawBufferPointer) {
        guard request.keyIsCompact, request.key.count <= Session.rememberedKeyLimit else {
            lastGetQuery = nil
            return
        }
        lastGetKeyText.removeAll(keepingCapacity: true)
        lastGetKeyText.append(contentsOf: UnsafeRawBufferPointer(rebasing: line[request.key]))
        lastGetQuery = query
    }

    /// Whether `query` is the cached query of `request`'s key (the debug check of `lastGetQuery`).
    private func isCurrent(_ query: Query, of request: GetRequestLine, line: UnsafeRawBufferPointer) -> Bool {
        var scratch: [UInt8] = []
        return Session.cachedQuery(request, line: line, cache: server.cache, scratch: &scratch) === query
    }

    /// The longest key text remembered by `rememberGet`.
    private static let rememberedKeyLimit = 256

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
