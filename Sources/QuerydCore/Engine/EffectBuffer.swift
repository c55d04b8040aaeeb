// The reused list the engine appends its effects to, and the one way to take them out.
//
// Draining hands the effects over in order and keeps both storages, so a steady stream of inputs
// allocates nothing here. A drain started while one runs (an applied effect that answers a reply,
// which drains first to keep pushes ahead of replies) returns at once: the outer drain is already
// applying everything in order.

/// The engine's pending effects, in the order they were decided.
public final class EffectBuffer {
    // Touched for every effect (a publish appends one per subscription). No access to either list
    // spans a call that could reach it again: `append` is one access; `drain` swaps them, iterates a
    // copy of `applying` (its storage unique again once the loop ends) and only then empties it,
    // and the effects it hands out may append to `pending` but never reach `applying`. So accesses
    // are not checked for exclusivity (measured: a set pushed to 10,000 subscriptions, 1.0 ms with
    // the checks, 0.9 ms without, in the core benchmark).
    @exclusivity(unchecked) private var pending: [EngineEffect] = []
    @exclusivity(unchecked) private var applying: [EngineEffect] = []
    private var isDraining = false

    /// An empty buffer.
    public init() {}

    /// Whether no effect waits.
    public var isEmpty: Bool { pending.isEmpty }

    /// Adds an effect after those already waiting.
    func append(_ effect: EngineEffect) {
        pending.append(effect)
    }

    /// Hands every waiting effect to `apply`, oldest first, including effects appended meanwhile,
    /// and leaves the buffer empty.
    public func drain(_ apply: (EngineEffect) -> Void) {
        guard !isDraining else { return }
        isDraining = true
        defer { isDraining = false }
        while !pending.isEmpty {
            swap(&pending, &applying)
            for effect in applying { apply(effect) }
            applying.removeAll(keepingCapacity: true)
        }
    }

    /// Removes and returns every waiting effect (for tests and tools that log them).
    public func takeAll() -> [EngineEffect] {
        var taken: [EngineEffect] = []
        drain { taken.append($0) }
        return taken
    }
}
