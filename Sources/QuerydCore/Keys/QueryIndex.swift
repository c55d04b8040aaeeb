// The cache's one index of its queries: exact lookup by key and TanStack prefix filters, in about
// 25 bytes per entry.
//
// A `QueryTable` finds a key exactly (from a `QueryKey` or straight from canonical bytes). A trie
// of inner nodes (`QueryIndexNode`, one per distinct proper prefix of the stored keys) answers
// prefix filters: each node keeps the elements whose keys end one level below it in identity sets,
// so a key costs one table slot and one set slot, and `["m", i]` for a million `i` is two nodes.
// Matching walks one path for scalar filter elements; at levels where the filter element is an
// array or object it partial-matches only the array and object siblings. A final scalar element is
// found exactly in the table; everything below the end of the prefix matches.

public import QuerydJSON

/// A set of elements with distinct keys, found exactly by key or by filter prefix with TanStack's
/// partial matching (`KeyMatching.matches(_:prefix:)`).
///
/// `QueryIndex` has value semantics (the trie is copied before mutating one shared with another
/// copy); the elements themselves are shared references.
public struct QueryIndex<Element: QueryIndexElement> {
    private var table = QueryTable<Element>()
    private var root = QueryIndexNode<Element>()
    /// The inner nodes (below the root, outermost first) on the path of the last insertion, so that
    /// a key inserted after another under a common prefix resumes below it instead of descending
    /// from the root. Every node here is in the trie: a node leaves it only when a removal prunes
    /// it, and a removal that prunes nodes drops them and the ones below them from here; a copy of
    /// the whole trie (`makeUnique`) forgets them all.
    private var lastPath: [QueryIndexNode<Element>] = []

    /// Creates an empty index.
    public init() {}

    /// The number of elements stored.
    public var count: Int { table.count }

    /// The element stored under `key`, if any.
    public subscript(key: QueryKey) -> Element? { table[key] }

    /// The element whose key has exactly these canonical bytes, if any.
    public func element(canonicalBytes bytes: UnsafeRawBufferPointer) -> Element? {
        table.element(canonicalBytes: bytes)
    }

    private mutating func makeUnique() {
        if !isKnownUniquelyReferenced(&root) {
            root = root.deepCopy()
            lastPath.removeAll()
        }
    }

    /// Adds `element`.
    /// - Precondition: no stored element has a key equal to `element.key` (checked in debug builds).
    public mutating func insert(_ element: Element) {
        makeUnique()
        table.insert(element)
        insertInTrie(element)
    }

    /// The element stored under `key`, or, when there is none, the one `make` returns (its key
    /// equal to `key`), added; `added` tells which. The key is hashed once for both.
    public mutating func element(for key: QueryKey, orAdding make: () -> Element) -> (element: Element, added: Bool) {
        let found = table.element(for: key, orAdding: make)
        if found.added {
            makeUnique()
            insertInTrie(found.element)
        }
        return found
    }

    /// Adds `element`, stored in the table, to the trie.
    private mutating func insertInTrie(_ element: Element) {
        element.key.withCanonicalBytes { bytes in
            // Resume below the deepest node of the last path that is still in the trie and whose
            // prefix the key continues.
            while let last = lastPath.last, !Self.continues(bytes, last.path) {
                lastPath.removeLast()
            }
            var node = lastPath.last ?? root
            var start = node.path.count
            // The key's elements are found in its canonical bytes, the children by those bytes;
            // the last element is only looked at.
            while true {
                let end = QueryKey.elementEnd(in: bytes, from: start)
                let step = UnsafeRawBufferPointer(rebasing: bytes[start..<end])
                guard bytes[end] == UInt8(ascii: ",") else {
                    node.insertLeaf(element, structured: QueryKey.isStructured(first: step[0]))
                    return
                }
                node = node.descend(canonicalBytes: step)
                lastPath.append(node)
                start = end + 1
            }
        }
    }

    /// Whether canonical key bytes `bytes` continue `path`, a node's open prefix (`["m",`).
    private static func continues(_ bytes: UnsafeRawBufferPointer, _ path: [UInt8]) -> Bool {
        let count = path.count
        return count < bytes.count
            && path.withUnsafeBytes { QueryTable<Element>.equal($0, UnsafeRawBufferPointer(rebasing: bytes[..<count])) }
    }

    /// Removes `element` (this exact object), pruning trie nodes left empty. Returns false,
    /// changing nothing, when it is not stored.
    @discardableResult
    public mutating func remove(_ element: Element) -> Bool {
        makeUnique()
        guard table.remove(element) else { return false }
        let elements = element.key.elements
        var path: [(parent: QueryIndexNode<Element>, step: JSONValue)] = []
        path.reserveCapacity(elements.count - 1)
        var node = root
        for step in elements.dropLast() {
            guard let next = node.child(step) else {
                preconditionFailure("QueryIndex: a stored key has no trie path")
            }
            path.append((node, step))
            node = next
        }
        node.removeLeaf(element, last: elements[elements.count - 1])
        while node.isEmpty, let (parent, step) = path.popLast() {
            parent.removeChild(step)
            node = parent
            // The pruned node was `path.count + 1` levels below the root: forget it and the
            // nodes below it if the last insertion's path went through them.
            if lastPath.count > path.count { lastPath.removeSubrange(path.count...) }
        }
        return true
    }

    /// Calls `body` with every stored element whose key partially matches `prefix` (see
    /// `KeyMatching.matches(_:prefix:)`), each once, in unspecified order. An empty prefix visits
    /// every element. The cost is proportional to the matches (plus the array or object siblings
    /// partial-matched where a filter element is structured), not to the number of elements.
    public func forEachMatch(prefix: [JSONValue], _ body: (Element) -> Void) {
        forEachUnretainedMatch(prefix: prefix) { body($0.takeUnretainedValue()) }
    }

    /// `forEachMatch(prefix:_:)` handing out the references unretained: over a set of leaves
    /// nothing but the index's own slots is read (no element's memory is touched).
    public func forEachUnretainedMatch(prefix: [JSONValue], _ body: (Unmanaged<Element>) -> Void) {
        if prefix.isEmpty {
            table.forEachUnretained(body)
        } else {
            root.visit(prefix: prefix[...], table: table, body)
        }
    }

    /// Every stored element, in unspecified order.
    public var all: [Element] {
        var result: [Element] = []
        result.reserveCapacity(count)
        table.forEach { result.append($0) }
        return result
    }

    /// The elements whose keys partially match `prefix`, in unspecified order.
    public func matches(prefix: [JSONValue]) -> [Element] {
        var result: [Element] = []
        forEachMatch(prefix: prefix) { result.append($0) }
        return result
    }

    /// The number of trie nodes below the root and of elements in their sets (for tests of
    /// pruning; the elements always number `count`).
    var shape: (nodes: Int, leaves: Int) { root.shape }

    /// Whether the exact-lookup table is moving its elements to new slots (for tests).
    var isMigrating: Bool { table.isMigrating }

    /// The trie node of `prefix`, if any (the root for an empty prefix).
    func node(_ prefix: [JSONValue]) -> QueryIndexNode<Element>? {
        var node: QueryIndexNode<Element>? = root
        for step in prefix { node = node?.child(step) }
        return node
    }

    /// The slot storage of the exact-lookup table per element (for tests of memory).
    var tableBytesPerEntry: Double { table.bytesPerEntry }
}
