// Garbage collection: a query nobody observes is removed gcTime after it became unused, unless a
// fetch is running then (the timer is re-armed when the fetch settles). Reset and remove re-arm
// it too, so no unused query stays forever (TanStack leaves reset queries uncollected).
//
// Queries wait in `gcBuckets`, one scheduler timer per distinct deadline rather than one per query.

extension QueryCache {
    /// Arms the gc timer of a query that has no subscriptions and no running fetch. With
    /// `restart` (a fetch settled, the last subscriber left) the countdown starts again; without
    /// (a cache hit, a write) an armed timer is left as it is, as TanStack does.
    func collectWhenUnused(_ query: Query, restart: Bool = true) {
        collectWhenUnused(query, restart: restart, now: now)
    }

    /// `collectWhenUnused(_:restart:)` with the clock's time `now` already read.
    func collectWhenUnused(_ query: Query, restart: Bool, now: Int64) {
        // A query not forgotten is the cache's query of its key (see `Query.isForgotten`).
        guard query.isCollectable, !query.isForgotten else { return }
        if query.bucketNumber != 0 {
            if !restart { return }
            cancelCollection(query)
        }
        guard let gcTime = query.gcTime else { return }
        let deadline = now + max(gcTime, 0)
        guard gcBuckets.add(query, at: deadline) else { return }
        let timer = scheduler.schedule(at: deadline, .collect(deadline: deadline))
        gcBuckets.setTimer(timer, for: deadline)
    }

    /// Stops the query's pending collection, if any.
    func cancelCollection(_ query: Query) {
        if let timer = gcBuckets.cancel(query) { scheduler.cancel(timer) }
    }

    /// Collects the queries whose gc deadline `deadline` has come, in the order they were armed,
    /// skipping any that gained a subscription or a fetch since: one slice now, the rest in a
    /// sweep (QueryCache+Sweeps.swift) when more are due than a slice takes.
    func collectDue(_ deadline: Int64) {
        let (collected, more) = collectSlice(of: deadline, limit: sweepSliceSize)
        if more {
            continueCollecting(deadline, collected: collected)
        } else {
            collectionEnded(collected: collected)
        }
    }

    /// Collects at most `limit` of the queries due at `deadline`; returns how many it collected
    /// and whether more are due.
    func collectSlice(of deadline: Int64, limit: Int) -> (collected: Int, more: Bool) {
        let (due, more) = gcBuckets.takeDue(deadline, limit: limit)
        return (collect(due), more)
    }

    /// A collection of `collected` queries is over: the collected queries are freed by now, so
    /// their pages can go back.
    func collectionEnded(collected: Int) {
        if collected >= Self.collectionReleasingMemory { SystemMemory.releaseFreePages() }
    }

    /// Forgets each of `due` that still has no subscription and no fetch; returns how many.
    private func collect(_ due: consuming [Query]) -> Int {
        var collected = 0
        for query in due where query.isCollectable {
            forget(query)
            collected += 1
        }
        return collected
    }

    /// A collection of at least this many queries returns the freed memory to the system (glibc
    /// keeps it otherwise; the call walks the whole heap, so small collections skip it).
    static let collectionReleasingMemory = 50_000
}
