// What `--persist` keeps of mutations: the paused ones. Every published change of a mutation that
// is paused now, or was when last reported, is reported (`pausedMutationsChanged`), and the
// persistence writer then rewrites the stored paused mutations as `dehydrateMutations()` lists them.

extension MutationCache {
    /// While data changes are reported (`--persist`): reports that the paused mutations changed when
    /// this one is paused now or was when last reported, so the store keeps exactly the paused ones.
    func reportPausedChange(of mutation: Mutation) {
        guard queries.reportsDataChanges else { return }
        let paused = mutation.state.isPaused && !mutation.isSettled
        guard paused || mutation.isPersisted else { return }
        mutation.isPersisted = paused
        effects.append(.pausedMutationsChanged)
    }
}

extension QueryCache {
    /// The mutation cache next to this query cache, if one was made.
    public var attachedMutationCache: MutationCache? { mutationCache }
}
