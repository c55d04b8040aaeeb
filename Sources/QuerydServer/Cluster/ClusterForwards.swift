// Fetches crossing nodes: the attempts of this node's engine sent to another node's fetcher, and
// the fetches other nodes forwarded here, each sent to a local fetcher under an attempt id the
// engine never makes (negative), so its answer is relayed back rather than settling anything here.

import QuerydCore

/// The forwarded fetches in flight, both ways; plain values, no I/O.
struct ClusterForwards {
    /// A fetch another node forwarded here.
    struct Incoming {
        let origin: String
        /// The origin's id for it (its engine's attempt id).
        let id: Int
        /// The local fetcher's connection.
        let connection: ConnectionID
    }

    /// This engine's attempts sent to other nodes: the node serving each.
    var outgoing: [AttemptID: String] = [:]
    /// Fetches forwarded here, by the attempt id their local request carries.
    private(set) var incoming: [AttemptID: Incoming] = [:]
    private var lastIncoming = 0

    /// Records a fetch forwarded here; returns the attempt id to send it to the local fetcher under.
    mutating func accept(_ fetch: Incoming) -> AttemptID {
        lastIncoming -= 1
        let attempt = AttemptID(lastIncoming)
        incoming[attempt] = fetch
        return attempt
    }

    mutating func finish(_ attempt: AttemptID) -> Incoming? {
        incoming.removeValue(forKey: attempt)
    }

    /// The local attempt of `origin`'s forwarded fetch `id`.
    func attempt(origin: String, id: Int) -> AttemptID? {
        incoming.first { $0.value.origin == origin && $0.value.id == id }?.key
    }

    /// Forgets the fetches forwarded here whose local fetcher's connection closed; returns them.
    mutating func finishAll(on connection: ConnectionID) -> [Incoming] {
        let lost = incoming.filter { $0.value.connection == connection }
        for attempt in lost.keys { incoming[attempt] = nil }
        return Array(lost.values)
    }
}
