// Hash tables that never grow in one long step: entries split by hash over 64 standard tables.
//
// A Swift `Dictionary` or `Set` doubles by rehashing every entry at once: when 200,000 fetches
// start in one loop turn, the tables keyed by attempt pass 196,608 entries together and each
// growth holds the loop for 12–25 ms (BENCHMARKS §11). Split by hash into 64 tables, a growth
// rehashes about a 64th of the entries, and the shards, filling alike, grow a few at a time over
// thousands of insertions (the persistence writer's `PendingKeys` keeps its keys in one too).
// The types are inlinable: used from another module (the server's table of requests to a fetcher),
// unspecialized generic code looked up the dictionaries' metadata and hashed through witness
// tables on every access, a fifth of the time of starting 200,000 fetches.

/// A dictionary whose entries are split over 64 standard dictionaries by the key's hash. Order of
/// iteration is unspecified, as for `Dictionary`.
public struct ShardedDictionary<Key: Hashable, Value>: Sequence {
    /// The number of standard dictionaries the entries are split over (a power of two).
    @usableFromInline
    static var shardCount: Int { 64 }
    @usableFromInline
    var shards = [[Key: Value]](repeating: [:], count: Self.shardCount)
    @usableFromInline
    var entryCount = 0

    /// An empty dictionary.
    @inlinable
    public init() {}

    /// The number of entries.
    @inlinable
    public var count: Int { entryCount }

    /// Whether there are no entries.
    @inlinable
    public var isEmpty: Bool { entryCount == 0 }

    /// The shard `key` belongs to.
    @inlinable @inline(__always)
    static func shard(of key: Key) -> Int { key.hashValue & (shardCount - 1) }

    /// The value for `key`; setting nil removes the entry.
    @inlinable
    public subscript(key: Key) -> Value? {
        get { shards[Self.shard(of: key)][key] }
        set {
            if let newValue {
                updateValue(newValue, forKey: key)
            } else {
                removeValue(forKey: key)
            }
        }
    }

    /// Stores `value` for `key`; returns the value it replaced, if any.
    @inlinable @discardableResult
    public mutating func updateValue(_ value: Value, forKey key: Key) -> Value? {
        let old = shards[Self.shard(of: key)].updateValue(value, forKey: key)
        if old == nil { entryCount += 1 }
        return old
    }

    /// Removes the entry for `key`; returns its value, if there was one.
    @inlinable @discardableResult
    public mutating func removeValue(forKey key: Key) -> Value? {
        let old = shards[Self.shard(of: key)].removeValue(forKey: key)
        if old != nil { entryCount -= 1 }
        return old
    }

    /// The entry count of each shard (for tests of the split).
    var shardCounts: [Int] { shards.map(\.count) }

    /// Iterates every entry, shard by shard.
    @inlinable
    public func makeIterator() -> FlattenSequence<[[Key: Value]]>.Iterator {
        shards.joined().makeIterator()
    }
}

extension ShardedDictionary: Sendable where Key: Sendable, Value: Sendable {}

/// A set whose members are split over 64 standard tables by hash (a `ShardedDictionary` with no
/// values). Order of iteration is unspecified, as for `Set`.
public struct ShardedSet<Element: Hashable>: Sequence {
    @usableFromInline
    var members = ShardedDictionary<Element, Void>()

    /// An empty set.
    @inlinable
    public init() {}

    /// The number of members.
    @inlinable
    public var count: Int { members.count }

    /// Whether there are no members.
    @inlinable
    public var isEmpty: Bool { members.isEmpty }

    /// Adds `member`; returns whether it was not a member before.
    @inlinable @discardableResult
    public mutating func insert(_ member: Element) -> Bool {
        members.updateValue((), forKey: member) == nil
    }

    /// Whether `member` is a member.
    @inlinable
    public func contains(_ member: Element) -> Bool {
        members[member] != nil
    }

    /// Removes `member`; returns it if it was a member.
    @inlinable @discardableResult
    public mutating func remove(_ member: Element) -> Element? {
        members.removeValue(forKey: member).map { member }
    }

    /// Iterates every member.
    @inlinable
    public func makeIterator() -> LazyMapSequence<ShardedDictionary<Element, Void>, Element>.Iterator {
        members.lazy.map(\.key).makeIterator()
    }
}

extension ShardedSet: Sendable where Element: Sendable {}
