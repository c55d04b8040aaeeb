// A view as pushed to subscriptions: one `QueryResult` made once per distinct view of a query
// version and shared by every subscription that sees exactly that, with its state object encoded
// at most once. Fan-out to many subscriptions then copies bytes instead of encoding per subscription.

/// A pushed view of a query, shared by reference between the subscriptions that see the same.
/// Reached only on the loop thread.
public final class QueryView {
    /// The view.
    public let result: QueryResult
    private var encoded: [UInt8]?
    /// The state object in the push modes' shapes (see `StateShape`), made on first use and kept.
    private var encodedInShape: [StateShape: [UInt8]] = [:]
    /// The encoded state between a head and a tail, and the address of that head and tail.
    private var framed: (head: UnsafeRawPointer, tail: UnsafeRawPointer, bytes: [UInt8])?

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

    /// The state object's JSON in `shape`; made on first use and kept.
    public func encodedState(_ shape: StateShape) -> [UInt8] {
        if shape == .standard { return encodedState }
        if let kept = encodedInShape[shape] { return kept }
        var bytes: [UInt8] = []
        result.write(to: &bytes, shape: shape)
        encodedInShape[shape] = bytes
        return bytes
    }

    /// `head`, the encoded state and `tail`, made on first use and kept for that head and tail
    /// (the line framing every push of the view shares; asking with another pair replaces it).
    public func encodedState(after head: StaticString, before tail: StaticString) -> [UInt8] {
        let kept = head.hasPointerRepresentation && tail.hasPointerRepresentation
        if kept, let framed, framed.head == UnsafeRawPointer(head.utf8Start),
            framed.tail == UnsafeRawPointer(tail.utf8Start)
        {
            return framed.bytes
        }
        let state = encodedState
        var bytes: [UInt8] = []
        bytes.reserveCapacity(head.utf8CodeUnitCount + state.count + tail.utf8CodeUnitCount)
        head.withUTF8Buffer { bytes.append(contentsOf: $0) }
        bytes.append(contentsOf: state)
        tail.withUTF8Buffer { bytes.append(contentsOf: $0) }
        if kept { framed = (UnsafeRawPointer(head.utf8Start), UnsafeRawPointer(tail.utf8Start), bytes) }
        return bytes
    }
}
