// The registered mutators and the rule that picks one for a mutation key: the longest matching
// prefix wins, then the one with the fewest attempts in flight, then the oldest registration.

import QuerydJSON

/// A connection's promise to serve `mutate` requests for mutation keys under a prefix.
final class Mutator {
    let id: MutatorID
    let connection: ConnectionID
    let prefix: [JSONValue]
    /// Serves only the key equal to `prefix`.
    let exact: Bool
    var inFlight = 0

    init(id: MutatorID, connection: ConnectionID, prefix: [JSONValue], exact: Bool) {
        self.id = id
        self.connection = connection
        self.prefix = prefix
        self.exact = exact
    }

    func serves(_ key: QueryKey) -> Bool {
        exact ? key.elements == prefix : KeyMatching.matches(key, prefix: prefix)
    }
}

/// All mutators, in registration order (they are few, so a scan is the right structure).
struct MutatorRegistry {
    private(set) var mutators: [Mutator] = []

    mutating func add(_ mutator: Mutator) { mutators.append(mutator) }

    /// Removes and returns the mutator, if registered.
    mutating func remove(_ id: MutatorID) -> Mutator? {
        guard let index = mutators.firstIndex(where: { $0.id == id }) else { return nil }
        return mutators.remove(at: index)
    }

    func mutator(_ id: MutatorID) -> Mutator? { mutators.first { $0.id == id } }

    /// The mutator that should serve `key`, or nil when none matches.
    func choose(for key: QueryKey) -> Mutator? {
        var best: Mutator?
        for candidate in mutators where candidate.serves(key) {
            guard let current = best else {
                best = candidate
                continue
            }
            if candidate.prefix.count > current.prefix.count
                || (candidate.prefix.count == current.prefix.count && candidate.inFlight < current.inFlight)
            {
                best = candidate
            }
        }
        return best
    }
}
