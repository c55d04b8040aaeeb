// How deep a JSON value may nest on a given thread's stack.
//
// Parsing, encoding, comparing, hashing, compacting, merge-patching and destroying a `JSONValue`
// each recurse once per level of nesting, so the depth a process can accept is bounded by the
// stack of the thread that handles values. The daemon clamps `--max-depth` to `maximumDepth` of
// its loop thread at start; `NestingStackTests` measures every recursive path against
// `stackBytesPerLevel`, so a value within the limit cannot exhaust the stack.

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// The stack budget of nested JSON values.
public enum JSONNestingLimit {
    /// Stack bytes one level of nesting may use on the deepest recursive path over a value, with
    /// headroom over what `NestingStackTests` measures (debug builds use several times more).
    #if DEBUG
        public static let stackBytesPerLevel = 4096
    #else
        public static let stackBytesPerLevel = 1024
    #endif

    /// Stack kept for everything around the recursion: the event loop, request dispatch, the
    /// engine and the libraries they call.
    public static let reservedStackBytes = 1024 * 1024

    /// The deepest nesting whose recursion fits in a stack of `stackBytes` (at least 1, with the
    /// reserve taken off).
    public static func maximumDepth(stackBytes: Int) -> Int {
        max(1, (stackBytes - reservedStackBytes) / stackBytesPerLevel)
    }

    /// The stack the main thread may grow to: the `RLIMIT_STACK` soft limit, with "unlimited" (`RLIM_INFINITY`, all bits set)
    /// counted as `unlimitedStackBytes`.
    public static func mainThreadStackBytes() -> Int {
        var limit = rlimit()
        #if canImport(Glibc)
            let resource = Int32(RLIMIT_STACK.rawValue)
        #else
            let resource = RLIMIT_STACK
        #endif
        guard getrlimit(resource, &limit) == 0, limit.rlim_cur != rlim_t.max else {
            return unlimitedStackBytes
        }
        return Int(clamping: limit.rlim_cur)
    }

    /// The stack size assumed for an unlimited (or unknown) `RLIMIT_STACK`.
    public static let unlimitedStackBytes = 64 * 1024 * 1024
}
