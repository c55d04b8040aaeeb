// The client requests of one connection that are answered later (waiting on the cache), by id:
// what `$/cancelRequest` finds, what shutdown fails, and what makes a reused id a duplicate.
//
// Bookkeeping only: no method answers a reply or calls out, so the session may answer replies
// (which come back to `finish`) while it is not inside one of these methods.

import QuerydRPC

/// The waiting client requests of one connection, by request id.
struct DeferredReplies {
    private var byID: [RPCID: PendingReply] = [:]

    /// Whether no request waits (read for every `query.get` on the fast path).
    var isEmpty: Bool { byID.isEmpty }

    /// How many requests wait.
    var count: Int { byID.count }

    /// The waiting request with this id.
    subscript(id: RPCID) -> PendingReply? { byID[id] }

    /// Whether the request with this id waits (its id is in use until it is answered).
    func contains(_ id: RPCID) -> Bool { byID[id] != nil }

    /// Adds `reply` under `id` unless `limit` requests wait already (a reply replacing the one
    /// under its own id is always added); returns whether it was added.
    mutating func add(_ reply: PendingReply, id: RPCID, limit: Int) -> Bool {
        if byID.count >= limit, byID[id] == nil { return false }
        byID[id] = reply
        return true
    }

    /// Forgets `reply`, now answered, if it is the one waiting under its id.
    mutating func finish(_ reply: PendingReply) {
        if !byID.isEmpty, let id = reply.id, byID[id] === reply { byID[id] = nil }
    }

    /// Every waiting request (a copy: answering them changes this list).
    var all: [PendingReply] { Array(byID.values) }

    /// Forgets every waiting request, returning them.
    mutating func removeAll() -> [PendingReply] {
        let replies = all
        byID = [:]
        return replies
    }
}
