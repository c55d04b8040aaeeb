// The one retryer of fetches and mutations: which failures are retried and after what delay.

import QuerydJSON
import Testing

@testable import QuerydCore

@Suite struct RetryerTests {
    @Test func theDefaultDelayDoublesFromOneSecondUpToThirtySeconds() {
        var jitter = JitterSource(seed: 0)
        var retryer = Retryer(retry: .forever, retryDelay: nil)
        let delays = (1...8).map { _ in retryer.attemptFailed("e", jitter: &jitter) }
        #expect(delays == [1000, 2000, 4000, 8000, 16_000, 30_000, 30_000, 30_000])
        #expect(retryer.failures == 8)
    }

    @Test func aCountAllowsThatManyRetriesThenNone() {
        var jitter = JitterSource(seed: 0)
        var retryer = Retryer(retry: .count(2), retryDelay: .fixed(50))
        retryer.attemptStarted()
        #expect(retryer.attemptFailed("first", jitter: &jitter) == 50)
        retryer.attemptStarted()
        #expect(retryer.attemptFailed("second", jitter: &jitter) == 50)
        retryer.attemptStarted()
        #expect(retryer.attemptFailed("third", jitter: &jitter) == nil)
        #expect(retryer.attempts == 3 && retryer.failures == 3 && retryer.lastFailure == "third")
    }

    @Test func aMinimumDelayAndANegativeRetryDelayAreHonoured() {
        var jitter = JitterSource(seed: 0)
        var zero = Retryer(retry: .count(1), retryDelay: .fixed(0))
        #expect(zero.attemptFailed("e", minimumDelay: 1, jitter: &jitter) == 1)
        var negative = Retryer(retry: .count(1), retryDelay: .fixed(-5))
        #expect(negative.attemptFailed("e", jitter: &jitter) == 0)
    }

    @Test func restartingCountsAttemptsFromOneAgainButKeepsFailures() {
        var jitter = JitterSource(seed: 0)
        var retryer = Retryer(retry: .count(3), retryDelay: nil)
        retryer.attemptStarted()
        _ = retryer.attemptFailed("e", jitter: &jitter)
        retryer.restartAttempts()
        retryer.attemptStarted()
        #expect(retryer.attempts == 1 && retryer.failures == 1)
    }

    @Test func aListOfCodesRetriesOnlyListedCodesAtMostThreeTimes() {
        var jitter = JitterSource(seed: 0)
        var retryer = Retryer(retry: .codes([503, 429]), retryDelay: .fixed(10))
        #expect(retryer.attemptFailed(["code": 503, "message": "busy"], jitter: &jitter) == 10)
        #expect(retryer.attemptFailed(["code": 429, "message": "slow down"], jitter: &jitter) == 10)
        #expect(retryer.attemptFailed(["code": 503, "message": "busy"], jitter: &jitter) == 10)
        #expect(retryer.attemptFailed(["code": 503, "message": "busy"], jitter: &jitter) == nil)
        var other = Retryer(retry: .codes([503]), retryDelay: .fixed(10))
        #expect(other.attemptFailed(["code": 500, "message": "bug"], jitter: &jitter) == nil)
        var noCode = Retryer(retry: .codes([503]), retryDelay: .fixed(10))
        #expect(noCode.attemptFailed("no object", jitter: &jitter) == nil)
    }

    @Test func aBackoffGrowsByItsFactorUpToItsMax() {
        var jitter = JitterSource(seed: 0)
        let backoff = Backoff(base: 100, factor: 3, max: 2000, jitter: 0)
        var retryer = Retryer(retry: .forever, retryDelay: .backoff(backoff))
        let delays = (1...5).map { _ in retryer.attemptFailed("e", jitter: &jitter) }
        #expect(delays == [100, 300, 900, 2000, 2000])
    }

    @Test func jitterTakesOffAtMostItsFractionAndReplaysFromTheSeed() {
        let backoff = Backoff(base: 1000, factor: 2, max: 30_000, jitter: 0.5)
        func delays() -> [Int64?] {
            var source = JitterSource(seed: 0)
            var retryer = Retryer(retry: .forever, retryDelay: .backoff(backoff))
            return (1...6).map { _ in retryer.attemptFailed("e", jitter: &source) }
        }
        let first = delays()
        #expect(first == delays())
        for (delay, full) in zip(first, [1000, 2000, 4000, 8000, 16_000, 30_000] as [Int64]) {
            #expect(delay! <= full && delay! > full / 2)
        }
        #expect(first != [1000, 2000, 4000, 8000, 16_000, 30_000])
    }
}
