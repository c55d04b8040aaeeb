// The shapes `retry` and `retryDelay` take in query and mutation options, read from JSON, and the
// backoff they describe.
//
// - `retry`: a count (at most n retries), `true` (forever), `false` (none), or a list of error
//   codes: only a failure whose error object's `code` is listed is retried, at most
//   `RetrySetting.codeRetryLimit` times.
// - `retryDelay`: milliseconds (a fixed delay), or `{base, factor, max, jitter?}`: after the n-th
//   failed attempt min(base × factor^(n−1), max) ms, less a random part of at most `jitter` (0…1,
//   or true for 1) of it. The default is {base: 1000, factor: 2, max: 30000} (TanStack's).
//   The random part comes from the query cache's `JitterSource`, seeded with 0 on the manual clock
//   so that delays replay exactly.

import QuerydJSON

/// How often a failed attempt is retried.
public enum RetrySetting: Sendable, Equatable {
    /// At most this many retries (so `n + 1` attempts).
    case count(Int)
    /// Retry until it succeeds.
    case forever
    /// Retry only failures whose error `code` is one of these, at most `codeRetryLimit` times.
    case codes([Int])

    /// How many retries a list of codes allows (TanStack's default retry count).
    public static let codeRetryLimit = 3

    /// Whether another attempt follows after `failures` failed attempts, the last with `error`.
    func allowsRetry(afterFailures failures: Int, error: JSONValue) -> Bool {
        switch self {
        case .count(let n): return failures <= n
        case .forever: return true
        case .codes(let codes):
            guard failures <= Self.codeRetryLimit, let code = error["code"]?.intValue else { return false }
            return codes.contains(code)
        }
    }

    /// Reads `retry`: a count, a boolean, or an array of integer error codes.
    init(json member: JSONValue, field: String) throws(OptionsError) {
        switch member {
        case .bool(false): self = .count(0)
        case .bool(true): self = .forever
        case .array(let items):
            var codes: [Int] = []
            for item in items {
                guard let code = item.intValue else {
                    throw OptionsError(field: field, reason: "an array must hold integer error codes")
                }
                codes.append(code)
            }
            self = .codes(codes)
        case .number(let n):
            guard let count = n.int64Value, count >= 0, count <= Int64(Int32.max) else {
                throw OptionsError(field: field, reason: "must be a non-negative integer (a count)")
            }
            self = .count(Int(count))
        default:
            throw OptionsError(
                field: field, reason: "must be a non-negative integer, a boolean or an array of error codes")
        }
    }
}

/// The delay before a retry.
public enum RetryDelay: Sendable, Equatable {
    /// Always this many milliseconds.
    case fixed(Int64)
    /// Growing with each failure.
    case backoff(Backoff)

    /// TanStack's default: 1000, 2000, 4000 … ms, at most 30000.
    public static let standard = RetryDelay.backoff(Backoff(base: 1000, factor: 2, max: 30_000, jitter: 0))

    /// The delay after `failures` failed attempts (1 or more).
    func delay(afterFailures failures: Int, jitter source: inout JitterSource) -> Int64 {
        switch self {
        case .fixed(let ms): return max(ms, 0)
        case .backoff(let backoff): return backoff.delay(afterFailures: failures, jitter: &source)
        }
    }

    /// Reads `retryDelay`: milliseconds, or `{base, factor, max, jitter?}`.
    init(json member: JSONValue, field: String) throws(OptionsError) {
        guard case .object(let members) = member else {
            self = .fixed(try Self.milliseconds(member, field: field))
            return
        }
        for name in members.keys where !["base", "factor", "max", "jitter"].contains(name) {
            throw OptionsError(field: "\(field).\(name)", reason: "unknown member; expected base, factor, max, jitter")
        }
        func required(_ name: String) throws(OptionsError) -> JSONValue {
            guard let value = members[name] else { throw OptionsError(field: "\(field).\(name)", reason: "required") }
            return value
        }
        let base = try Self.milliseconds(try required("base"), field: "\(field).base")
        let max = try Self.milliseconds(try required("max"), field: "\(field).max")
        guard case .number(let f) = try required("factor"), f.doubleValue >= 1, f.doubleValue <= 1000 else {
            throw OptionsError(field: "\(field).factor", reason: "must be a number from 1 to 1000")
        }
        var jitter = 0.0
        switch members["jitter"] {
        case nil, .bool(false)?: break
        case .bool(true)?: jitter = 1
        case .number(let j)? where j.doubleValue >= 0 && j.doubleValue <= 1: jitter = j.doubleValue
        default: throw OptionsError(field: "\(field).jitter", reason: "must be a boolean or a number from 0 to 1")
        }
        self = .backoff(Backoff(base: base, factor: f.doubleValue, max: max, jitter: jitter))
    }

    private static func milliseconds(_ value: JSONValue, field: String) throws(OptionsError) -> Int64 {
        guard case .number(let n) = value, let v = n.int64Value, v >= 0 else {
            throw OptionsError(field: field, reason: "must be a non-negative integer (milliseconds)")
        }
        return v
    }
}

/// Exponential backoff with a cap and optional jitter.
public struct Backoff: Sendable, Equatable {
    /// The delay after the first failure (ms).
    public var base: Int64
    /// Each further failure multiplies the delay by this (≥ 1).
    public var factor: Double
    /// The longest delay (ms).
    public var max: Int64
    /// The largest fraction (0…1) of the delay taken off at random.
    public var jitter: Double

    /// min(base × factor^(failures−1), max), less at most `jitter` of it at random.
    func delay(afterFailures failures: Int, jitter source: inout JitterSource) -> Int64 {
        var grown = Double(base)
        for _ in 1..<Swift.max(1, failures) where grown < Double(max) { grown *= factor }
        let capped = grown >= Double(max) ? max : Int64(grown)
        guard jitter > 0 else { return capped }
        return capped - Int64(Double(capped) * jitter * source.nextUnit())
    }
}

/// The random numbers retry jitter draws (SplitMix64). The query cache keeps one per daemon,
/// seeded with 0 on the manual clock (so a test sees the same delays every run) and at random
/// otherwise.
struct JitterSource {
    private var state: UInt64

    init(seed: UInt64) { state = seed }

    /// A number in 0..<1.
    mutating func nextUnit() -> Double {
        state &+= 0x9E37_79B9_7F4A_7C15
        var z = state
        z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
        z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
        z ^= z >> 31
        return Double(z >> 11) * 0x1p-53
    }
}
