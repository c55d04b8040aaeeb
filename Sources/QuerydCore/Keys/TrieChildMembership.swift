// How a trie node finds its children: scalar children by the canonical bytes of the key element
// that leads to each (no JSONValue is built and no `Hasher` runs on an insertion's descent),
// structured ones by the element's value. Each child keeps its hash, so a set's migration moves
// children without hashing them again.

import QuerydJSON

/// A scalar key element's canonical bytes (from a key's own encoding) and their hash. Those bytes
/// are a normal form of JSON equality for scalars (strings in NFC, numbers in their identity text:
/// `1`, `1.0` and `1e0` all write `1`, `1e20` writes `100000000000000000000`), so byte equality is
/// the children's JSON equality.
struct ScalarStep {
    let bytes: UnsafeRawBufferPointer
    let hash: UInt64

    init(_ bytes: UnsafeRawBufferPointer) {
        self.bytes = bytes
        hash = KeyHash.process(bytes)
    }
}

/// Finds a trie node's scalar children by their step's canonical bytes (JSON equality, see
/// `ScalarStep`).
enum ScalarChildMembership<Element: QueryIndexElement>: SetMembership {
    static func hash(of node: QueryIndexNode<Element>) -> UInt64 { node.stepHash }

    static func hash(_ key: ScalarStep) -> UInt64 { key.hash }

    static func matches(_ node: QueryIndexNode<Element>, _ key: ScalarStep) -> Bool {
        node.stepHash == key.hash && node.withStepBytes { QueryTable<Element>.equal($0, key.bytes) }
    }

    static func withKey<R>(of node: QueryIndexNode<Element>, _ body: (ScalarStep) -> R) -> R {
        node.withStepBytes { body(ScalarStep($0)) }
    }
}

/// Finds a trie node's array and object children by the element that leads to each (JSON equality:
/// member order does not matter).
enum StructuredChildMembership<Element: QueryIndexElement>: SetMembership {
    static func hash(of node: QueryIndexNode<Element>) -> UInt64 { node.stepHash }

    static func hash(_ key: JSONValue) -> UInt64 {
        var hasher = Hasher()
        hasher.combine(key)
        return UInt64(UInt(bitPattern: hasher.finalize()))
    }

    static func matches(_ node: QueryIndexNode<Element>, _ key: JSONValue) -> Bool { node.step == key }

    static func withKey<R>(of node: QueryIndexNode<Element>, _ body: (JSONValue) -> R) -> R { body(node.step) }
}
