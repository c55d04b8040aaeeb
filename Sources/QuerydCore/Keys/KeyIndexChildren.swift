// The children of one kind below a `KeyIndex` trie node, split into bare leaves and full nodes.
//
// Keeping leaves (`Key -> ID`) apart from nodes (`Key -> KeyIndexNode`) instead of one map of an
// enum lets each map hold its values unboxed and untagged: a key that ends where nothing
// continues costs one `Key: ID` entry, e.g. 16 bytes per bucket for `Int64` keys and word-sized ids.

public import QuerydJSON

/// The entries below a trie node reached by elements of one kind, keyed by `Key`. A key is in at
/// most one of the two maps.
@usableFromInline
struct KeyIndexChildren<Key: Hashable, ID: Hashable> {
    /// Keys that end here with nothing below: their single id.
    @usableFromInline var leaves: [Key: ID] = [:]
    /// Elements with deeper keys below them, or with several ids.
    @usableFromInline var nodes: [Key: KeyIndexNode<ID>] = [:]

    @inlinable
    init() {}

    /// Whether there is no entry at all.
    @inlinable
    var isEmpty: Bool { leaves.isEmpty && nodes.isEmpty }

    /// The node reached by `key`, if it is a node rather than a leaf.
    @inlinable
    func node(_ key: Key) -> KeyIndexNode<ID>? {
        nodes.isEmpty ? nil : nodes[key]
    }

    /// Calls `body` for every id reached through `key` whose path matches `rest` from there.
    @inlinable
    func visit(_ key: Key, rest: ArraySlice<JSONValue>, _ body: (ID) -> Void) {
        if let node = node(key) {
            node.visit(prefix: rest, body)
        } else if rest.isEmpty, let id = leaves[key] {
            body(id)
        }
    }

    /// Calls `body` for every id at or below every entry.
    @inlinable
    func visitAll(_ body: (ID) -> Void) {
        for id in leaves.values { body(id) }
        for node in nodes.values { node.visitAll(body) }
    }

    /// Returns the node reached by `key`, creating it (and absorbing a leaf's id) if needed.
    @inlinable
    mutating func descend(_ key: Key) -> KeyIndexNode<ID> {
        if let node = node(key) { return node }
        let node = KeyIndexNode<ID>()
        if !leaves.isEmpty, let leafID = leaves.removeValue(forKey: key) {
            node.ids = [leafID]
        }
        nodes[key] = node
        return node
    }

    /// Adds `id` for the key that ends at `key`; false when it was already there.
    @inlinable
    mutating func insert(_ key: Key, _ id: ID) -> Bool {
        if let node = node(key) {
            if node.ids.contains(id) { return false }
            node.ids.append(id)
            return true
        }
        guard let previous = leaves.updateValue(id, forKey: key) else { return true }
        if previous == id { return false }
        leaves.removeValue(forKey: key)
        nodes[key] = KeyIndexNode(ids: [previous, id])
        return true
    }

    /// Removes `id` from the key that ends at `key`; false when it was not there.
    @inlinable
    mutating func remove(_ key: Key, _ id: ID) -> Bool {
        if let node = node(key) {
            guard let position = node.ids.firstIndex(of: id) else { return false }
            node.ids.remove(at: position)
            settle(key, node)
            return true
        }
        guard let existing = leaves[key], existing == id else { return false }
        Self.remove(key, from: &leaves)
        return true
    }

    /// After `node` (reached by `key`) lost an id or a child: drops it when it is empty, or turns
    /// it back into a bare leaf when it holds a single id and no children.
    @inlinable
    mutating func settle(_ key: Key, _ node: KeyIndexNode<ID>) {
        if node.isEmpty {
            Self.remove(key, from: &nodes)
        } else if node.ids.count == 1, node.hasNoChildren {
            Self.remove(key, from: &nodes)
            leaves[key] = node.ids[0]
        }
    }

    /// Removes `key` from `map`, giving memory back when the map has become sparse (dictionaries
    /// never shrink by themselves).
    @inlinable
    static func remove<Value>(_ key: Key, from map: inout [Key: Value]) {
        map.removeValue(forKey: key)
        if map.isEmpty {
            map = [:]
        } else if map.capacity >= 64, map.count * 8 < map.capacity {
            var shrunk = [Key: Value](minimumCapacity: map.count)
            for (key, value) in map { shrunk[key] = value }
            map = shrunk
        }
    }

    /// A copy that shares no node with `self`.
    @inlinable
    func deepCopy() -> KeyIndexChildren<Key, ID> {
        var copy = KeyIndexChildren()
        copy.leaves = leaves
        copy.nodes = nodes.mapValues { $0.deepCopy() }
        return copy
    }

    /// The number of nodes and of bare leaves at or below these entries (for tests of pruning).
    var shape: (nodes: Int, leaves: Int) {
        var result = (nodes: nodes.count, leaves: leaves.count)
        for node in nodes.values {
            let below = node.shape
            result.nodes += below.nodes
            result.leaves += below.leaves
        }
        return result
    }
}

extension KeyIndexChildren where Key == JSONValue {
    /// Calls `body` for every id reached through an entry that partially matches `filter`, whose
    /// path matches `rest` from there.
    @inlinable
    func visitMatching(_ filter: JSONValue, rest: ArraySlice<JSONValue>, _ body: (ID) -> Void) {
        for (candidate, node) in nodes where KeyMatching.partialMatch(candidate, filter: filter) {
            node.visit(prefix: rest, body)
        }
        guard rest.isEmpty else { return }
        for (candidate, id) in leaves where KeyMatching.partialMatch(candidate, filter: filter) {
            body(id)
        }
    }
}
