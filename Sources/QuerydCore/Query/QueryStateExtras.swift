// The side object of `QueryState` that holds the fields few queries ever set: the last error,
// the failures of the current fetch, and an infinite query's page links and fetch direction.
//
// A query that only ever holds data never allocates one, which keeps `QueryState` small; a `Query`
// keeps its box in its `QueryActivity`. The box is immutable (so states share it freely and it is Sendable); a write
// to one of its fields makes a new box, which is fine for fields that change this rarely.

import QuerydJSON

/// An immutable reference box for `QueryState`'s rarely-set fields.
final class QueryStateExtras: Sendable {
    /// The fields themselves, with `QueryState`'s defaults.
    struct Fields: Sendable, Equatable {
        var error: JSONValue?
        var errorUpdatedAt: Int64 = 0
        var errorUpdateCount = 0
        var failureCount = 0
        var failureReason: JSONValue?
        var fetchDirection: PageDirection?
        var pageLinks: [PageLinks]?
    }

    let fields: Fields

    init(_ fields: Fields) {
        self.fields = fields
    }
}
