// Garbage collection: a query nobody observes is removed gcTime after it became unused, unless a
// fetch is running then (the timer is re-armed when the fetch settles). Reset and remove re-arm
// it too, so no unused query stays forever (TanStack leaves reset queries uncollected).

extension QueryCache {
    /// Arms the gc timer of a query that has no subscriptions and no running fetch. With
    /// `restart` (a fetch settled, the last subscriber left) the countdown starts again; without
    /// (a cache hit, a write) an armed timer is left as it is, as TanStack does.
    func collectWhenUnused(_ query: Query, restart: Bool = true) {
        guard query.subscriptions.isEmpty, query.run == nil, queries[query.key] === query else { return }
        if !restart, query.gcTimer != nil { return }
        if let timer = query.gcTimer {
            scheduler.cancel(timer)
            query.gcTimer = nil
        }
        guard let gcTime = query.gcTime else { return }
        query.gcTimer = scheduler.schedule(after: gcTime) { [weak self, weak query] in
            guard let self, let query else { return }
            query.gcTimer = nil
            guard query.subscriptions.isEmpty, query.run == nil else { return }
            self.forget(query)
        }
    }
}
