// One-shot deadlines for many objects at the cost of one scheduler timer per distinct deadline.
//
// Garbage collection gives every unused query a deadline; a scheduler timer each (a heap entry, a
// closure context, a weak reference's side table) would cost more than the query's own state. Here
// members with the same deadline share one bucket (an array of references) and one timer. A member
// records its bucket's number and its slot in that bucket (two 32-bit fields), so cancelling is
// O(1): the bucket's live count drops, and the stale reference (whose member no longer points back
// at it) is skipped when the bucket fires, or dropped earlier when the bucket compacts.

/// An object that can wait in `DeadlineBuckets`: it stores where it waits. Only `DeadlineBuckets`
/// writes these fields.
protocol DeadlineMember: AnyObject {
    /// The number of the bucket the member waits in (0: it waits in none).
    var bucketNumber: UInt32 { get set }
    /// The member's index in that bucket.
    var bucketSlot: UInt32 { get set }
}

/// Members waiting for deadlines, grouped by deadline; each non-empty group owns one timer.
struct DeadlineBuckets<Member: DeadlineMember> {
    private final class Bucket {
        let deadline: Int64
        /// Members in the order they were added; an entry is live when its member's bucket number
        /// is this bucket's and its slot is the entry's index.
        /// nil where `takeDue` handed the member out (so the bucket no longer keeps it alive).
        ///
        /// Each non-nil entry holds one retain of its member, taken by `add` and given up by
        /// `takeDue` (to the caller, or released for a stale entry), by `compact` (stale entries)
        /// or by `deinit`. The entries are `Unmanaged` so that the array itself is trivially
        /// destroyed: a bucket of millions taken in slices is all nil at its end, and an array of
        /// optional references would still visit every entry when freed (20 ms at 5,000,000).
        ///
        /// Appended to for every query a write leaves unused; no access spans a call that could
        /// reach it again (the buckets call nothing outside themselves), so accesses are not
        /// checked for exclusivity.
        @exclusivity(unchecked) var members: [Unmanaged<Member>?]
        /// How many of `members` still wait for this deadline.
        var live = 1
        /// The entries before this index were handed out by `takeDue` (the bucket is being taken
        /// in slices) or no longer wait.
        var taken = 0
        var timer: TimerHandle?

        /// A bucket of `member`, with room for `expected` members (the size the bucket before it
        /// grew to: deadlines one after another get about as many members).
        init(_ member: Member, deadline: Int64, expected: Int) {
            self.deadline = deadline
            members = []
            members.reserveCapacity(expected)
            members.append(.passRetained(member))
        }

        /// Makes `member`, whose bucket is numbered `number`, wait here after the rest.
        func append(_ member: Member, number: UInt32) {
            member.bucketNumber = number
            member.bucketSlot = UInt32(members.count)
            members.append(.passRetained(member))
            live += 1
        }

        deinit {
            for entry in members[taken...] { entry?.release() }
        }
    }

    /// Buckets by number - 1; nil entries are free numbers (listed in `freeNumbers`).
    private var buckets: [Bucket?] = []
    private var freeNumbers: [UInt32] = []
    private var numbersByDeadline: [Int64: UInt32] = [:]
    /// The bucket made last: the one still growing while the clock stays on its millisecond.
    private var newestNumber: UInt32 = 0
    /// The bucket numbered `newestNumber` while it is in `buckets` (nil otherwise), unretained:
    /// `buckets` keeps it, and `release` clears this when it leaves there. Most adds go to it, so
    /// they reach it without an array lookup or reference counting.
    private var newest: Unmanaged<Bucket>?

    /// Creates an empty set of buckets.
    init() {}

    /// The number of distinct deadlines waited for.
    var bucketCount: Int { numbersByDeadline.count }

    /// The deadline `member` waits for, if any.
    func deadline(of member: Member) -> Int64? {
        member.bucketNumber == 0 ? nil : buckets[Int(member.bucketNumber) - 1]?.deadline
    }

    /// Makes `member` wait for `deadline` (after the members already waiting for it), cancelling
    /// any deadline it waited for. Returns true when `deadline` is new: the caller must then
    /// schedule a timer for it and hand it over with `setTimer(_:for:)`.
    mutating func add(_ member: Member, at deadline: Int64) -> Bool {
        if member.bucketNumber != 0 { cancel(member) }
        // Members added one after another mostly share their deadline: the newest bucket's.
        if let newest, newest._withUnsafeGuaranteedRef({ $0.deadline == deadline }) {
            let number = newestNumber
            newest._withUnsafeGuaranteedRef { $0.append(member, number: number) }
            return false
        }
        if let number = numbersByDeadline[deadline], let bucket = buckets[Int(number) - 1] {
            bucket.append(member, number: number)
            return false
        }
        let expected = newest?._withUnsafeGuaranteedRef { min($0.members.count, Self.mostReserved) } ?? 1
        trimNewestBucket()
        let bucket = Bucket(member, deadline: deadline, expected: expected)
        let number: UInt32
        if let free = freeNumbers.popLast() {
            number = free
            buckets[Int(number) - 1] = bucket
        } else {
            buckets.append(bucket)
            number = UInt32(buckets.count)
        }
        numbersByDeadline[deadline] = number
        newestNumber = number
        newest = Unmanaged.passUnretained(bucket)
        member.bucketNumber = number
        member.bucketSlot = 0
        return true
    }

    /// The most room a new bucket sets aside ahead (see `Bucket.init`).
    private static var mostReserved: Int { 1 << 16 }

    /// Gives back the spare capacity of the bucket made last, now that a newer deadline has its
    /// own: deadlines mostly grow with the clock, so it rarely grows again, and an array that
    /// doubled as it filled is a quarter empty on average (at a million waiting queries, ~3 MB).
    private func trimNewestBucket() {
        newest?._withUnsafeGuaranteedRef { bucket in
            guard bucket.members.capacity > bucket.members.count + 8 else { return }
            bucket.members = bucket.members.withUnsafeBufferPointer { Array($0) }
        }
    }

    /// Records the timer that fires the bucket of `deadline`, so that it can be cancelled.
    func setTimer(_ timer: TimerHandle, for deadline: Int64) {
        guard let number = numbersByDeadline[deadline] else { return }
        buckets[Int(number) - 1]?.timer = timer
    }

    /// Stops `member` waiting. Returns the timer to cancel when its bucket became empty.
    @discardableResult
    mutating func cancel(_ member: Member) -> TimerHandle? {
        let number = member.bucketNumber
        guard number != 0 else { return nil }
        member.bucketNumber = 0
        guard let bucket = buckets[Int(number) - 1] else { return nil }
        bucket.live -= 1
        if bucket.live == 0 {
            release(number, deadline: bucket.deadline)
            return bucket.timer
        }
        // A bucket being taken in slices is not compacted: the slices walk its entries anyway.
        if bucket.taken == 0, bucket.members.count > 2 * bucket.live + 8 {
            compact(bucket, number: number)
        }
        return nil
    }

    /// Frees a bucket's number for reuse (its entries go with the bucket object).
    private mutating func release(_ number: UInt32, deadline: Int64) {
        if number == newestNumber {
            newestNumber = 0
            newest = nil
        }
        numbersByDeadline[deadline] = nil
        buckets[Int(number) - 1] = nil
        freeNumbers.append(number)
    }

    /// Drops the entries of `bucket` that are no longer live and renumbers the slots of the rest.
    private func compact(_ bucket: Bucket, number: UInt32) {
        var kept: [Unmanaged<Member>?] = []
        kept.reserveCapacity(bucket.live)
        for (index, entry) in bucket.members.enumerated() {
            guard let entry else { continue }
            guard Self.isLive(entry.takeUnretainedValue(), at: index, number) else {
                entry.release()
                continue
            }
            entry.takeUnretainedValue().bucketSlot = UInt32(kept.count)
            kept.append(entry)
        }
        bucket.members = kept
        // Every live entry was at or after `taken`.
        bucket.taken = 0
    }

    private static func isLive(_ member: Member, at index: Int, _ number: UInt32) -> Bool {
        member.bucketNumber == number && Int(member.bucketSlot) == index
    }

    /// Removes the bucket of `deadline` (its timer fired) and returns the members still waiting for
    /// it, in the order they were added, each no longer waiting.
    mutating func takeDue(_ deadline: Int64) -> [Member] {
        takeDue(deadline, limit: .max).due
    }

    /// Takes at most `limit` of the members still waiting for `deadline` (its timer fired), in the
    /// order they were added, each no longer waiting; `more` tells whether some are left for the
    /// next call. The bucket goes once it is taken to its end, so one call never walks more than
    /// `limit` members (and the stale entries between them, at most about as many: see `cancel`).
    mutating func takeDue(_ deadline: Int64, limit: Int) -> (due: [Member], more: Bool) {
        guard let number = numbersByDeadline[deadline], let bucket = buckets[Int(number) - 1] else {
            return ([], false)
        }
        var due: [Member] = []
        due.reserveCapacity(min(limit, bucket.live))
        var index = bucket.taken
        let count = bucket.members.count
        while index < count, due.count < limit {
            // Each entry taken is cleared: the members go with this slice, not with the bucket.
            if let entry = bucket.members[index] {
                let member = entry.takeRetainedValue()
                if Self.isLive(member, at: index, number) {
                    member.bucketNumber = 0
                    due.append(member)
                }
            }
            bucket.members[index] = nil
            index += 1
        }
        bucket.taken = index
        bucket.live -= due.count
        guard index < count, bucket.live > 0 else {
            release(number, deadline: deadline)
            return (due, false)
        }
        return (due, true)
    }
}
