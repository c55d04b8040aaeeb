// Resolved options held by reference, so the many queries created with the same options share one
// copy instead of each storing the whole `ResolvedOptions` struct inline.

/// An immutable box around `ResolvedOptions`, shared by every query whose last options are equal.
final class SharedOptions: Sendable {
    /// The options.
    let value: ResolvedOptions

    init(_ value: ResolvedOptions) {
        self.value = value
    }
}

extension QueryCache {
    /// A box for `options`: the one given to the last query created when the options are equal
    /// (queries are mostly created in runs with the same options), else a new one.
    func share(_ options: ResolvedOptions) -> SharedOptions {
        if let recentOptions, recentOptions.value == options { return recentOptions }
        let shared = SharedOptions(options)
        recentOptions = shared
        return shared
    }
}
