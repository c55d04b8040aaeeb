// Fetchers: connections serving `fetch` for keys under a prefix, with query defaults for those keys.

import QuerydJSON

/// Identifies a fetcher registration for the daemon's lifetime.
public struct FetcherID: Hashable, Sendable, CustomStringConvertible {
    public let rawValue: Int
    public init(_ rawValue: Int) { self.rawValue = rawValue }
    public var description: String { String(rawValue) }
}

/// A connection's promise to serve `fetch` requests for keys under a prefix.
final class Fetcher: PrefixServer {
    let id: FetcherID
    let connection: ConnectionID
    let prefix: [JSONValue]
    let exact: Bool
    /// Honours `$/cancelRequest`: a fetch nobody wants is cancelled rather than completed.
    let cancellable: Bool
    /// Query defaults for keys this fetcher serves.
    let defaults: QueryOptions
    var inFlight = 0

    init(
        id: FetcherID, connection: ConnectionID, prefix: [JSONValue], exact: Bool, cancellable: Bool,
        defaults: QueryOptions
    ) {
        self.id = id
        self.connection = connection
        self.prefix = prefix
        self.exact = exact
        self.cancellable = cancellable
        self.defaults = defaults
    }
}

typealias FetcherRegistry = PrefixRegistry<Fetcher>

extension PrefixRegistry where Member == Fetcher {
    /// The defaults of every fetcher serving `key`, later registrations overriding earlier ones.
    func defaults(for key: QueryKey) -> QueryOptions {
        var merged = QueryOptions()
        for fetcher in members where fetcher.serves(key) {
            merged = fetcher.defaults.layered(over: merged)
        }
        return merged
    }
}
