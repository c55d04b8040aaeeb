// Mutators: connections serving `mutate` for mutation keys under a prefix (chosen like fetchers).

import QuerydJSON

/// A connection's promise to serve `mutate` requests for mutation keys under a prefix.
final class Mutator: PrefixServer {
    let id: MutatorID
    let connection: ConnectionID
    let prefix: [JSONValue]
    let exact: Bool
    var inFlight = 0

    init(id: MutatorID, connection: ConnectionID, prefix: [JSONValue], exact: Bool) {
        self.id = id
        self.connection = connection
        self.prefix = prefix
        self.exact = exact
    }
}

typealias MutatorRegistry = PrefixRegistry<Mutator>
