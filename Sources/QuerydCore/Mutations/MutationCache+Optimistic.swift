// Optimistic writes of mutations: made at submission (cancelling the key's fetch first, so a
// late fetch answer cannot overwrite them), committed on success, rolled back exactly on failure,
// and the guard that postpones a successful mutation's invalidation of a key while another
// mutation's optimistic write to it is still pending (B137).

import QuerydJSON

extension MutationCache {
    /// Makes the mutation's optimistic writes in order. When one does not fit its query, the
    /// writes already made are rolled back and the failure is thrown.
    func applyOptimisticWrites(of mutation: Mutation) throws(CacheFailure) {
        for target in mutation.options.optimistic {
            let previous = optimistic[target.key]
            let (query, snapshot) = queries.prepareOptimisticWrite(target.key)
            let entry: OptimisticEntry
            if let previous, previous.isCurrent(in: queries) {
                entry = previous
            } else {
                entry = OptimisticEntry(query: query, base: snapshot)
                entry.postponedInvalidation = previous?.postponedInvalidation ?? false
                optimistic[target.key] = entry
            }
            let time = now
            do {
                try queries.writeOptimistic(query, target.write, at: time)
            } catch {
                if entry.layers.isEmpty { close(entry) }
                rollBackOptimisticWrites(of: mutation)
                throw error
            }
            entry.layers.append(.init(mutation: mutation.id, write: target.write, at: time, committed: false))
            entry.written = .init(query.state)
            mutation.optimisticKeys.append(target.key)
        }
    }

    /// The mutation failed: its writes are removed and each query gets back its state from before
    /// them (with the writes of other pending mutations re-applied). A query someone else wrote
    /// since keeps that newer state.
    func rollBackOptimisticWrites(of mutation: Mutation) {
        for key in unique(mutation.optimisticKeys) {
            guard let entry = optimistic[key] else { continue }
            entry.layers.removeAll { $0.mutation == mutation.id }
            guard entry.isCurrent(in: queries) else {
                close(entry)
                continue
            }
            queries.restoreSnapshot(entry.query, entry.base)
            var kept: [OptimisticEntry.Layer] = []
            for layer in entry.layers {
                // A merge patch that no longer fits the restored data is dropped with its write.
                if (try? queries.writeOptimistic(entry.query, layer.write, at: layer.at)) != nil { kept.append(layer) }
            }
            entry.layers = kept
            entry.written = .init(entry.query.state)
            if !entry.isOpen { close(entry) }
        }
    }

    /// The mutation succeeded: its writes stay. An entry with no pending writes left is closed.
    func commitOptimisticWrites(of mutation: Mutation) {
        for key in unique(mutation.optimisticKeys) {
            guard let entry = optimistic[key] else { continue }
            for index in entry.layers.indices where entry.layers[index].mutation == mutation.id {
                entry.layers[index].committed = true
            }
            if !entry.isOpen || !entry.isCurrent(in: queries) { close(entry) }
        }
    }

    /// Writes a successful mutation's result to `key`. Over another mutation's pending optimistic
    /// write it becomes part of that entry, so a later rollback keeps it.
    func writeSettled(_ write: QueryWrite, to key: QueryKey, by mutation: Mutation) {
        if let entry = optimistic[key], entry.isCurrent(in: queries), entry.isOpen {
            let time = now
            guard (try? queries.writeOptimistic(entry.query, write, at: time)) != nil else {
                entry.postponedInvalidation = true
                return
            }
            entry.layers.append(.init(mutation: mutation.id, write: write, at: time, committed: true))
            entry.written = .init(entry.query.state)
            return
        }
        if (try? queries.set(key: key, write, updatedAt: nil)) == nil, let query = queries.query(key) {
            queries.invalidate(query, refetchType: .active)
        } else {
            queries.reportMutationWrite(to: key)
        }
        if let entry = optimistic[key], !entry.isCurrent(in: queries) { close(entry) }
    }

    /// Whether the invalidation of `key` by a successful `mutation` must wait because another
    /// unsettled mutation's optimistic write is in place; if so it is recorded for later.
    func postponeInvalidation(of key: QueryKey, for mutation: Mutation) -> Bool {
        guard let entry = optimistic[key], entry.isCurrent(in: queries),
            entry.layers.contains(where: { !$0.committed && $0.mutation != mutation.id })
        else { return false }
        entry.postponedInvalidation = true
        return true
    }

    /// Forgets an entry; a postponed invalidation of its query runs now, or at the end of the
    /// settlement in progress.
    private func close(_ entry: OptimisticEntry) {
        let key = entry.query.key
        if optimistic[key] === entry { optimistic[key] = nil }
        guard entry.postponedInvalidation else { return }
        if dueInvalidations != nil {
            dueInvalidations!.append(key)
        } else if let query = queries.query(key) {
            queries.invalidate(query, refetchType: .active)
        }
    }

    private func unique(_ keys: [QueryKey]) -> [QueryKey] {
        var seen: Set<QueryKey> = []
        return keys.filter { seen.insert($0).inserted }
    }
}
