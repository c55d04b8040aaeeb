// A prefix match over a `QueryIndex` done in steps of bounded work, with the index changing
// between steps: what a sweep over millions of queries uses instead of `forEachMatch`.
//
// The cursor walks the same trie paths as `QueryIndexNode.visit`, depth first, keeping a stack of
// frames: one per node on the current path, each with its progress through the node's four sets.
// A set is walked in hash order a window at a time (`HashedSet.visitWindow`), so its progress is a
// hash, which stays true however the set grows, shrinks or migrates; a children window's children
// are remembered by their step and walked one after another. Frames hold no node: each step finds
// the path's nodes again from the root (a node pruned since ends its frames; one pruned and made
// again holds only elements added since).
//
// What a walk visits, exactly once each: every element present when it began that is still present
// when the walk reaches it. An element removed before that is not visited; an element added during
// the walk may be visited (when the walk has not yet passed its place), and callers that want only
// the elements present at the start skip the ones added since.

public import QuerydJSON

/// A step-by-step walk over the elements of a `QueryIndex` whose keys partially match a prefix
/// (see `QueryIndex.forEachMatch(prefix:_:)`), each visited once, in unspecified order.
public struct QueryIndexCursor<Element: QueryIndexElement> {
    private let prefix: [JSONValue]
    /// The nodes of the current path, the root first; empty when the walk is done.
    private var frames: [Frame]

    /// One node on the current path and how far its sets have been walked.
    private struct Frame {
        /// The key element leading from the node below in the stack to this one (nil at the root).
        let step: JSONValue?
        /// Which of the node's sets is being walked (see `stage(_:depth:)`).
        var stage = 0
        /// Where the walk of that set resumes, in hash order; nil once it is done.
        var lower: UInt64? = 0
        /// Children of the last window not walked yet, by step.
        var pending: [JSONValue] = []
    }

    /// What a node's walk goes through, in order.
    private enum Stage {
        /// The element whose key is the node's prefix plus the last (scalar) filter element, then
        /// the child that element leads to.
        case scalarFilter
        case scalarLeaves, structuredLeaves, scalarChildren, structuredChildren
    }

    /// Starts a walk over the elements whose keys partially match `prefix` (every element when it
    /// is empty); nothing is visited until `step`.
    public init(prefix: [JSONValue]) {
        self.prefix = prefix
        frames = [Frame(step: nil)]
    }

    /// Whether the walk has visited everything.
    public var isDone: Bool { frames.isEmpty }

    /// The `number`th set a node at `depth` (its prefix has that many elements) goes through, nil
    /// after the last: below the end of the filter prefix all four; at a scalar filter element only
    /// the exact element and the one child; at a structured one the structured children and (for
    /// the last filter element) the structured leaves, each checked against the filter element.
    private func stage(_ number: Int, depth: Int) -> Stage? {
        guard depth < prefix.count else {
            return number < 4 ? [.scalarLeaves, .structuredLeaves, .scalarChildren, .structuredChildren][number] : nil
        }
        switch (prefix[depth], number) {
        case (.array, 0), (.object, 0): return .structuredChildren
        case (.array, 1), (.object, 1): return depth == prefix.count - 1 ? .structuredLeaves : nil
        case (.array, _), (.object, _): return nil
        default: return number == 0 ? .scalarFilter : nil
        }
    }

    /// Walks on until about `budget` units of work are done (a unit: a slot examined or a node
    /// entered) or the walk ends, calling `body` with each element reached, unretained. Returns the
    /// work done (at least 1). `body` must not change `index`.
    public mutating func step(in index: QueryIndex<Element>, budget: Int, _ body: (Unmanaged<Element>) -> Void) -> Int {
        guard let root = index.node([]) else {
            frames = []
            return 1
        }
        // The nodes of the frames, found again from the root (nodes pruned since end their frames).
        var nodes = [root]
        for frame in frames.dropFirst() {
            guard let step = frame.step, let node = nodes[nodes.count - 1].child(step) else { break }
            nodes.append(node)
        }
        frames.removeLast(frames.count - nodes.count)
        var used = 0
        while used < budget, let node = nodes.last {
            used += 1
            let top = frames.count - 1
            let depth = top
            guard let stage = stage(frames[top].stage, depth: depth) else {
                frames.removeLast()
                nodes.removeLast()
                continue
            }
            if let next = frames[top].pending.popLast() {
                if let child = node.child(next) {
                    frames.append(Frame(step: next))
                    nodes.append(child)
                }
                continue
            }
            guard let lower = frames[top].lower else {
                frames[top].stage += 1
                frames[top].lower = 0
                continue
            }
            // (Not `: nil`, which JSONValue's nil literal would make `.null`.)
            let filter = depth < prefix.count ? Optional.some(prefix[depth]) : Optional.none
            let slots = max(1, (budget - used) / 2)
            let window: (upper: UInt64?, examined: Int)
            switch stage {
            case .scalarFilter:
                let element = prefix[depth]
                if depth == prefix.count - 1, !node.scalarLeaves.isEmpty {
                    var bytes = node.path
                    QueryIndexNode<Element>.appendCanonical(element, to: &bytes)
                    bytes.append(UInt8(ascii: "]"))
                    if let exact = bytes.withUnsafeBytes({ index.element(canonicalBytes: $0) }) {
                        body(.passUnretained(exact))
                    }
                }
                frames[top].pending = [element]
                window = (nil, 1)
            case .scalarLeaves:
                window = node.scalarLeaves.visitWindow(from: lower, slots: slots) { leaf in body(leaf) }
            case .structuredLeaves:
                window = node.structuredLeaves.visitWindow(from: lower, slots: slots) { leaf in
                    guard let filter else { return body(leaf) }
                    if let last = leaf.takeUnretainedValue().key.elements.last,
                        KeyMatching.partialMatch(last, filter: filter)
                    {
                        body(leaf)
                    }
                }
            case .scalarChildren, .structuredChildren:
                var steps: [JSONValue] = []
                let collect = { (child: Unmanaged<QueryIndexNode<Element>>) in
                    let step = child.takeUnretainedValue().step
                    if let filter, !KeyMatching.partialMatch(step, filter: filter) { return }
                    steps.append(step)
                }
                window =
                    stage == .scalarChildren
                    ? node.scalarChildren.visitWindow(from: lower, slots: slots, collect)
                    : node.structuredChildren.visitWindow(from: lower, slots: slots, collect)
                frames[top].pending = steps
            }
            frames[top].lower = window.upper
            used += window.examined
        }
        return max(used, 1)
    }
}
