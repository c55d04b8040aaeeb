// How a trie node finds its children: scalar children by the canonical bytes of the key element
// that leads to each (no JSONValue is built and no `Hasher` runs on an insertion's descent),
// structured ones by the element's value. Each child keeps its hash, so a set's migration moves
// children without hashing them again.

import QuerydJSON

/// A scalar key element's canonical bytes (from a key's own encoding) and their hash.
struct ScalarStep {
    let bytes: UnsafeRawBufferPointer
    let hash: UInt64

    init(_ bytes: UnsafeRawBufferPointer) {
        self.bytes = bytes
        hash = Self.hash(bytes)
    }

    /// The hash of canonical scalar bytes, alike for JSON-equal scalars. Canonical bytes are a
    /// normal form of JSON equality except for integral numbers beyond Int64, which print as digits
    /// (a big-integer literal) or with an exponent (a double) and are equal across the two forms
    /// (`1e20 == 100000000000000000000`): such numbers hash by their nearest double.
    static func hash(_ bytes: UnsafeRawBufferPointer) -> UInt64 {
        guard isWideNumber(bytes) else { return KeyHash.process(bytes) }
        let nearest = Double(String(decoding: bytes, as: UTF8.self)) ?? 0
        return withUnsafeBytes(of: nearest.bitPattern) { KeyHash.process($0) }
    }

    /// Whether `bytes` are a number that may equal one printed otherwise: one with an exponent or
    /// at least 19 bytes long (every integer beyond Int64 is, in either form; some others too).
    static func isWideNumber(_ bytes: UnsafeRawBufferPointer) -> Bool {
        let first = bytes[0]
        guard first == UInt8(ascii: "-") || first &- UInt8(ascii: "0") < 10 else { return false }
        guard bytes.count < 19 else { return true }
        // 0x20 turns "E" into "e" and leaves digits, signs and the point as they are.
        for byte in bytes where byte | 0x20 == UInt8(ascii: "e") { return true }
        return false
    }
}

/// Finds a trie node's scalar children by their step's canonical bytes, with JSON equality
/// (`1 == 1.0` already have equal bytes; see `ScalarStep.hash(_:)` for the one exception).
enum ScalarChildMembership<Element: QueryIndexElement>: SetMembership {
    static func hash(of node: QueryIndexNode<Element>) -> UInt64 { node.stepHash }

    static func hash(_ key: ScalarStep) -> UInt64 { key.hash }

    static func matches(_ node: QueryIndexNode<Element>, _ key: ScalarStep) -> Bool {
        guard node.stepHash == key.hash else { return false }
        if node.withStepBytes({ QueryTable<Element>.equal($0, key.bytes) }) { return true }
        // Equal hashes of different bytes: only two wide numbers can still be equal.
        guard ScalarStep.isWideNumber(key.bytes), let value = try? JSONParser.parse(key.bytes) else { return false }
        return node.step == value
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
