// The options of one `mutation.run`: retries, the optimistic writes made before the mutator is
// called, the cache work done after a success (invalidations, writes of the result), its scope.

public import QuerydJSON

/// One optimistic write: `write` goes to the query `key` before the mutator is called, and is
/// rolled back if the mutation fails.
public struct OptimisticWrite: Sendable, Equatable {
    public var key: QueryKey
    public var write: QueryWrite

    /// A write of `write` to `key`.
    public init(key: QueryKey, write: QueryWrite) {
        self.key = key
        self.write = write
    }
}

/// A write of (part of) the mutation's result to a query after a success.
public struct ResultWrite: Sendable, Equatable {
    public var key: QueryKey
    /// Where in the mutator's data the value is; the empty pointer is the whole data.
    public var fromResult: JSONPointer

    /// A write of the value at `fromResult` to `key`.
    public init(key: QueryKey, fromResult: JSONPointer) {
        self.key = key
        self.fromResult = fromResult
    }
}

/// What `mutation.run` may ask for besides calling the mutator.
public struct MutationOptions: Sendable, Equatable {
    /// Retries after a failed attempt (default none).
    public var retry: RetrySetting = .count(0)
    /// The delay between attempts; nil means min(1000 * 2^(failures-1), 30000) ms.
    public var retryDelay: RetryDelay?
    /// Milliseconds an attempt may take before it counts as failed with -32004.
    public var timeout: Int64?
    /// How long a settled mutation stays listed (ms; nil: until the daemon stops).
    public var gcTime: Int64? = 300_000
    public var optimistic: [OptimisticWrite] = []
    public var invalidate: [QueryFilter] = []
    public var setData: [ResultWrite] = []
    /// Mutations with the same scope run one after another, in submission order.
    public var scope: String?
    /// When the network state lets an attempt start (default `online`).
    public var networkMode = NetworkMode.online
    /// Any JSON the caller attaches (TanStack's mutation `meta`), echoed in the mutation's state.
    public var meta: JSONValue?
    /// The options object these were read from (nil for defaults), kept for snapshots and persistence.
    public var source: JSONValue?

    /// The defaults: no retry, no cache work, no scope.
    public init() {}
}

extension QueryWrite: Equatable {
    public static func == (a: QueryWrite, b: QueryWrite) -> Bool {
        switch (a, b) {
        case (.data(let x), .data(let y)), (.mergePatch(let x), .mergePatch(let y)): return x == y
        default: return false
        }
    }
}
