// Resolved options held by reference, so the many queries created with the same options share one
// copy instead of each storing the whole `ResolvedOptions` struct inline. The box also carries the
// query's gcTime (the longest any user asked for), which is almost always the options' own.

/// An immutable box around `ResolvedOptions` and a gcTime, shared by every query whose last
/// options and gcTime are equal.
final class SharedOptions: Sendable {
    /// The options.
    let value: ResolvedOptions
    /// The longest gcTime any user of the query asked for (nil: never collect).
    let gcTime: Int64?

    init(_ value: ResolvedOptions, gcTime: Int64?) {
        self.value = value
        self.gcTime = gcTime
    }
}

extension QueryCache {
    /// A box for `options` with their own gcTime: the one given to the last query created when
    /// the options are equal (queries are mostly created in runs with the same options), else a
    /// new one.
    func share(_ options: ResolvedOptions) -> SharedOptions {
        if let recentOptions, recentOptions.value == options { return recentOptions }
        let shared = SharedOptions(options, gcTime: options.gcTime)
        recentOptions = shared
        return shared
    }
}
