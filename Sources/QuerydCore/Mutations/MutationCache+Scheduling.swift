// When mutations may run: one at a time per scope, in submission order, and only while the
// network is online. Offline, new mutations and retries pause (`isPaused`); attempts already out
// at a mutator go on. Back online, paused mutations resume in submission order, scoped ones
// one after another.

extension MutationCache {
    /// Whether the mutation may start an attempt now: online, first unsettled of its scope, and
    /// (for a hydrated one) a mutator for its key registered.
    func canStart(_ mutation: Mutation) -> Bool {
        guard isOnline else { return false }
        if mutation.waitsForMutator, registry.choose(for: mutation.state.key) == nil { return false }
        guard let scope = mutation.state.scope else { return true }
        return unsettled.first { $0.state.scope == scope } === mutation
    }

    /// Starts, in submission order, every queued mutation that may run now.
    func resumeRunnable() {
        // Iterates a copy; the condition is read as each mutation comes up, so a start that
        // settles at once (no mutator, no retry) lets the next of its scope start in turn.
        for mutation in unsettled where mutation.isQueued && canStart(mutation) {
            startAttempt(mutation)
        }
    }

    /// Sets the network state. Going offline pauses new mutations and retries; coming back online
    /// resumes paused mutations in submission order (call this before the query cache's own
    /// reconnect handling, so mutations resume first).
    public func setOnline(_ online: Bool) {
        guard online != isOnline else { return }
        isOnline = online
        if online { resumeRunnable() }
    }
}
