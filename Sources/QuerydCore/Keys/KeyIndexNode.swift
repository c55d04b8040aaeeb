// The trie node behind `KeyIndex`: one level of key elements, split by kind.
//
// Scalar elements are found by exact hashed lookup, in maps keyed as compactly as possible:
// integers (the common `["todos", 42]`) by Int64, strings by String, other scalars by JSONValue.
// Arrays and objects are kept apart so that a structured filter element only scans the siblings
// of its own kind with `partialMatch`. Each kind holds bare leaves and full nodes separately
// (see `KeyIndexChildren`), so a million keys `["todos", i]` allocate no node per key.

public import QuerydJSON

/// A trie node. Reference type so that the path can be walked and edited in place; `KeyIndex`
/// copies the whole trie before mutating a shared one, which keeps value semantics.
@usableFromInline
final class KeyIndexNode<ID: Hashable> {
    /// Ids of keys that end at this node.
    @usableFromInline var ids: [ID]
    /// Children reached by an integral number within Int64 (JSONNumber keeps those canonical).
    @usableFromInline var integers = KeyIndexChildren<Int64, ID>()
    /// Children reached by a string.
    @usableFromInline var strings = KeyIndexChildren<String, ID>()
    /// Children reached by any other scalar: null, a boolean, a non-integral or huge number.
    @usableFromInline var otherScalars = KeyIndexChildren<JSONValue, ID>()
    /// Children reached by an array element (partial match when filtering).
    @usableFromInline var arrays = KeyIndexChildren<JSONValue, ID>()
    /// Children reached by an object element (partial match when filtering).
    @usableFromInline var objects = KeyIndexChildren<JSONValue, ID>()

    @inlinable
    init(ids: [ID] = []) {
        self.ids = ids
    }

    /// Whether the node has no children of any kind.
    @inlinable
    var hasNoChildren: Bool {
        integers.isEmpty && strings.isEmpty && otherScalars.isEmpty && arrays.isEmpty && objects.isEmpty
    }

    /// Whether the node holds nothing and can be removed from its parent.
    @inlinable
    var isEmpty: Bool { ids.isEmpty && hasNoChildren }

    /// The node reached by `element`, if there is one (a bare leaf is not a node).
    @inlinable
    func node(_ element: JSONValue) -> KeyIndexNode<ID>? {
        switch element {
        case .string(let text): return strings.node(text)
        case .number(let number):
            if let integer = number.int64Value { return integers.node(integer) }
            return otherScalars.node(element)
        case .null, .bool: return otherScalars.node(element)
        case .array: return arrays.node(element)
        case .object: return objects.node(element)
        }
    }

    /// The node reached by `element`, created if needed.
    @inlinable
    func descend(_ element: JSONValue) -> KeyIndexNode<ID> {
        switch element {
        case .string(let text): return strings.descend(text)
        case .number(let number):
            if let integer = number.int64Value { return integers.descend(integer) }
            return otherScalars.descend(element)
        case .null, .bool: return otherScalars.descend(element)
        case .array: return arrays.descend(element)
        case .object: return objects.descend(element)
        }
    }

    /// Adds `id` for the key ending with `element` below this node; false if already present.
    @inlinable
    func insert(_ element: JSONValue, _ id: ID) -> Bool {
        switch element {
        case .string(let text): return strings.insert(text, id)
        case .number(let number):
            if let integer = number.int64Value { return integers.insert(integer, id) }
            return otherScalars.insert(element, id)
        case .null, .bool: return otherScalars.insert(element, id)
        case .array: return arrays.insert(element, id)
        case .object: return objects.insert(element, id)
        }
    }

    /// Removes `id` from the key ending with `element` below this node; false if it was absent.
    @inlinable
    func remove(_ element: JSONValue, _ id: ID) -> Bool {
        switch element {
        case .string(let text): return strings.remove(text, id)
        case .number(let number):
            if let integer = number.int64Value { return integers.remove(integer, id) }
            return otherScalars.remove(element, id)
        case .null, .bool: return otherScalars.remove(element, id)
        case .array: return arrays.remove(element, id)
        case .object: return objects.remove(element, id)
        }
    }

    /// Prunes `child` (reached by `element`) if it became empty, or makes it a bare leaf again.
    @inlinable
    func settle(_ element: JSONValue, _ child: KeyIndexNode<ID>) {
        switch element {
        case .string(let text): strings.settle(text, child)
        case .number(let number):
            if let integer = number.int64Value {
                integers.settle(integer, child)
            } else {
                otherScalars.settle(element, child)
            }
        case .null, .bool: otherScalars.settle(element, child)
        case .array: arrays.settle(element, child)
        case .object: objects.settle(element, child)
        }
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
        case .string(let text):
            strings.visit(text, rest: rest, body)
        case .number(let number):
            if let integer = number.int64Value {
                integers.visit(integer, rest: rest, body)
            } else {
                otherScalars.visit(element, rest: rest, body)
            }
        case .null, .bool:
            otherScalars.visit(element, rest: rest, body)
        case .array:
            arrays.visitMatching(element, rest: rest, body)
        case .object:
            objects.visitMatching(element, rest: rest, body)
        }
    }

    /// Calls `body` for every id at or below this node.
    @inlinable
    func visitAll(_ body: (ID) -> Void) {
        for id in ids { body(id) }
        integers.visitAll(body)
        strings.visitAll(body)
        otherScalars.visitAll(body)
        arrays.visitAll(body)
        objects.visitAll(body)
    }

    /// The number of nodes and of bare leaves below this node (for tests of pruning).
    var shape: (nodes: Int, leaves: Int) {
        let parts = [integers.shape, strings.shape, otherScalars.shape, arrays.shape, objects.shape]
        return parts.reduce(into: (nodes: 0, leaves: 0)) { total, part in
            total.nodes += part.nodes
            total.leaves += part.leaves
        }
    }

    /// A copy of this subtree that shares no node with it.
    @inlinable
    func deepCopy() -> KeyIndexNode<ID> {
        let copy = KeyIndexNode(ids: ids)
        copy.integers = integers.deepCopy()
        copy.strings = strings.deepCopy()
        copy.otherScalars = otherScalars.deepCopy()
        copy.arrays = arrays.deepCopy()
        copy.objects = objects.deepCopy()
        return copy
    }
}
