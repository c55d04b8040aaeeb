// An inner node of `QueryIndex`'s trie: one distinct proper prefix of the stored keys.
//
// A node holds the elements whose keys end one level below it (in two `ObjectSet`s: scalar last
// element, array/object last element) and the nodes of longer prefixes, found by the element that
// leads to them and split by kind, so a structured filter element partial-matches only structured
// siblings. Keys are never trie nodes themselves, so a million keys `["m", i]` live in one node's
// scalar set; a million keys `["user", i, "posts"]` make a million children of one node. Both kinds
// of set grow and shrink incrementally (`HashedSet`), so no insertion pays for a whole set.

import QuerydJSON

/// A trie node; a reference type so paths can be walked and edited in place (`QueryIndex` copies
/// the trie before mutating a shared one).
final class QueryIndexNode<Element: QueryIndexElement> {
    /// The canonical bytes of this node's prefix as an open array ready for one more element:
    /// `[` at the root, `["m",` below it.
    let path: [UInt8]
    /// Where the last element of this node's prefix starts in `path` (it ends before the comma).
    let stepStart: Int
    /// The last element of this node's prefix when it is an array or object (found by value);
    /// a scalar one is decoded from `path` when asked for (`step`).
    private let structuredStep: JSONValue?
    /// The hash this node is found under among its parent's children (0 at the root).
    let stepHash: UInt64
    // Each change of one of the four sets is a single call on it that reaches no node, and walks
    // over the sets change nothing, so no two accesses overlap: they are not checked for
    // exclusivity (the check cost more than inserting a leaf).
    /// Elements whose key is this prefix plus one scalar.
    @exclusivity(unchecked) var scalarLeaves = ObjectSet<Element>()
    /// Elements whose key is this prefix plus one array or object.
    @exclusivity(unchecked) var structuredLeaves = ObjectSet<Element>()
    /// Longer prefixes continuing with a scalar.
    @exclusivity(unchecked) var scalarChildren = HashedSet<ScalarChildMembership<Element>>()
    /// Longer prefixes continuing with an array or an object.
    @exclusivity(unchecked) var structuredChildren = HashedSet<StructuredChildMembership<Element>>()

    /// The root: the empty prefix.
    convenience init() {
        self.init(path: [UInt8(ascii: "[")], stepStart: 1, structuredStep: Optional.none, stepHash: 0)
    }

    private init(path: [UInt8], stepStart: Int, structuredStep: JSONValue?, stepHash: UInt64) {
        self.path = path
        self.stepStart = stepStart
        self.structuredStep = structuredStep
        self.stepHash = stepHash
    }

    /// The last element of this node's prefix (null at the root, which has none).
    var step: JSONValue {
        if let structuredStep { return structuredStep }
        guard stepStart < path.count else { return .null }
        return withStepBytes { Self.parse($0) }
    }

    /// Calls `body` with the canonical bytes of `step` (empty at the root).
    func withStepBytes<R>(_ body: (UnsafeRawBufferPointer) -> R) -> R {
        path.withUnsafeBytes { body(UnsafeRawBufferPointer(rebasing: $0[stepStart..<max(stepStart, path.count - 1)])) }
    }

    /// Whether the node holds no element and no child, so its parent can drop it.
    var isEmpty: Bool {
        scalarLeaves.isEmpty && structuredLeaves.isEmpty && scalarChildren.isEmpty && structuredChildren.isEmpty
    }

    /// Appends the canonical bytes of one key element.
    static func appendCanonical(_ element: JSONValue, to bytes: inout [UInt8]) {
        withCanonicalBytes(element) { bytes.append(contentsOf: $0) }
    }

    /// The child reached by `element`, if any.
    func child(_ element: JSONValue) -> QueryIndexNode? {
        if isStructured(element) { return structuredChildren.member(element) }
        return Self.withCanonicalBytes(element) { scalarChildren.member(ScalarStep($0)) }
    }

    /// The child reached by the key element whose canonical bytes are `bytes`, created if needed.
    /// Only a structured element is parsed and hashed by value.
    func descend(canonicalBytes bytes: UnsafeRawBufferPointer) -> QueryIndexNode {
        if QueryKey.isStructured(first: bytes[0]) {
            let element = Self.parse(bytes)
            if let existing = structuredChildren.member(element) { return existing }
            let node = makeChild(bytes, structuredStep: element, hash: StructuredChildMembership<Element>.hash(element))
            structuredChildren.insertNew(node)
            return node
        }
        let key = ScalarStep(bytes)
        if let existing = scalarChildren.member(key) { return existing }
        let node = makeChild(bytes, structuredStep: Optional.none, hash: key.hash)
        scalarChildren.insertNew(node)
        return node
    }

    /// A new child reached by the element with canonical bytes `bytes`.
    private func makeChild(_ bytes: UnsafeRawBufferPointer, structuredStep: JSONValue?, hash: UInt64) -> QueryIndexNode
    {
        var childPath = path
        // One allocation of the exact size (the array is shared until here), then two copies.
        childPath.reserveCapacity(path.count + bytes.count + 1)
        bytes.withMemoryRebound(to: UInt8.self) { childPath.append(contentsOf: $0) }
        childPath.append(UInt8(ascii: ","))
        return QueryIndexNode(path: childPath, stepStart: path.count, structuredStep: structuredStep, stepHash: hash)
    }

    private static func parse(_ bytes: UnsafeRawBufferPointer) -> JSONValue {
        do {
            // The bytes are one element of a stored key's own canonical encoding, so they parse.
            return try JSONParser.parse(bytes, maxDepth: .max)
        } catch {
            preconditionFailure("a query key element's canonical bytes do not parse: \(error)")
        }
    }

    /// Calls `body` with the canonical bytes of one key element.
    private static func withCanonicalBytes<R>(_ element: JSONValue, _ body: (UnsafeRawBufferPointer) -> R) -> R {
        QueryKey(elements: [element]).withCanonicalBytes {
            body(UnsafeRawBufferPointer(rebasing: $0[1..<($0.count - 1)]))
        }
    }

    /// Drops the child reached by `element`.
    func removeChild(_ element: JSONValue) {
        if isStructured(element) {
            structuredChildren.remove(element)
        } else {
            Self.withCanonicalBytes(element) { _ = scalarChildren.remove(ScalarStep($0)) }
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
        let copy = QueryIndexNode(path: path, stepStart: stepStart, structuredStep: structuredStep, stepHash: stepHash)
        copy.scalarLeaves = scalarLeaves
        copy.structuredLeaves = structuredLeaves
        scalarChildren.forEach { copy.scalarChildren.insertNew($0.deepCopy()) }
        structuredChildren.forEach { copy.structuredChildren.insertNew($0.deepCopy()) }
        return copy
    }
}
