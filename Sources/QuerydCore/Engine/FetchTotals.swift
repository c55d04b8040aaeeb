// The engine's fetch counters for `server.stats`: fetches started and settled, and a histogram of
// their durations (from the start of a fetch to its settlement, in clock milliseconds) in fixed
// buckets. Updated once per fetch start and once per settlement, never on a read.

/// Fetches started and settled since the daemon started, and how long the settled ones took.
public struct FetchTotals: Sendable, Equatable {
    /// The histogram's bucket bounds in milliseconds (each bucket counts durations up to its bound;
    /// longer ones count only in `settled`, Prometheus' `+Inf` bucket).
    public static let bucketBounds: [Int64] = [5, 10, 25, 50, 100, 250, 500, 1000, 2500, 5000, 10000, 30000]

    /// Fetches started (not a caller joining the one running).
    public internal(set) var started = 0
    /// Fetches that ended: with data, failed or cancelled.
    public internal(set) var settled = 0
    /// How many settled fetches took at most each bound (cumulative, as Prometheus counts them).
    public internal(set) var bucketCounts = [Int](repeating: 0, count: bucketBounds.count)
    /// The settled fetches' durations added up, in milliseconds.
    public internal(set) var durationSumMs: Int64 = 0

    mutating func settled(after duration: Int64) {
        settled += 1
        durationSumMs += duration
        for index in Self.bucketBounds.indices where duration <= Self.bucketBounds[index] {
            bucketCounts[index] += 1
        }
    }
}
