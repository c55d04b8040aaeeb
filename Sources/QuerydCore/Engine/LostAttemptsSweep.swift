// Failing the attempts in flight at a closed connection's fetchers when there are more than a
// slice of them: in slices, in the order they began, like the subscriptions it leaves
// (QueryCache+Sweeps.swift).

/// The attempts a closed connection had in flight, sorted by id in steps, then failed in slices
/// with "Fetcher disconnected" (each retried elsewhere as its `retry` allows). One that ended
/// before its slice (timed out, cancelled, its query removed) is no longer current and is skipped.
final class LostAttemptsSweep: Sweep {
    private var sorter: IncrementalSort<AttemptID>?
    private var lost: [AttemptID] = []
    private var index = 0
    private(set) var isDone = false

    init(_ lost: [AttemptID]) {
        sorter = IncrementalSort(lost) { $0.rawValue < $1.rawValue }
    }

    func advance(in cache: QueryCache, budget: Int) -> Int {
        if sorter != nil { return stepSort(&sorter, budget: budget) { lost = $0 } }
        let end = min(index + budget, lost.count)
        for attempt in lost[index..<end] {
            cache.attemptFailed(attempt, error: AttemptError.fetcherDisconnected)
        }
        let used = end - index
        index = end
        if index == lost.count {
            isDone = true
            lost = []
        }
        return max(used, 1)
    }
}
