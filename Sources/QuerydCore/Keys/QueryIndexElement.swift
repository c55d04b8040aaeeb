// What `QueryTable` and `QueryIndex` store: objects that carry their own query key, so the
// tables keep one reference per entry and no separate copy of the key.

/// An object stored in a `QueryTable` or `QueryIndex`, identified there by its key. The key must
/// not change while the object is stored.
public protocol QueryIndexElement: AnyObject {
    /// The key the object is stored and found under.
    var key: QueryKey { get }
}
