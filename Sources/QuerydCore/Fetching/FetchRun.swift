// One fetch of one query from its start to its settlement (its attempts and retries counted by a
// `Retryer`, the one mutations use too).
//
// A run makes attempts, each sent to a fetcher; between attempts it waits out the retry delay, and
// while no fetcher matches its key it is paused. Every caller and subscriber that wants the same
// query shares the run (deduplication). Its `revertState` is what a cancel with revert restores.

import QuerydJSON

/// Identifies one attempt, i.e. one `fetch` request to one fetcher.
public struct AttemptID: Hashable, Sendable, CustomStringConvertible {
    public let rawValue: Int
    public init(_ rawValue: Int) { self.rawValue = rawValue }
    public var description: String { String(rawValue) }
}

/// Identifies someone waiting for an answer (a `query.fetch` caller, a `mutation.run` caller):
/// chosen by the server, named by the `answer` effects.
public struct WaiterToken: Hashable, Sendable {
    public let rawValue: Int
    public init(_ rawValue: Int) { self.rawValue = rawValue }
}

/// What a waiter of a fetch is answered with once it settles.
enum WaiterView {
    /// The query through the caller's staleTime and select (`query.fetch`, `query.ensure`).
    case caller
    /// The subscription's view while it still watches the query (`query.refetch {subscription}`,
    /// a page fetch of a subscription); else as `caller`.
    case subscription(Subscription)
    /// The query-level state, as `query.state` shows it, while the key is cached (a refetch or page
    /// fetch by key); else as `caller`.
    case queryState
}

/// A fetch in progress.
final class FetchRun {
    /// Where the run stands.
    enum Phase {
        /// An attempt is out at a fetcher.
        case attempting(AttemptID)
        /// Waiting out the delay before the next attempt.
        case waitingToRetry(TimerHandle)
        /// No fetcher matches the key; resumes when one registers.
        case waitingForFetcher
        /// Offline; resumes when the network comes back.
        case waitingForNetwork
    }

    struct Waiter {
        let token: WaiterToken
        let staleTime: StaleTime
        let select: JSONPointer?
        /// A refetch caller is answered with the query's state even when the fetch failed.
        let acceptsFailedState: Bool
        let view: WaiterView
        var timeoutTimer: TimerHandle?
    }

    let options: ResolvedOptions
    var phase: Phase = .waitingForFetcher
    var retryer: Retryer
    /// Set when nobody wants the result any more but the fetcher cannot be cancelled: the attempt
    /// in flight may finish, but no further attempt starts.
    var retriesCancelled = false
    /// The fetcher (and its connection) of the latest attempt.
    var attemptFetcher: (id: FetcherID, connection: ConnectionID)?
    /// Whether the fetcher of the latest attempt honours cancellation.
    var lastAttemptCancellable = false
    var revertState: QueryState
    var waiters: [Waiter] = []
    /// For an infinite query: which pages this run fetches.
    var pageFetch: PageFetch?

    /// When the fetch started (clock milliseconds), for its duration in `FetchTotals`.
    let startedAt: Int64

    init(options: ResolvedOptions, revertState: QueryState, startedAt: Int64) {
        self.options = options
        self.startedAt = startedAt
        self.revertState = revertState
        self.retryer = Retryer(retry: options.retry, retryDelay: options.retryDelay)
    }

    /// The attempt in flight, if any.
    var currentAttempt: AttemptID? {
        if case .attempting(let id) = phase { return id }
        return nil
    }
}

extension FetchRun.Waiter {
    /// Whether this waiter is answered exactly as `other` is, whatever the outcome: the same view
    /// (never a subscription's own), staleTime, select and acceptance of a failed state.
    func seesTheSame(as other: FetchRun.Waiter) -> Bool {
        let sameView =
            switch (view, other.view) {
            case (.caller, .caller), (.queryState, .queryState): true
            default: false
            }
        return sameView && staleTime == other.staleTime && select == other.select
            && acceptsFailedState == other.acceptsFailedState
    }
}
