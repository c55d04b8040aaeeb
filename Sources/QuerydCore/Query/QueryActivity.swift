// The side object of a `Query` that holds what only a query in use needs: its subscriptions, its
// running fetch, its parsed data and its rarely-set state fields (errors, failures, page links).
//
// Most cached queries are unused: data written once and read by `query.get`, which splices the
// encoded bytes. They carry none of this, so it lives behind one optional reference that is made
// on first use and dropped again when everything in it is back to empty (`Query.settleActivity`).

import QuerydJSON

/// What a query in use keeps beyond its always-present fields.
final class QueryActivity {
    /// The subscriptions observing the query, in subscription order.
    var subscriptions: [Subscription] = []
    /// The fetch in flight, if any.
    var run: FetchRun?
    /// The data parsed from the query's encoded bytes, kept while the query is in use (or until
    /// the operation that read it ends; see `Query.dropParsedDataIfUnused`).
    var parsedData: JSONValue?
    /// `QueryState`'s rarely-set fields (nil: all at their defaults).
    var extras: QueryStateExtras?

    /// Whether nothing is held, so the query can drop this object.
    var isIdle: Bool { subscriptions.isEmpty && run == nil && parsedData == nil && extras == nil }
}
