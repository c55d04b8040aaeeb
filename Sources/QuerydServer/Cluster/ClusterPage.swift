// One page of an infinite query as the cluster names it: the page param and direction a fetch
// attempt asks for. Each page fetch has a lease of its own (see protocol/cluster.md, "Pages of
// infinite queries"), named after the key and this page.

public import QuerydCore
public import QuerydJSON

/// The page a fetch attempt of an infinite query asks for.
public struct ClusterPage: Hashable, Sendable {
    public var param: JSONValue
    public var direction: PageDirection

    public init(param: JSONValue, direction: PageDirection) {
        self.param = param
        self.direction = direction
    }

    /// The page of a fetch request (nil for an ordinary query's fetch).
    init?(_ page: (param: JSONValue, direction: PageDirection)?) {
        guard let page else { return nil }
        self.init(param: page.param, direction: page.direction)
    }

    /// 16 hex digits naming the page in its lease's name: the hash of `[direction, param]` as a key.
    var hash: String { ClusterLayout.hash(QueryKey(elements: [.string(direction.rawValue), param])) }
}
