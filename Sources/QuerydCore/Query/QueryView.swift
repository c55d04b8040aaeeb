// A view as pushed to subscriptions: one `QueryResult` made once per distinct view of a query
// version and shared by every subscription that sees exactly that, with its state object encoded
// at most once. Fan-out to many subscriptions then copies bytes instead of encoding per subscription.

/// A pushed view of a query, shared by reference between the subscriptions that see the same.
/// Reached only on the loop thread.
public final class QueryView {
    /// The view.
    public let result: QueryResult
    private var encoded: [UInt8]?

    /// A view of `result` (its state object is encoded when first asked for).
    public init(_ result: QueryResult) {
        self.result = result
    }

    /// The state object's JSON, exactly as `result.write(to:)` writes it; made on first use and kept.
    public var encodedState: [UInt8] {
        if let encoded { return encoded }
        var bytes: [UInt8] = []
        result.write(to: &bytes)
        encoded = bytes
        return bytes
    }
}
