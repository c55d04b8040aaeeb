// The registered fetchers and the rule that picks one for a key: the longest matching prefix
// wins, then the one with the fewest attempts in flight, then the oldest registration.
// Fetchers are few (one per serving process and prefix), so a scan is the right data structure.

import QuerydJSON

/// Identifies a fetcher registration for the daemon's lifetime.
public struct FetcherID: Hashable, Sendable, CustomStringConvertible {
    public let rawValue: Int
    public init(_ rawValue: Int) { self.rawValue = rawValue }
    public var description: String { String(rawValue) }
}

/// A connection's promise to serve `fetch` requests for keys under a prefix.
final class Fetcher {
    let id: FetcherID
    let connection: ConnectionID
    let prefix: [JSONValue]
    /// Serves only the key equal to `prefix`.
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

    func serves(_ key: QueryKey) -> Bool {
        exact ? key.elements == prefix : KeyMatching.matches(key, prefix: prefix)
    }
}

/// All fetchers, in registration order.
struct FetcherRegistry {
    private(set) var fetchers: [Fetcher] = []

    mutating func add(_ fetcher: Fetcher) { fetchers.append(fetcher) }

    /// Removes and returns the fetcher, if registered.
    mutating func remove(_ id: FetcherID) -> Fetcher? {
        guard let index = fetchers.firstIndex(where: { $0.id == id }) else { return nil }
        return fetchers.remove(at: index)
    }

    func fetcher(_ id: FetcherID) -> Fetcher? { fetchers.first { $0.id == id } }

    /// The fetcher that should serve `key`, or nil when none matches.
    func choose(for key: QueryKey) -> Fetcher? {
        var best: Fetcher?
        for candidate in fetchers where candidate.serves(key) {
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

    /// The defaults of every fetcher serving `key`, later registrations overriding earlier ones.
    func defaults(for key: QueryKey) -> QueryOptions {
        var merged = QueryOptions()
        for fetcher in fetchers where fetcher.serves(key) {
            merged = fetcher.defaults.layered(over: merged)
        }
        return merged
    }
}
