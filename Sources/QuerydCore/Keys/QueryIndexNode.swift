// An inner node of `QueryIndex`'s trie: one distinct proper prefix of the stored keys.
//
// A node holds the elements whose keys end one level below it (in two `ObjectSet`s: scalar last
// element, array/object last element) and the nodes of longer prefixes, keyed by element and split
// by kind: scalars by exact hashed lookup, arrays and objects apart so a structured filter element
// partial-matches only siblings of its own kind. Keys are never trie nodes themselves, so a
// million keys `["m", i]` live in one node's scalar set.

import QuerydJSON

/// A trie node; a reference type so paths can be walked and edited in place (`QueryIndex` copies
/// the trie before mutating a shared one).
final class QueryIndexNode<Element: QueryIndexElement> {
    /// The canonical bytes of this node's prefix as an open array ready for one more element:
    /// `[` at the root, `["m",` below it.
    let path: [UInt8]
    /// Elements whose key is this prefix plus one scalar.
    var scalarLeaves = ObjectSet<Element>()
    /// Elements whose key is this prefix plus one array or object.
    var structuredLeaves = ObjectSet<Element>()
    /// Longer prefixes continuing with an integral number within Int64.
    var integers: [Int64: QueryIndexNode] = [:]
    /// Longer prefixes continuing with a string.
    var strings: [String: QueryIndexNode] = [:]
    /// Longer prefixes continuing with null, a boolean, or another number.
    var otherScalars: [JSONValue: QueryIndexNode] = [:]
    /// Longer prefixes continuing with an array.
    var arrays: [JSONValue: QueryIndexNode] = [:]
    /// Longer prefixes continuing with an object.
    var objects: [JSONValue: QueryIndexNode] = [:]

    init(path: [UInt8]) {
        self.path = path
    }

    /// Whether the node holds no element and no child, so its parent can drop it.
    var isEmpty: Bool {
        scalarLeaves.isEmpty && structuredLeaves.isEmpty && integers.isEmpty && strings.isEmpty
            && otherScalars.isEmpty && arrays.isEmpty && objects.isEmpty
    }

    /// Appends the canonical bytes of one key element.
    static func appendCanonical(_ element: JSONValue, to bytes: inout [UInt8]) {
        QueryKey(elements: [element]).withCanonicalBytes { array in
            bytes.append(contentsOf: array[1..<(array.count - 1)])
        }
    }

    /// The child reached by `element`, if any.
    func child(_ element: JSONValue) -> QueryIndexNode? {
        switch element {
        case .string(let text): return strings.isEmpty ? nil : strings[text]
        case .number(let number):
            if let integer = number.int64Value { return integers.isEmpty ? nil : integers[integer] }
            return otherScalars[element]
        case .null, .bool: return otherScalars[element]
        case .array: return arrays[element]
        case .object: return objects[element]
        }
    }

    /// The child reached by `element`, created if needed.
    func descend(_ element: JSONValue) -> QueryIndexNode {
        if let existing = child(element) { return existing }
        var path = self.path
        Self.appendCanonical(element, to: &path)
        path.append(UInt8(ascii: ","))
        let node = QueryIndexNode(path: path)
        switch element {
        case .string(let text): strings[text] = node
        case .number(let number):
            if let integer = number.int64Value {
                integers[integer] = node
            } else {
                otherScalars[element] = node
            }
        case .null, .bool: otherScalars[element] = node
        case .array: arrays[element] = node
        case .object: objects[element] = node
        }
        return node
    }

    /// Drops the child reached by `element`.
    func removeChild(_ element: JSONValue) {
        switch element {
        case .string(let text): Self.remove(text, from: &strings)
        case .number(let number):
            if let integer = number.int64Value {
                Self.remove(integer, from: &integers)
            } else {
                Self.remove(element, from: &otherScalars)
            }
        case .null, .bool: Self.remove(element, from: &otherScalars)
        case .array: Self.remove(element, from: &arrays)
        case .object: Self.remove(element, from: &objects)
        }
    }

    /// Removes `key` from `map`, giving memory back when the map has become sparse (dictionaries
    /// never shrink by themselves).
    private static func remove<Key: Hashable>(_ key: Key, from map: inout [Key: QueryIndexNode]) {
        map.removeValue(forKey: key)
        if map.isEmpty {
            map = [:]
        } else if map.capacity >= 64, map.count * 8 < map.capacity {
            var shrunk = [Key: QueryIndexNode](minimumCapacity: map.count)
            for (key, value) in map { shrunk[key] = value }
            map = shrunk
        }
    }

    /// Adds `element`, whose key ends with `last` below this node.
    func insertLeaf(_ element: Element, last: JSONValue) {
        if isStructured(last) {
            structuredLeaves.insert(element)
        } else {
            scalarLeaves.insert(element)
        }
    }

    /// Removes `element`, whose key ends with `last` below this node.
    func removeLeaf(_ element: Element, last: JSONValue) {
        if isStructured(last) {
            structuredLeaves.remove(element)
        } else {
            scalarLeaves.remove(element)
        }
    }

    private func isStructured(_ element: JSONValue) -> Bool {
        switch element {
        case .array, .object: return true
        default: return false
        }
    }

    /// Calls `body` for every element below this node whose key continues with elements that
    /// partially match `prefix` (not empty); `table` finds a key ending in a scalar exactly.
    func visit(prefix: ArraySlice<JSONValue>, table: QueryTable<Element>, _ body: (Element) -> Void) {
        guard let element = prefix.first else {
            visitAll(body)
            return
        }
        let rest = prefix.dropFirst()
        switch element {
        case .array, .object:
            let children = isStructuredArray(element) ? arrays : objects
            for (candidate, node) in children where KeyMatching.partialMatch(candidate, filter: element) {
                node.visit(prefix: rest, table: table, body)
            }
            guard rest.isEmpty else { return }
            structuredLeaves.forEach { leaf in
                if let last = leaf.key.elements.last, KeyMatching.partialMatch(last, filter: element) {
                    body(leaf)
                }
            }
        default:
            if rest.isEmpty, !scalarLeaves.isEmpty {
                var bytes = path
                Self.appendCanonical(element, to: &bytes)
                bytes.append(UInt8(ascii: "]"))
                if let exact = bytes.withUnsafeBytes({ table.element(canonicalBytes: $0) }) {
                    body(exact)
                }
            }
            child(element)?.visit(prefix: rest, table: table, body)
        }
    }

    private func isStructuredArray(_ element: JSONValue) -> Bool {
        if case .array = element { return true }
        return false
    }

    /// Calls `body` for every element at or below this node.
    func visitAll(_ body: (Element) -> Void) {
        scalarLeaves.forEach(body)
        structuredLeaves.forEach(body)
        for node in integers.values { node.visitAll(body) }
        for node in strings.values { node.visitAll(body) }
        for node in otherScalars.values { node.visitAll(body) }
        for node in arrays.values { node.visitAll(body) }
        for node in objects.values { node.visitAll(body) }
    }

    /// The number of nodes below this one and of elements at or below it (for tests of pruning).
    var shape: (nodes: Int, leaves: Int) {
        let children =
            Array(integers.values) + Array(strings.values) + Array(otherScalars.values) + Array(arrays.values)
            + Array(objects.values)
        var result = (nodes: children.count, leaves: scalarLeaves.count + structuredLeaves.count)
        for node in children {
            let below = node.shape
            result.nodes += below.nodes
            result.leaves += below.leaves
        }
        return result
    }

    /// A copy of this subtree that shares no node with it (elements are shared).
    func deepCopy() -> QueryIndexNode {
        let copy = QueryIndexNode(path: path)
        copy.scalarLeaves = scalarLeaves
        copy.structuredLeaves = structuredLeaves
        copy.integers = integers.mapValues { $0.deepCopy() }
        copy.strings = strings.mapValues { $0.deepCopy() }
        copy.otherScalars = otherScalars.mapValues { $0.deepCopy() }
        copy.arrays = arrays.mapValues { $0.deepCopy() }
        copy.objects = objects.mapValues { $0.deepCopy() }
        return copy
    }
}
