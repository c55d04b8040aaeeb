// The server-to-client requests of one connection: their ids, and the attempt each carries, both
// ways. The one place where fetch and mutate attempts are mapped to requests; the session sends
// and withdraws the requests and routes their answers to the engine that made the attempt.

import QuerydCore

/// What a server-to-client request asks for: the answer to one fetch or mutate attempt.
enum OutgoingAttempt: Hashable {
    case fetch(AttemptID)
    case mutate(MutationAttemptID)
}

/// The requests this server sent to one client and still waits to hear from.
struct OutgoingRequests {
    private var lastID = 0
    // Sharded: a fetcher may receive 200,000 requests in one turn (ShardedDictionary.swift).
    private var attemptByRequest = ShardedDictionary<Int, OutgoingAttempt>()
    private var requestByAttempt = ShardedDictionary<OutgoingAttempt, Int>()

    /// How many requests wait for an answer.
    var count: Int { attemptByRequest.count }

    /// A new request id for `attempt`, remembered until the answer comes or it is withdrawn.
    mutating func open(_ attempt: OutgoingAttempt) -> Int {
        lastID += 1
        attemptByRequest[lastID] = attempt
        requestByAttempt[attempt] = lastID
        return lastID
    }

    /// The attempt request `id` carries, if it still waits (for `fetch.progress`).
    func attempt(forRequest id: Int) -> OutgoingAttempt? { attemptByRequest[id] }

    /// An answer came for request `id`: forgets it and returns its attempt (nil for an unknown or
    /// already answered id).
    mutating func answered(_ id: Int) -> OutgoingAttempt? {
        guard let attempt = attemptByRequest.removeValue(forKey: id) else { return nil }
        requestByAttempt[attempt] = nil
        return attempt
    }

    /// `attempt`'s answer is no longer wanted: forgets its request and returns its id (nil when
    /// no request of this connection carries it).
    mutating func withdraw(_ attempt: OutgoingAttempt) -> Int? {
        guard let id = requestByAttempt.removeValue(forKey: attempt) else { return nil }
        attemptByRequest[id] = nil
        return id
    }

    /// Forgets every request (the connection closed); ids are not reused.
    mutating func removeAll() {
        attemptByRequest = ShardedDictionary()
        requestByAttempt = ShardedDictionary()
    }
}
