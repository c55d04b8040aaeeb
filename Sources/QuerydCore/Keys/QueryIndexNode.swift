// An inner node of `QueryIndex`'s trie: one distinct proper prefix of the stored keys.
//
// A node holds the elements whose keys end one level below it (in two `ObjectSet`s: scalar last
// element, array/object last element) and the nodes of longer prefixes, found by the element that
// leads to them and split by kind, so a structured filter element partial-matches only structured
// siblings. Keys are never trie nodes themselves, so a million keys `["m", i]` live in one node's
// scalar set; a million keys `["user", i, "posts"]` make a million children of one node. Both kinds
// of set grow and shrink incrementally (`HashedSet`), so no insertion pays for a whole set.

import QuerydJSON

/// Finds a trie node's children by the key element that leads to each (JSON equality: `1 == 1.0`).
enum ChildMembership<Element: QueryIndexElement>: SetMembership {
    static func key(of node: QueryIndexNode<Element>) -> JSONValue { node.step }

    static func hash(_ key: JSONValue) -> UInt64 {
        var hasher = Hasher()
        hasher.combine(key)
        return UInt64(UInt(bitPattern: hasher.finalize()))
    }

    static func matches(_ node: QueryIndexNode<Element>, _ key: JSONValue) -> Bool { node.step == key }
}

/// A trie node; a reference type so paths can be walked and edited in place (`QueryIndex` copies
/// the trie before mutating a shared one).
final class QueryIndexNode<Element: QueryIndexElement> {
    typealias Children = HashedSet<ChildMembership<Element>>

    /// The canonical bytes of this node's prefix as an open array ready for one more element:
    /// `[` at the root, `["m",` below it.
    let path: [UInt8]
    /// The last element of this node's prefix (null at the root, which has none).
    let step: JSONValue
    // Each change of one of the four sets is a single call on it that reaches no node, and walks
    // over the sets change nothing, so no two accesses overlap: they are not checked for
    // exclusivity (the check cost more than inserting a leaf).
    /// Elements whose key is this prefix plus one scalar.
    @exclusivity(unchecked) var scalarLeaves = ObjectSet<Element>()
    /// Elements whose key is this prefix plus one array or object.
    @exclusivity(unchecked) var structuredLeaves = ObjectSet<Element>()
    /// Longer prefixes continuing with a scalar.
    @exclusivity(unchecked) var scalarChildren = Children()
    /// Longer prefixes continuing with an array or an object.
    @exclusivity(unchecked) var structuredChildren = Children()

    init(path: [UInt8], step: JSONValue) {
        self.path = path
        self.step = step
    }

    /// Whether the node holds no element and no child, so its parent can drop it.
    var isEmpty: Bool {
        scalarLeaves.isEmpty && structuredLeaves.isEmpty && scalarChildren.isEmpty && structuredChildren.isEmpty
    }

    /// Appends the canonical bytes of one key element.
    static func appendCanonical(_ element: JSONValue, to bytes: inout [UInt8]) {
        QueryKey(elements: [element]).withCanonicalBytes { array in
            bytes.append(contentsOf: array[1..<(array.count - 1)])
        }
    }

    /// The child reached by `element`, if any.
    func child(_ element: JSONValue) -> QueryIndexNode? {
        isStructured(element) ? structuredChildren.member(element) : scalarChildren.member(element)
    }

    /// The child reached by the key element whose canonical bytes are `bytes`, created if needed.
    func descend(canonicalBytes bytes: UnsafeRawBufferPointer) -> QueryIndexNode {
        let element: JSONValue
        do {
            // The bytes are one element of a stored key's own canonical encoding, so they parse.
            element = try JSONParser.parse(bytes, maxDepth: .max)
        } catch {
            preconditionFailure("a query key element's canonical bytes do not parse: \(error)")
        }
        if let existing = child(element) { return existing }
        var path = self.path
        path.append(contentsOf: bytes)
        path.append(UInt8(ascii: ","))
        let node = QueryIndexNode(path: path, step: element)
        if isStructured(element) {
            structuredChildren.insertNew(node)
        } else {
            scalarChildren.insertNew(node)
        }
        return node
    }

    /// Drops the child reached by `element`.
    func removeChild(_ element: JSONValue) {
        if isStructured(element) {
            structuredChildren.remove(element)
        } else {
            scalarChildren.remove(element)
        }
    }

    /// Adds `element` (not stored yet), whose key ends below this node with an array or object
    /// (`structured`) or a scalar.
    func insertLeaf(_ element: Element, structured: Bool) {
        if structured {
            structuredLeaves.insertNew(element)
        } else {
            scalarLeaves.insertNew(element)
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
    /// Elements are handed out unretained; only structured leaves are read (to match their last
    /// element).
    func visit(prefix: ArraySlice<JSONValue>, table: QueryTable<Element>, _ body: (Unmanaged<Element>) -> Void) {
        guard let element = prefix.first else {
            visitAll(body)
            return
        }
        let rest = prefix.dropFirst()
        switch element {
        case .array, .object:
            structuredChildren.forEach { node in
                if KeyMatching.partialMatch(node.step, filter: element) { node.visit(prefix: rest, table: table, body) }
            }
            guard rest.isEmpty else { return }
            structuredLeaves.forEachUnretained { leaf in
                if let last = leaf.takeUnretainedValue().key.elements.last,
                    KeyMatching.partialMatch(last, filter: element)
                {
                    body(leaf)
                }
            }
        default:
            if rest.isEmpty, !scalarLeaves.isEmpty {
                var bytes = path
                Self.appendCanonical(element, to: &bytes)
                bytes.append(UInt8(ascii: "]"))
                if let exact = bytes.withUnsafeBytes({ table.element(canonicalBytes: $0) }) {
                    body(.passUnretained(exact))
                }
            }
            child(element)?.visit(prefix: rest, table: table, body)
        }
    }

    /// Calls `body` for every element at or below this node, unretained.
    func visitAll(_ body: (Unmanaged<Element>) -> Void) {
        scalarLeaves.forEachUnretained(body)
        structuredLeaves.forEachUnretained(body)
        scalarChildren.forEach { $0.visitAll(body) }
        structuredChildren.forEach { $0.visitAll(body) }
    }

    /// The number of nodes below this one and of elements at or below it (for tests of pruning).
    var shape: (nodes: Int, leaves: Int) {
        var result = (nodes: 0, leaves: scalarLeaves.count + structuredLeaves.count)
        let add = { (node: QueryIndexNode) in
            let below = node.shape
            result.nodes += 1 + below.nodes
            result.leaves += below.leaves
        }
        scalarChildren.forEach(add)
        structuredChildren.forEach(add)
        return result
    }

    /// A copy of this subtree that shares no node with it (elements are shared).
    func deepCopy() -> QueryIndexNode {
        let copy = QueryIndexNode(path: path, step: step)
        copy.scalarLeaves = scalarLeaves
        copy.structuredLeaves = structuredLeaves
        scalarChildren.forEach { copy.scalarChildren.insertNew($0.deepCopy()) }
        structuredChildren.forEach { copy.structuredChildren.insertNew($0.deepCopy()) }
        return copy
    }
}
