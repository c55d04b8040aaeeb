// When mutations may run: one at a time per scope, in submission order, and while the network
// allows (`networkMode`: `online` only online, `always` regardless, `offlineFirst` the first attempt
// regardless). Offline, new mutations and retries pause (`isPaused`); attempts already out at a
// mutator go on. Back online, paused mutations resume in submission order, scoped ones
// one after another.

extension MutationCache {
    /// Whether the mutation may start an attempt now: its network mode allows it, it is the first
    /// unsettled mutation of its scope, and (for a hydrated one) a mutator for its key is registered.
    func canStart(_ mutation: Mutation) -> Bool {
        let mode = mutation.options.networkMode
        guard mode.allowsAttempt(online: isOnline, attemptsSoFar: mutation.retryer.attempts) else { return false }
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
    /// resumes paused mutations in submission order and records them in `resuming`.
    /// `QueryCache.setOnline` calls this first and refetches queries once they have settled.
    public func setOnline(_ online: Bool) {
        guard online != isOnline else { return }
        isOnline = online
        resuming = online ? Set(unsettled.filter(\.state.isPaused).map(\.id)) : []
        if online { resumeRunnable() }
    }
}
