// The pushes waiting in the effect buffer: a growable array of (view, subscription, connection)
// in one manually managed allocation. A publish appends one per subscription, and a Swift Array
// cost about 100 instructions per element to append and drain here (uniqueness and capacity checks,
// copying each element out and destroying it again) against a whole push path of about 1,300.
//
// Invariants (the reason the unsafe code is sound): `storage` holds `capacity` slots, of which
// those from `taken` up to `count` hold pushes not yet taken; the others are unused. Each push
// holds one retain of its view (taken by `append`), given up exactly once: by `forEachTaking`
// after the view was handed out, or by `removeAll` / `deinit` for a push never taken. The slots
// are plain values (an unmanaged reference and two integers), so moving them needs no
// initialization bookkeeping. It is used on the loop thread only.

/// One push waiting to be applied: its view is retained while it waits.
struct PendingPush {
    let view: Unmanaged<QueryView>
    let subscription: SubscriptionID
    let connection: ConnectionID
}

/// A growable list of pending pushes whose elements are moved out when taken.
final class PushLane {
    private var storage: UnsafeMutablePointer<PendingPush>
    private var capacity: Int
    private var count = 0
    /// How many pushes from the start were moved out by `takeNext`.
    private var taken = 0

    init(capacity: Int = 64) {
        self.capacity = capacity
        storage = UnsafeMutablePointer<PendingPush>.allocate(capacity: capacity)
    }

    deinit {
        removeAll()
        storage.deallocate()
    }

    /// Adds a push of `view` at the end (the lane keeps `view` until the push is taken).
    @inline(__always)
    func append(_ view: QueryView, subscription: SubscriptionID, connection: ConnectionID) {
        if count == capacity { grow() }
        (storage + count).initialize(
            to: PendingPush(view: .passRetained(view), subscription: subscription, connection: connection))
        count += 1
    }

    /// Hands the next `n` pushes to `body` (there must be that many) and releases their views.
    @inline(__always)
    func take(_ n: Int, _ body: (QueryView, SubscriptionID, ConnectionID) -> Void) {
        precondition(n <= count - taken, "take(_:_:) past the last push")
        for index in taken..<(taken + n) {
            let push = storage[index]
            taken = index + 1
            push.view._withUnsafeGuaranteedRef { body($0, push.subscription, push.connection) }
            push.view.release()
        }
    }

    /// Forgets every push, releasing the views of those not taken, keeping the storage.
    func removeAll() {
        for index in taken..<count { storage[index].view.release() }
        count = 0
        taken = 0
    }

    private func grow() {
        let larger = capacity * 2
        let moved = UnsafeMutablePointer<PendingPush>.allocate(capacity: larger)
        // The taken prefix holds no values: only the slots from `taken` move, to the same offsets.
        (moved + taken).moveInitialize(from: storage + taken, count: count - taken)
        storage.deallocate()
        storage = moved
        capacity = larger
    }
}
