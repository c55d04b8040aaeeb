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
            node = node.descend(element)
        }
        if node.insert(elements[elements.count - 1], id) {
            storedCount += 1
        }
    }

    /// Removes `id` from under `key`, pruning trie nodes left empty. Does nothing when the pair
    /// is not stored.
    @inlinable
    public mutating func remove(_ key: QueryKey, _ id: ID) {
        makeUnique()
        let elements = key.elements
        var path: [(parent: KeyIndexNode<ID>, element: JSONValue)] = []
        path.reserveCapacity(elements.count - 1)
        var node = root
        for element in elements.dropLast() {
            guard let next = node.node(element) else { return }
            path.append((node, element))
            node = next
        }
        guard node.remove(elements[elements.count - 1], id) else { return }
        storedCount -= 1
        // Walk back up: prune nodes left empty; a node reduced to one id and no children becomes a
        // bare leaf again. Ancestors of a node that is not empty are unchanged.
        while let (parent, element) = path.popLast() {
            let wasEmpty = node.isEmpty
            parent.settle(element, node)
            guard wasEmpty else { break }
            node = parent
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
