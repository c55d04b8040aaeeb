// `--max-depth` against the stack: a depth the loop thread's stack cannot recurse through is
// lowered at start, so no flag value makes the daemon crashable from the socket.

import QuerydJSON

extension ServerConfiguration {
    /// Lowers `maxDepth` to what a stack of `stackBytes` can handle (`JSONNestingLimit`); returns
    /// a sentence for the log when it did.
    public mutating func clampMaxDepth(toStackBytes stackBytes: Int) -> String? {
        let deepest = JSONNestingLimit.maximumDepth(stackBytes: stackBytes)
        guard maxDepth > deepest else { return nil }
        let requested = maxDepth
        maxDepth = deepest
        return "--max-depth \(requested) lowered to \(deepest): deeper values would overflow the "
            + "\(stackBytes / 1024) KiB stack (raise it with ulimit -s)"
    }
}
