// Attempts crossing nodes (fetch or mutate): those of this node's engine sent to another node's
// fetcher or mutator, and those other nodes forwarded here, each sent to a local fetcher or mutator
// under an attempt id the engine never makes (negative), so its answer is relayed back rather than
// settling anything here.

import QuerydCore

/// The forwarded attempts of one kind in flight, both ways; plain values, no I/O.
struct ClusterForwards<Attempt: Hashable> {
    /// An attempt another node forwarded here.
    struct Incoming {
        let origin: String
        /// The origin's id for it (its engine's attempt id).
        let id: Int
        /// The local fetcher's or mutator's connection.
        let connection: ConnectionID
    }

    /// This engine's attempts sent to other nodes: the node serving each.
    var outgoing: [Attempt: String] = [:]
    /// Attempts forwarded here, by the attempt id their local request carries.
    private(set) var incoming: [Attempt: Incoming] = [:]
    private var lastIncoming = 0
    /// The attempt id type's initialiser.
    private let makeAttempt: (Int) -> Attempt

    init(_ makeAttempt: @escaping (Int) -> Attempt) {
        self.makeAttempt = makeAttempt
    }

    /// Records an attempt forwarded here; returns the id to send it to the local fetcher or mutator under.
    mutating func accept(_ forwarded: Incoming) -> Attempt {
        lastIncoming -= 1
        let attempt = makeAttempt(lastIncoming)
        incoming[attempt] = forwarded
        return attempt
    }

    mutating func finish(_ attempt: Attempt) -> Incoming? {
        incoming.removeValue(forKey: attempt)
    }

    /// The local attempt of `origin`'s forwarded attempt `id`.
    func attempt(origin: String, id: Int) -> Attempt? {
        incoming.first { $0.value.origin == origin && $0.value.id == id }?.key
    }

    /// Forgets the attempts forwarded here whose local connection closed; returns them.
    mutating func finishAll(on connection: ConnectionID) -> [Incoming] {
        let lost = incoming.filter { $0.value.connection == connection }
        for attempt in lost.keys { incoming[attempt] = nil }
        return Array(lost.values)
    }

    /// Forgets the attempts sent to `node`.
    mutating func forget(node: String) {
        outgoing = outgoing.filter { $0.value != node }
    }
}
