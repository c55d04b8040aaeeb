// The trie node behind `KeyIndex`: one level of key elements, split by kind.
//
// Scalar elements (null, booleans, numbers, strings) are found by exact hashed lookup. Arrays and
// objects are kept apart so that a structured filter element only scans the siblings of its own
// kind with `partialMatch`. A key that ends where nothing continues is stored as a bare `.leaf`,
// so a million keys `["todos", i]` cost one dictionary entry each and no node allocation.

public import QuerydJSON

/// One entry below a trie node: either the id of a key that ends here with nothing below it, or a
/// full node (ids of keys ending here plus deeper children).
@usableFromInline
enum KeyIndexChild<ID: Hashable> {
    case leaf(ID)
    case node(KeyIndexNode<ID>)

    /// Calls `body` for every id at or below this entry whose path matches `prefix` from here.
    @inlinable
    func visit(prefix: ArraySlice<JSONValue>, _ body: (ID) -> Void) {
        switch self {
        case .leaf(let id):
            if prefix.isEmpty { body(id) }
        case .node(let node):
            node.visit(prefix: prefix, body)
        }
    }

    /// Calls `body` for every id at or below this entry.
    @inlinable
    func visitAll(_ body: (ID) -> Void) {
        switch self {
        case .leaf(let id): body(id)
        case .node(let node): node.visitAll(body)
        }
    }

    /// A copy that shares no node with `self`.
    @inlinable
    func deepCopy() -> KeyIndexChild<ID> {
        switch self {
        case .leaf: return self
        case .node(let node): return .node(node.deepCopy())
        }
    }
}

/// A trie node. Reference type so that the path can be walked and edited in place; `KeyIndex`
/// copies the whole trie before mutating a shared one, which keeps value semantics.
@usableFromInline
final class KeyIndexNode<ID: Hashable> {
    /// Ids of keys that end at this node.
    @usableFromInline
    var ids: [ID]
    /// Children reached by a scalar element (exact match).
    @usableFromInline
    var scalars: [JSONValue: KeyIndexChild<ID>] = [:]
    /// Children reached by an array element (partial match when filtering).
    @usableFromInline
    var arrays: [JSONValue: KeyIndexChild<ID>] = [:]
    /// Children reached by an object element (partial match when filtering).
    @usableFromInline
    var objects: [JSONValue: KeyIndexChild<ID>] = [:]

    @inlinable
    init(ids: [ID] = []) {
        self.ids = ids
    }

    /// Whether the node has no children of any kind.
    @inlinable
    var hasNoChildren: Bool { scalars.isEmpty && arrays.isEmpty && objects.isEmpty }

    /// Whether the node holds nothing and can be removed from its parent.
    @inlinable
    var isEmpty: Bool { ids.isEmpty && hasNoChildren }

    /// The entry reached by `element`, if any.
    @inlinable
    func child(_ element: JSONValue) -> KeyIndexChild<ID>? {
        switch element {
        case .array: return arrays[element]
        case .object: return objects[element]
        default: return scalars[element]
        }
    }

    /// Runs `body` on the slot of `element` in place (one hash lookup); setting it to nil removes it.
    @inlinable
    func withSlot<Result>(
        _ element: JSONValue, _ body: (inout KeyIndexChild<ID>?) -> Result
    ) -> Result {
        switch element {
        case .array: return body(&arrays[element])
        case .object: return body(&objects[element])
        default: return body(&scalars[element])
        }
    }

    /// Sets (or with `nil`, removes) the entry reached by `element`.
    @inlinable
    func setChild(_ element: JSONValue, _ child: KeyIndexChild<ID>?) {
        switch element {
        case .array: Self.update(&arrays, element, child)
        case .object: Self.update(&objects, element, child)
        default: Self.update(&scalars, element, child)
        }
    }

    @inlinable
    static func update(
        _ map: inout [JSONValue: KeyIndexChild<ID>], _ element: JSONValue, _ child: KeyIndexChild<ID>?
    ) {
        guard let child else {
            map.removeValue(forKey: element)
            // Dictionaries never shrink by themselves; give memory back after mass removal.
            if map.isEmpty {
                map = [:]
            } else if map.capacity >= 64, map.count * 8 < map.capacity {
                map = Dictionary(uniqueKeysWithValues: map.lazy.map { ($0.key, $0.value) })
            }
            return
        }
        map[element] = child
    }

    /// Calls `body` for every id at or below this node whose path matches `prefix` from here.
    @inlinable
    func visit(prefix: ArraySlice<JSONValue>, _ body: (ID) -> Void) {
        guard let element = prefix.first else {
            visitAll(body)
            return
        }
        let rest = prefix.dropFirst()
        switch element {
        case .array:
            for (candidate, child) in arrays where KeyMatching.partialMatch(candidate, filter: element) {
                child.visit(prefix: rest, body)
            }
        case .object:
            for (candidate, child) in objects where KeyMatching.partialMatch(candidate, filter: element) {
                child.visit(prefix: rest, body)
            }
        default:
            scalars[element]?.visit(prefix: rest, body)
        }
    }

    /// Calls `body` for every id at or below this node.
    @inlinable
    func visitAll(_ body: (ID) -> Void) {
        for id in ids { body(id) }
        for child in scalars.values { child.visitAll(body) }
        for child in arrays.values { child.visitAll(body) }
        for child in objects.values { child.visitAll(body) }
    }

    /// The number of nodes and of bare leaves below this node.
    @inlinable
    var shape: (nodes: Int, leaves: Int) {
        var nodes = 0
        var leaves = 0
        for child in [scalars.values, arrays.values, objects.values].joined() {
            switch child {
            case .leaf:
                leaves += 1
            case .node(let node):
                let below = node.shape
                nodes += 1 + below.nodes
                leaves += below.leaves
            }
        }
        return (nodes, leaves)
    }

    /// A copy of this subtree that shares no node with it.
    @inlinable
    func deepCopy() -> KeyIndexNode<ID> {
        let copy = KeyIndexNode(ids: ids)
        copy.scalars = scalars.mapValues { $0.deepCopy() }
        copy.arrays = arrays.mapValues { $0.deepCopy() }
        copy.objects = objects.mapValues { $0.deepCopy() }
        return copy
    }
}
