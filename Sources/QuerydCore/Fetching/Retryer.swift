// TanStack's retryer, shared by fetches and mutations: it counts attempts and failures, keeps the
// last failure and the attempt's timeout timer, and decides after each failure whether another
// attempt follows and after what delay.
//
// The delay is `retryDelay` when set, else TanStack's default min(1000 × 2^(failures − 1), 30000) ms
// (see RetryShapes.swift for the shapes of `retry` and `retryDelay`).

import QuerydJSON

/// The attempt-and-retry bookkeeping of one fetch or one mutation.
struct Retryer {
    let retry: RetrySetting
    let retryDelay: RetryDelay
    /// Attempts started (1 for the first attempt; `fetch` and `mutate` requests carry it).
    private(set) var attempts = 0
    /// Attempts that failed.
    private(set) var failures = 0
    /// The error of the latest failed attempt.
    private(set) var lastFailure: JSONValue?
    /// The timeout of the attempt in flight, if it has one.
    var attemptTimer: TimerHandle?

    init(retry: RetrySetting, retryDelay: RetryDelay?) {
        self.retry = retry
        self.retryDelay = retryDelay ?? .standard
    }

    /// Counts a new attempt.
    mutating func attemptStarted() {
        attempts += 1
    }

    /// Counts attempts from 1 again (an infinite refetch going on to its next page).
    mutating func restartAttempts() {
        attempts = 0
    }

    /// Counts a failed attempt; returns the delay before the next attempt (at least
    /// `minimumDelay`; a jittered delay draws from `jitter`), or nil when no attempt follows.
    mutating func attemptFailed(_ error: JSONValue, minimumDelay: Int64 = 0, jitter: inout JitterSource) -> Int64? {
        failures += 1
        lastFailure = error
        guard retry.allowsRetry(afterFailures: failures, error: error) else { return nil }
        return max(minimumDelay, retryDelay.delay(afterFailures: failures, jitter: &jitter))
    }
}
