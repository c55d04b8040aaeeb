// One-shot deadlines for many objects at the cost of one scheduler timer per distinct deadline.
//
// Garbage collection gives every unused query a deadline; a scheduler timer each (a heap entry, a
// closure context, a weak reference's side table) would cost more than the query's own state. Here
// members with the same deadline share one bucket (an array of references) and one timer. A member
// records its deadline and its slot in that bucket, so cancelling is O(1): the bucket's live count
// drops, and the stale reference (whose member no longer points back at it) is skipped when the
// bucket fires, or dropped earlier when the bucket compacts.

/// An object that can wait in `DeadlineBuckets`: it stores the deadline it waits for.
protocol DeadlineMember: AnyObject {
    /// The deadline the member waits for in its `DeadlineBuckets`, or nil when it waits for none.
    /// Only `DeadlineBuckets` writes it.
    var bucketDeadline: Int64? { get set }
    /// The member's index in the bucket of `bucketDeadline`. Only `DeadlineBuckets` writes it.
    var bucketSlot: UInt32 { get set }
}

/// Members waiting for deadlines, grouped by deadline; each non-empty group owns one timer.
struct DeadlineBuckets<Member: DeadlineMember> {
    private final class Bucket {
        /// Members in the order they were added; an entry is live when its member's deadline is this
        /// bucket's and its slot is the entry's index.
        var members: [Member]
        /// How many of `members` still wait for this deadline.
        var live = 1
        var timer: TimerHandle?

        init(_ member: Member) {
            members = [member]
        }
    }

    private var buckets: [Int64: Bucket] = [:]

    /// Creates an empty set of buckets.
    init() {}

    /// The number of distinct deadlines waited for.
    var bucketCount: Int { buckets.count }

    /// Makes `member` wait for `deadline` (after the members already waiting for it), cancelling
    /// any deadline it waited for. Returns true when `deadline` is new: the caller must then
    /// schedule a timer for it and hand it over with `setTimer(_:for:)`.
    mutating func add(_ member: Member, at deadline: Int64) -> Bool {
        cancel(member)
        member.bucketDeadline = deadline
        if let bucket = buckets[deadline] {
            member.bucketSlot = UInt32(bucket.members.count)
            bucket.members.append(member)
            bucket.live += 1
            return false
        }
        member.bucketSlot = 0
        buckets[deadline] = Bucket(member)
        return true
    }

    /// Records the timer that fires the bucket of `deadline`, so that it can be cancelled.
    func setTimer(_ timer: TimerHandle, for deadline: Int64) {
        buckets[deadline]?.timer = timer
    }

    /// Stops `member` waiting. Returns the timer to cancel when its bucket became empty.
    @discardableResult
    mutating func cancel(_ member: Member) -> TimerHandle? {
        guard let deadline = member.bucketDeadline else { return nil }
        member.bucketDeadline = nil
        guard let bucket = buckets[deadline] else { return nil }
        bucket.live -= 1
        if bucket.live == 0 {
            buckets[deadline] = nil
            return bucket.timer
        }
        if bucket.members.count > 2 * bucket.live + 8 {
            compact(bucket, deadline: deadline)
        }
        return nil
    }

    /// Drops the entries of `bucket` that are no longer live and renumbers the slots of the rest.
    private func compact(_ bucket: Bucket, deadline: Int64) {
        var kept: [Member] = []
        kept.reserveCapacity(bucket.live)
        for (index, member) in bucket.members.enumerated() where Self.isLive(member, at: index, deadline) {
            member.bucketSlot = UInt32(kept.count)
            kept.append(member)
        }
        bucket.members = kept
    }

    private static func isLive(_ member: Member, at index: Int, _ deadline: Int64) -> Bool {
        member.bucketDeadline == deadline && Int(member.bucketSlot) == index
    }

    /// Removes the bucket of `deadline` (its timer fired) and returns the members still waiting for
    /// it, in the order they were added, each no longer waiting.
    mutating func takeDue(_ deadline: Int64) -> [Member] {
        guard let bucket = buckets.removeValue(forKey: deadline) else { return [] }
        var due: [Member] = []
        due.reserveCapacity(bucket.live)
        for (index, member) in bucket.members.enumerated() where Self.isLive(member, at: index, deadline) {
            member.bucketDeadline = nil
            due.append(member)
        }
        return due
    }
}
