// Numeric equality and hashing for JSONNumber.
//
// The three storage forms never overlap except in one place: a `.double` beyond the Int64 range
// (always an integer there) and a `.bigInteger` literal can denote the same number, such as
// `1e20` and `100000000000000000000`. Those are compared through the exact decimal expansion
// of the double, so equality is exact numeric equality and equal numbers hash alike.

extension JSONNumber {
    /// True when both numbers denote exactly the same value (`1 == 1.0 == 1e0`, `-0 == 0`).
    public static func == (lhs: JSONNumber, rhs: JSONNumber) -> Bool {
        switch (lhs.storage, rhs.storage) {
        case (.int(let a), .int(let b)):
            return a == b
        case (.double(let a), .double(let b)):
            return a == b
        case (.bigInteger(let a), .bigInteger(let b)):
            return a == b
        case (.double(let d), .bigInteger(let s)), (.bigInteger(let s), .double(let d)):
            return JSONNumber.exactIntegerText(d) == s
        default:
            return false
        }
    }

    /// Hashes the numeric value, consistently with `==`.
    public func hash(into hasher: inout Hasher) {
        switch storage {
        case .int(let v):
            hasher.combine(0 as UInt8)
            hasher.combine(v)
        case .double(let d):
            hasher.combine(1 as UInt8)
            hasher.combine(d)
        case .bigInteger(let s):
            if let d = Double(s), d.isFinite, JSONNumber.exactIntegerText(d) == s {
                hasher.combine(1 as UInt8)
                hasher.combine(d)
            } else {
                hasher.combine(2 as UInt8)
                hasher.combine(s)
            }
        }
    }

    /// The exact decimal digits of an integral double (with a leading "-" when negative),
    /// or nil when `d` is not a finite integer.
    static func exactIntegerText(_ d: Double) -> String? {
        guard JSONNumber.isIntegral(d) else { return nil }
        let magnitude = d.magnitude
        if magnitude < 9.2233720368547758e18 {
            return String(Int64(d))
        }
        // magnitude = significand * 2^shift with a 53-bit integer significand and shift > 0.
        let significand = magnitude.significandBitPattern | (1 << 52)
        var shift = Int(magnitude.exponent) - 52
        // Little-endian limbs in base 10^9.
        let base: UInt64 = 1_000_000_000
        var limbs: [UInt64] = [significand % base, (significand / base) % base, significand / (base * base)]
        while shift > 0 {
            let step = min(shift, 32)
            shift -= step
            var carry: UInt64 = 0
            for index in limbs.indices {
                let product = (limbs[index] << UInt64(step)) + carry
                limbs[index] = product % base
                carry = product / base
            }
            while carry > 0 {
                limbs.append(carry % base)
                carry /= base
            }
        }
        while limbs.count > 1, limbs[limbs.count - 1] == 0 { limbs.removeLast() }
        var text = d < 0 ? "-" : ""
        text += String(limbs[limbs.count - 1])
        for limb in limbs.dropLast().reversed() {
            let digits = String(limb)
            text += String(repeating: "0", count: 9 - digits.count) + digits
        }
        return text
    }
}
