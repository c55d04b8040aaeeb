// The daemon's request and push counters for `server.stats`: requests and error replies by method
// (only the methods of the method table, so the counters are bounded: an index into it each), and
// pushes queued (`query.changed`, `mutation.changed`, `cache.changed`). One integer add each.

/// Requests, errors and pushes counted since the daemon started.
struct ServerCounters {
    /// Requests (and notifications) dispatched to each method, by its index in the method table.
    var requests: [Int]
    /// Error replies a method's handler gave when it was called, by the method's index.
    var errors: [Int]
    /// Pushes queued on connections.
    var pushes = 0

    init(methods: Int) {
        requests = Array(repeating: 0, count: methods)
        errors = Array(repeating: 0, count: methods)
    }
}
