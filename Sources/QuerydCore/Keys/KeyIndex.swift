// An index from query keys to ids that answers "which keys match this filter prefix" in time
// proportional to the matches, not to the number of keys.
//
// It is a trie over key elements (see `KeyIndexNode`). Matching a prefix walks one path for
// scalar elements; at levels where the filter element is an array or object, it partial-matches
// only the siblings of that kind. Everything below the end of the prefix matches.

public import QuerydJSON

/// A set of (query key, id) pairs searchable by filter prefix with TanStack's partial matching.
///
/// Several different ids may be stored under the same key; inserting a pair that is already
/// present does nothing. `KeyIndex` has value semantics (a copy is taken before mutating a trie
/// shared with another copy).
public struct KeyIndex<ID: Hashable> {
    @usableFromInline
    var root: KeyIndexNode<ID>

    @usableFromInline
    var storedCount: Int

    /// The number of (key, id) pairs stored.
    public var count: Int { storedCount }

    /// Creates an empty index.
    @inlinable
    public init() {
        root = KeyIndexNode()
        storedCount = 0
    }

    @inlinable
    mutating func makeUnique() {
        if !isKnownUniquelyReferenced(&root) {
            root = root.deepCopy()
        }
    }

    /// Adds `id` under `key`. Does nothing when this exact pair is already stored.
    @inlinable
    public mutating func insert(_ key: QueryKey, _ id: ID) {
        makeUnique()
        let elements = key.elements
        var node = root
        for element in elements.dropLast() {
            node = node.withSlot(element) { slot in
                switch slot {
                case .node(let next)?:
                    return next
                case .leaf(let leafID)?:
                    let next = KeyIndexNode<ID>(ids: [leafID])
                    slot = .node(next)
                    return next
                case nil:
                    let next = KeyIndexNode<ID>()
                    slot = .node(next)
                    return next
                }
            }
        }
        let inserted = node.withSlot(elements[elements.count - 1]) { slot in
            switch slot {
            case nil:
                slot = .leaf(id)
            case .leaf(let existing)?:
                if existing == id { return false }
                slot = .node(KeyIndexNode(ids: [existing, id]))
            case .node(let end)?:
                if end.ids.contains(id) { return false }
                end.ids.append(id)
            }
            return true
        }
        if inserted { storedCount += 1 }
    }

    /// Removes `id` from under `key`, pruning trie nodes left empty. Does nothing when the pair
    /// is not stored.
    @inlinable
    public mutating func remove(_ key: QueryKey, _ id: ID) {
        makeUnique()
        let elements = key.elements
        var path: [(parent: KeyIndexNode<ID>, element: JSONValue)] = []
        path.reserveCapacity(elements.count)
        var node = root
        for element in elements.dropLast() {
            guard case .node(let next)? = node.child(element) else { return }
            path.append((node, element))
            node = next
        }
        let last = elements[elements.count - 1]
        switch node.child(last) {
        case nil:
            return
        case .leaf(let existing)?:
            guard existing == id else { return }
            node.setChild(last, nil)
        case .node(let end)?:
            guard let position = end.ids.firstIndex(of: id) else { return }
            end.ids.remove(at: position)
            if end.isEmpty {
                node.setChild(last, nil)
            } else if end.ids.count == 1, end.hasNoChildren {
                node.setChild(last, .leaf(end.ids[0]))
            }
        }
        storedCount -= 1
        // Walk back up: drop nodes left empty, and turn a node holding one id alone back into a leaf.
        while let (parent, element) = path.popLast() {
            if node.isEmpty {
                parent.setChild(element, nil)
                node = parent
                continue
            }
            if node.ids.count == 1, node.hasNoChildren {
                parent.setChild(element, .leaf(node.ids[0]))
            }
            break
        }
    }

    /// Calls `body` with the id of every stored key that partially matches `prefix` (see
    /// `KeyMatching.matches(_:prefix:)`). An empty prefix visits every id. The order is unspecified.
    @inlinable
    public func forEachMatch(prefix: [JSONValue], _ body: (ID) -> Void) {
        root.visit(prefix: prefix[...], body)
    }

    /// The number of trie nodes and of bare leaves below the root (for tests of pruning).
    var shape: (nodes: Int, leaves: Int) { root.shape }

    /// The ids of every stored key that partially matches `prefix`, in unspecified order.
    @inlinable
    public func matches(prefix: [JSONValue]) -> [ID] {
        var result: [ID] = []
        forEachMatch(prefix: prefix) { result.append($0) }
        return result
    }
}
