// Subscribed counts: `queries.count` and `mutations.count` with `subscribe: true` (TanStack's
// useIsFetching / useIsMutating). Each watch remembers what it counts, for which connection, and
// the count its client last got; the server recounts once per flush and pushes `count.changed` when
// a count moved, so the changes of one loop turn reach the client as one push with the latest count.

import QuerydCore
import QuerydJSON
import QuerydRPC

/// What a count watch counts.
enum CountedSet {
    case queries(QueryFilter)
    case mutations(MutationFilter)
}

/// The count watches of every connection, by subscription id (an id space of their own).
struct CountWatches {
    struct Watch {
        let connection: ConnectionID
        let counted: CountedSet
        var lastCount: Int
    }

    private var lastID = 0
    private(set) var watches: [Int: Watch] = [:]

    var isEmpty: Bool { watches.isEmpty }

    /// Starts a watch whose client holds `count`; returns its subscription id.
    mutating func add(_ counted: CountedSet, connection: ConnectionID, count: Int) -> Int {
        lastID += 1
        watches[lastID] = Watch(connection: connection, counted: counted, lastCount: count)
        return lastID
    }

    /// Ends watch `id` of `connection`; false when it has no such watch.
    mutating func remove(_ id: Int, connection: ConnectionID) -> Bool {
        guard watches[id]?.connection == connection else { return false }
        watches[id] = nil
        return true
    }

    /// Ends every watch of a closed connection.
    mutating func removeAll(of connection: ConnectionID) {
        watches = watches.filter { $0.value.connection != connection }
    }

    /// Records the count sent for watch `id`.
    mutating func sent(_ count: Int, for id: Int) {
        watches[id]?.lastCount = count
    }
}

extension Server {
    /// The current size of a counted set.
    func count(_ counted: CountedSet) -> Int {
        switch counted {
        case .queries(let filter): cache.count(filter)
        case .mutations(let filter): mutations.list(filter).count
        }
    }

    /// Recounts every watch and queues `count.changed {subscription, count}` where a count moved
    /// (in subscription order). Called by `flush` while any watch exists.
    func pushChangedCounts() {
        for (id, watch) in countWatches.watches.sorted(by: { $0.key < $1.key }) {
            let count = count(watch.counted)
            guard count != watch.lastCount, let session = session(for: watch.connection) else { continue }
            countWatches.sent(count, for: id)
            session.outbox.appendLine {
                RPCWriter.notification(
                    method: "count.changed",
                    params: ["subscription": .number(JSONNumber(id)), "count": .number(JSONNumber(count))], to: &$0)
            }
            markDirty(session)
        }
    }
}
