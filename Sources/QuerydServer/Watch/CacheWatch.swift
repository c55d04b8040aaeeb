// One `cache.watch` of a connection: which queries it sees, and the events waiting to be written
// to it, coalesced.
//
// Events wait here, not in the outbox, until the connection's output is below the slow-reader mark;
// while they wait, a newer event of the same query, the same query's fetch, the same registration
// or the same mutation takes the place of the older one (a query event's state is read when it is
// written, so it is always the latest). What waits is bounded by what the cache holds, however
// slowly the watcher reads.

import QuerydCore
import QuerydJSON

/// The events of one watch that are not written yet, one slot per thing they concern.
final class CacheWatch {
    /// What one waiting event concerns: events about the same thing coalesce.
    private enum Slot: Hashable {
        case query(QueryKey)
        case fetch(QueryKey)
        case registration(Registration.Role, Int)
        case mutation(MutationID)
    }

    let id: Int
    let connection: ConnectionID
    /// The queries it sees (`key` and `exact` of a filter; registrations and mutations it sees all).
    let filter: QueryFilter
    /// Whether query states carry their data.
    let withData: Bool
    private var events: [CacheEvent] = []
    private var slots: [Slot: Int] = [:]

    init(id: Int, connection: ConnectionID, filter: QueryFilter, withData: Bool) {
        self.id = id
        self.connection = connection
        self.filter = filter
        self.withData = withData
    }

    /// Whether events wait to be written.
    var hasEvents: Bool { !events.isEmpty }

    /// Whether the watch sees the query with `key`.
    func sees(_ key: QueryKey) -> Bool {
        guard let prefix = filter.key else { return true }
        return filter.exact ? key.elements == prefix : KeyMatching.matches(key, prefix: prefix)
    }

    /// Adds `event` (if the watch sees it), in place of a waiting event about the same thing.
    func add(_ event: CacheEvent) {
        let slot: Slot
        switch event {
        case .queryAdded(let query), .queryChanged(let query):
            guard sees(query.key) else { return }
            slot = .query(query.key)
        case .queryRemoved(let key):
            guard sees(key) else { return }
            slot = .query(key)
        case .fetchStarted(let key), .fetchSettled(let key, _):
            guard sees(key) else { return }
            slot = .fetch(key)
        case .registered(let registration), .unregistered(let registration):
            slot = .registration(registration.role, registration.id)
        case .mutationStarted(let state), .mutationSettled(let state):
            slot = .mutation(state.id)
        }
        guard let index = slots[slot] else {
            slots[slot] = events.count
            events.append(event)
            return
        }
        // A change of a query the watcher has not been told about yet is still its addition.
        if case .queryChanged(let query) = event, case .queryAdded = events[index] {
            events[index] = .queryAdded(query)
        } else {
            events[index] = event
        }
    }

    /// Writes the waiting events as one `cache.changed` notification line (without its newline)
    /// and forgets them.
    func writeEvents(cache: QueryCache, to out: inout [UInt8]) {
        out.append(contentsOf: #"{"jsonrpc":"2.0","method":"cache.changed","params":{"watch":"#.utf8)
        JSONWriter.writeInteger(Int64(id), to: &out)
        out.append(contentsOf: #","events":["#.utf8)
        for (index, event) in events.enumerated() {
            if index > 0 { out.append(UInt8(ascii: ",")) }
            CacheEventEncoding.write(event, cache: cache, withData: withData, to: &out)
        }
        out.append(contentsOf: "]}}".utf8)
        events.removeAll(keepingCapacity: true)
        slots.removeAll(keepingCapacity: true)
    }
}
