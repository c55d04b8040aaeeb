// The reused list the engine appends its effects to, and the one way to take them out.
//
// Draining hands the effects over in order and keeps its storage, so a steady stream of inputs
// allocates nothing here. Pushes, the most frequent effect (a publish makes one per subscription),
// wait in a lane of their own (`PushLane`) and come out a run at a time through a handler of their
// own, with one slot in the ordered list per run of consecutive pushes: as general effects they
// cost a push 231 instructions more than when the engine called the server directly (callgrind,
// BENCHMARKS §12).
// A drain started while one runs (an applied effect that answers a reply, which drains first to
// keep pushes ahead of replies) returns at once: the outer drain is already applying everything in
// order. Applying an effect never calls back into the engine, so nothing is appended meanwhile;
// should something be, it is applied in the same drain.

/// The engine's pending effects, in the order they were decided.
public final class EffectBuffer {
    /// One place in the ordered list: a general effect, or a run of pushes in the lane.
    private enum Slot {
        case effect(EngineEffect)
        case pushes(count: Int)
    }

    /// Touched for every input. No access spans a call that could reach it again: appends are
    /// single accesses, and `drain` reads one slot at a time by index, so accesses are not checked
    /// for exclusivity.
    @exclusivity(unchecked) private var pending: [Slot] = []
    private let pushes = PushLane()
    /// Pushes appended since the last slot, not yet recorded as a run.
    private var openRun = 0
    private var isDraining = false

    /// An empty buffer.
    public init() {}

    /// Whether no effect waits.
    public var isEmpty: Bool { pending.isEmpty && openRun == 0 }

    /// Adds an effect after those already waiting.
    func append(_ effect: EngineEffect) {
        closeRun()
        pending.append(.effect(effect))
    }

    /// Adds a `push` effect after those already waiting (through the push lane).
    @inline(__always)
    func appendPush(_ view: QueryView, subscription: SubscriptionID, connection: ConnectionID) {
        pushes.append(view, subscription: subscription, connection: connection)
        openRun += 1
    }

    /// Records the pushes appended since the last slot as one run.
    private func closeRun() {
        guard openRun > 0 else { return }
        pending.append(.pushes(count: openRun))
        openRun = 0
    }

    /// Hands every waiting effect out, oldest first: each run of consecutive pushes to `pushes`
    /// (which takes them with `PushRun.next()` or `forEach(to:_:)`), the others to `apply`; leaves the
    /// buffer empty.
    public func drain(pushes: (inout PushRun) -> Void, _ apply: (EngineEffect) -> Void) {
        guard !isDraining else { return }
        isDraining = true
        defer { isDraining = false }
        closeRun()
        var index = 0
        while index < pending.count {
            switch pending[index] {
            case .effect(let effect):
                apply(effect)
            case .pushes(let count):
                self.pushes.take(count, pushes)
            }
            index += 1
            if index == pending.count { closeRun() }
        }
        pending.removeAll(keepingCapacity: true)
        self.pushes.removeAll()
    }

    /// Hands every waiting effect to `apply`, oldest first (pushes as `push` effects), and leaves
    /// the buffer empty.
    public func drain(_ apply: (EngineEffect) -> Void) {
        drain(
            pushes: { run in
                while let push = run.next() {
                    apply(.push(push.view, subscription: push.subscription, connection: push.connection))
                }
            }, apply)
    }

    /// Removes and returns every waiting effect (for tests and tools that log them).
    public func takeAll() -> [EngineEffect] {
        var taken: [EngineEffect] = []
        drain { taken.append($0) }
        return taken
    }
}
