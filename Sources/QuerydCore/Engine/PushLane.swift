// The pushes waiting in the effect buffer: a growable array of (view, subscription, connection)
// in one manually managed allocation, handed to the server a run at a time. A publish appends one
// per subscription, and a Swift Array cost about 100 instructions per element to append and drain
// here (uniqueness and capacity checks, copying each element out and destroying it again) against a
// whole push path of about 1,300; a closure call per push cost about 30 more (callgrind, BENCHMARKS
// §12), so a run goes out whole and the server's loop over it is inlined. A publish pushes one view
// to most of its subscriptions, so the lane holds each view once for a sequence of pushes of it
// (not once per push), and `PushRun.forEach(to:_:)` lends the views out without retaining them.
//
// Invariants (the reason the unsafe code is sound): `storage` holds `capacity` slots, of which
// those from `taken` up to `count` hold pushes not yet taken; the others are unused. A slot's view
// is unretained; `views` holds a strong reference to every view a slot from 0 to `count` names
// (it is appended whenever a push's view is not the last one appended), and lets them go only in
// `removeAll` (which empties the slots) or `deinit`. A `PushRun` reads slots the lane already
// counts as taken, so nothing else touches them, and it only lives inside `take` (the lane does
// not empty or grow, moving its storage, while a run is out). The slots are plain values (an
// unmanaged reference and two integers), so moving them needs no initialization bookkeeping. It
// is used on the loop thread only.

/// One push waiting to be applied: its view is held by the lane's `views`.
@usableFromInline
struct PendingPush {
    @usableFromInline let view: Unmanaged<QueryView>
    @usableFromInline let subscription: SubscriptionID
    @usableFromInline let connection: ConnectionID

    init(view: Unmanaged<QueryView>, subscription: SubscriptionID, connection: ConnectionID) {
        self.view = view
        self.subscription = subscription
        self.connection = connection
    }
}

/// A run of consecutive pushes, in the order they were decided: each comes out once, with its
/// view, from `next()`; those not taken are dropped with the run.
public struct PushRun: ~Copyable {
    @usableFromInline let slots: UnsafeMutablePointer<PendingPush>
    @usableFromInline let end: Int
    @usableFromInline var index: Int

    init(slots: UnsafeMutablePointer<PendingPush>, range: Range<Int>) {
        self.slots = slots
        end = range.upperBound
        index = range.lowerBound
    }

    /// The next push of the run, or nil after the last.
    @inlinable
    public mutating func next() -> (view: QueryView, subscription: SubscriptionID, connection: ConnectionID)? {
        guard index < end else { return nil }
        let push = slots[index]
        index += 1
        return (push.view.takeUnretainedValue(), push.subscription, push.connection)
    }

    /// The connection the next push of the run goes to, or nil after the last.
    @inlinable
    public var nextConnection: ConnectionID? { index < end ? slots[index].connection : nil }

    /// Hands the pushes at the head of the run that go to `connection` to `body`, in order; each
    /// view is lent for the call (neither retained nor released: the lane holds it until the run is
    /// over).
    @inlinable
    public mutating func forEach(to connection: ConnectionID, _ body: (QueryView, SubscriptionID) -> Void) {
        while index < end, slots[index].connection == connection {
            let push = slots[index]
            index += 1
            push.view._withUnsafeGuaranteedRef { body($0, push.subscription) }
        }
    }
}

/// A growable list of pending pushes whose elements are moved out when taken.
final class PushLane {
    private var storage: UnsafeMutablePointer<PendingPush>
    private var capacity: Int
    private var count = 0
    /// How many pushes from the start were handed out in runs.
    private var taken = 0
    /// Whether a run is out (the storage must not move).
    private var isLending = false
    /// The views of the pushes, each held once for a sequence of pushes of it. Accessed only by
    /// `append` and `removeAll`, which call nothing that could reach it, so accesses are not
    /// checked for exclusivity.
    @exclusivity(unchecked) private var views: [QueryView] = []

    init(capacity: Int = 64) {
        self.capacity = capacity
        storage = UnsafeMutablePointer<PendingPush>.allocate(capacity: capacity)
    }

    deinit {
        storage.deallocate()
    }

    /// Adds a push of `view` at the end (the lane keeps `view` until `removeAll`).
    @inline(__always)
    func append(_ view: QueryView, subscription: SubscriptionID, connection: ConnectionID) {
        if count == capacity { grow() }
        if views.isEmpty || views[views.count - 1] !== view { views.append(view) }
        (storage + count).initialize(
            to: PendingPush(view: .passUnretained(view), subscription: subscription, connection: connection))
        count += 1
    }

    /// Hands the next `n` pushes (there must be that many) to `body` as one run.
    @inline(__always)
    func take(_ n: Int, _ body: (inout PushRun) -> Void) {
        precondition(n <= count - taken, "take(_:_:) past the last push")
        var run = PushRun(slots: storage, range: taken..<(taken + n))
        taken += n
        isLending = true
        body(&run)
        isLending = false
    }

    /// Forgets every push and lets go of their views, keeping the storage.
    func removeAll() {
        precondition(!isLending, "the pushes emptied while a run is applied")
        count = 0
        taken = 0
        views.removeAll(keepingCapacity: views.count <= 1024)
    }

    private func grow() {
        precondition(!isLending, "a push appended while a run is applied")
        let larger = capacity * 2
        let moved = UnsafeMutablePointer<PendingPush>.allocate(capacity: larger)
        // The taken prefix holds no values: only the slots from `taken` move, to the same offsets.
        (moved + taken).moveInitialize(from: storage + taken, count: count - taken)
        storage.deallocate()
        storage = moved
        capacity = larger
    }
}
