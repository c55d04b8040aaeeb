// A JSON number that compares by numeric value and can be written back without loss.
//
// Integers that fit in Int64 are kept exactly (so a JSON-RPC id such as 9007199254740993 is
// echoed byte for byte); other numbers are kept as Double, except integer literals beyond the
// Int64 range, which keep their literal digits.

/// A JSON number. `1`, `1.0` and `1e0` are equal and hash alike (as in JavaScript);
/// integral values within Int64 always compare as integers.
public struct JSONNumber: Sendable, Hashable, CustomStringConvertible {
    @usableFromInline
    enum Storage: Sendable, Hashable {
        /// An exact integer.
        case int(Int64)
        /// A finite, non-integral or out-of-Int64-range value.
        case double(Double)
        /// An integer literal beyond Int64 (digits kept verbatim, optional leading "-").
        case bigInteger(String)
    }

    @usableFromInline
    let storage: Storage

    /// An exact integer.
    @inlinable
    public init(_ value: Int) { storage = .int(Int64(value)) }

    /// An exact integer.
    @inlinable
    public init(_ value: Int64) { storage = .int(value) }

    /// A floating-point value; integral values within Int64 are stored as integers.
    /// - Precondition: `value` is finite (JSON has no NaN or infinity).
    public init(_ value: Double) {
        precondition(value.isFinite, "JSON numbers are finite")
        if JSONNumber.isIntegral(value), value >= -9.2233720368547758e18, value < 9.2233720368547758e18 {
            storage = .int(Int64(value))
        } else {
            storage = .double(value)
        }
    }

    init(bigIntegerLiteral digits: String) { storage = .bigInteger(digits) }

    /// The value as an exact Int, when it is integral and in range.
    public var intValue: Int? {
        if case .int(let v) = storage { return Int(exactly: v) }
        return nil
    }

    /// The value as an exact Int64, when it is integral and in range.
    public var int64Value: Int64? {
        if case .int(let v) = storage { return v }
        return nil
    }

    /// The value as a Double (big integers lose precision).
    public var doubleValue: Double {
        switch storage {
        case .int(let v): return Double(v)
        case .double(let d): return d
        case .bigInteger(let s): return Double(s) ?? 0
        }
    }

    /// The canonical JSON text of this number: integers as plain digits, other values in
    /// Swift's shortest round-trip form.
    public var description: String {
        switch storage {
        case .int(let v): return String(v)
        case .double(let d): return JSONNumber.format(d)
        case .bigInteger(let s): return s
        }
    }

    /// True when `d` is a finite whole number. Avoids `rounded()`, which would pull in libm.
    static func isIntegral(_ d: Double) -> Bool {
        guard d.isFinite else { return false }
        if d.magnitude >= 4_503_599_627_370_496.0 { return true }  // 2^52: no fractional bits left.
        return Double(Int64(d)) == d
    }

    static func format(_ d: Double) -> String {
        // Swift prints "1e+300" as "1e+300" and small values like "1e-07"; both are valid JSON.
        var text = d.description
        if text.hasSuffix(".0") { text.removeLast(2) }
        return text
    }
}
