// Registrations that serve keys under a prefix (fetchers and mutators), and the rule that picks
// one for a key: the longest matching prefix wins, then the one with the fewest requests in
// flight, then the oldest registration. They are few (one per serving process and prefix), so a
// scan in registration order is the right structure.

import QuerydJSON

/// A connection's promise to serve requests for keys under a prefix.
protocol PrefixServer: AnyObject {
    associatedtype ID: Equatable
    var id: ID { get }
    var connection: ConnectionID { get }
    var prefix: [JSONValue] { get }
    /// Serves only the key equal to `prefix`.
    var exact: Bool { get }
    /// Requests sent to it and not answered yet.
    var inFlight: Int { get }
}

extension PrefixServer {
    /// Whether it serves `key`.
    func serves(_ key: QueryKey) -> Bool {
        exact ? key.elements == prefix : KeyMatching.matches(key, prefix: prefix)
    }
}

/// Every registration of one kind, in registration order.
struct PrefixRegistry<Member: PrefixServer> {
    private(set) var members: [Member] = []

    mutating func add(_ member: Member) { members.append(member) }

    /// Removes and returns the registration, if present.
    mutating func remove(_ id: Member.ID) -> Member? {
        guard let index = members.firstIndex(where: { $0.id == id }) else { return nil }
        return members.remove(at: index)
    }

    func member(_ id: Member.ID) -> Member? { members.first { $0.id == id } }

    /// Removes every registration of `connection`, and returns them.
    @discardableResult
    mutating func removeAll(of connection: ConnectionID) -> [Member] {
        let removed = members.filter { $0.connection == connection }
        if !removed.isEmpty { members.removeAll { $0.connection == connection } }
        return removed
    }

    /// The registration that should serve `key`, or nil when none matches.
    func choose(for key: QueryKey, where eligible: (Member) -> Bool = { _ in true }) -> Member? {
        var best: Member?
        for candidate in members where candidate.serves(key) && eligible(candidate) {
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
