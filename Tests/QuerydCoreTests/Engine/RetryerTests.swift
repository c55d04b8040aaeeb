// The one retryer of fetches and mutations: which failures are retried and after what delay.

import QuerydJSON
import Testing

@testable import QuerydCore

@Suite struct RetryerTests {
    @Test func theDefaultDelayDoublesFromOneSecondUpToThirtySeconds() {
        var retryer = Retryer(retry: .forever, retryDelay: nil)
        let delays = (1...8).map { _ in retryer.attemptFailed("e") }
        #expect(delays == [1000, 2000, 4000, 8000, 16_000, 30_000, 30_000, 30_000])
        #expect(retryer.failures == 8)
    }

    @Test func aCountAllowsThatManyRetriesThenNone() {
        var retryer = Retryer(retry: .count(2), retryDelay: 50)
        retryer.attemptStarted()
        #expect(retryer.attemptFailed("first") == 50)
        retryer.attemptStarted()
        #expect(retryer.attemptFailed("second") == 50)
        retryer.attemptStarted()
        #expect(retryer.attemptFailed("third") == nil)
        #expect(retryer.attempts == 3 && retryer.failures == 3 && retryer.lastFailure == "third")
    }

    @Test func aMinimumDelayAndANegativeRetryDelayAreHonoured() {
        var zero = Retryer(retry: .count(1), retryDelay: 0)
        #expect(zero.attemptFailed("e", minimumDelay: 1) == 1)
        var negative = Retryer(retry: .count(1), retryDelay: -5)
        #expect(negative.attemptFailed("e") == 0)
    }

    @Test func restartingCountsAttemptsFromOneAgainButKeepsFailures() {
        var retryer = Retryer(retry: .count(3), retryDelay: nil)
        retryer.attemptStarted()
        _ = retryer.attemptFailed("e")
        retryer.restartAttempts()
        retryer.attemptStarted()
        #expect(retryer.attempts == 1 && retryer.failures == 1)
    }
}
