// Number parsing for the JSON parser: the exact RFC 8259 grammar, Int64 fast path, exact
// big-integer literals, correctly rounded doubles, and the I-JSON range check.

extension JSONReader {
    /// Parses the number starting at `pos` (a '-' or a digit).
    mutating func parseNumber() throws(JSONParseError) -> JSONNumber {
        let start = pos
        var i = pos
        let negative = bytes[i] == UInt8(ascii: "-")
        if negative { i += 1 }
        guard i < end, Self.isDigit(bytes[i]) else {
            throw JSONParseError(offset: i, message: "expected a digit after '-'")
        }
        let integerStart = i
        if bytes[i] == UInt8(ascii: "0") {
            i += 1
            if i < end, Self.isDigit(bytes[i]) {
                throw JSONParseError(offset: start, message: "leading zeros are not allowed in numbers")
            }
        } else {
            while i < end, Self.isDigit(bytes[i]) { i += 1 }
        }
        let integerEnd = i
        var fractionEnd = i
        var exponent = 0
        var isInteger = true
        if i < end, bytes[i] == UInt8(ascii: ".") {
            isInteger = false
            i += 1
            guard i < end, Self.isDigit(bytes[i]) else {
                throw JSONParseError(offset: i, message: "expected a digit after '.' in a number")
            }
            while i < end, Self.isDigit(bytes[i]) { i += 1 }
            fractionEnd = i
        }
        if i < end, bytes[i] | 0x20 == UInt8(ascii: "e") {
            isInteger = false
            i += 1
            var exponentNegative = false
            if i < end, bytes[i] == UInt8(ascii: "-") || bytes[i] == UInt8(ascii: "+") {
                exponentNegative = bytes[i] == UInt8(ascii: "-")
                i += 1
            }
            guard i < end, Self.isDigit(bytes[i]) else {
                throw JSONParseError(offset: i, message: "expected a digit in the exponent of a number")
            }
            while i < end, Self.isDigit(bytes[i]) {
                if exponent < 1_000_000 { exponent = exponent * 10 + Int(bytes[i] &- UInt8(ascii: "0")) }
                i += 1
            }
            if exponentNegative { exponent = -exponent }
        }
        pos = i
        if isInteger {
            return try integerNumber(start: start, digits: integerStart..<integerEnd, negative: negative)
        }
        let value =
            fastDouble(integer: integerStart..<integerEnd, fractionEnd: fractionEnd, exponent: exponent)
            ?? Double(String(decoding: UnsafeRawBufferPointer(rebasing: bytes[integerStart..<i]), as: UTF8.self))
        guard let value, value.isFinite else {
            throw outOfRange(at: start)
        }
        return JSONNumber(negative ? -value : value)
    }

    /// An integer literal: Int64 when it fits, otherwise its digits verbatim.
    private func integerNumber(start: Int, digits: Range<Int>, negative: Bool) throws(JSONParseError) -> JSONNumber {
        if digits.count <= 18 {
            var value: Int64 = 0
            for index in digits { value = value &* 10 &+ Int64(bytes[index] &- UInt8(ascii: "0")) }
            return JSONNumber(negative ? -value : value)
        }
        if digits.count <= 20 {
            var magnitude: UInt64 = 0
            var overflow = false
            for index in digits {
                let (times10, o1) = magnitude.multipliedReportingOverflow(by: 10)
                let (sum, o2) = times10.addingReportingOverflow(UInt64(bytes[index] &- UInt8(ascii: "0")))
                overflow = overflow || o1 || o2
                magnitude = sum
            }
            if !overflow {
                if !negative, magnitude <= UInt64(Int64.max) { return JSONNumber(Int64(magnitude)) }
                if negative, magnitude <= UInt64(Int64.max) + 1 {
                    return JSONNumber(Int64(truncatingIfNeeded: 0 &- magnitude))
                }
            }
        }
        let text = String(decoding: UnsafeRawBufferPointer(rebasing: bytes[start..<digits.upperBound]), as: UTF8.self)
        guard digits.count <= 309, let approximate = Double(text), approximate.isFinite else {
            throw outOfRange(at: start)
        }
        return JSONNumber(bigIntegerLiteral: text)
    }

    /// Clinger's fast path: exact when the significand fits in 53 bits and 10^|e| is exact.
    private func fastDouble(integer: Range<Int>, fractionEnd: Int, exponent: Int) -> Double? {
        let fractionDigits = fractionEnd > integer.upperBound ? fractionEnd - integer.upperBound - 1 : 0
        guard integer.count + fractionDigits <= 19 else { return nil }
        var significand: UInt64 = 0
        for index in integer { significand = significand * 10 + UInt64(bytes[index] &- UInt8(ascii: "0")) }
        if fractionDigits > 0 {
            for index in (integer.upperBound + 1)..<fractionEnd {
                significand = significand * 10 + UInt64(bytes[index] &- UInt8(ascii: "0"))
            }
        }
        guard significand <= 1 << 53 else { return nil }
        let scale = exponent - fractionDigits
        guard scale >= -22, scale <= 22 else { return significand == 0 ? 0 : nil }
        let power = Self.powerOfTen(scale.magnitude)
        return scale < 0 ? Double(significand) / power : Double(significand) * power
    }

    /// 10^n for n in 0...22, all exactly representable as doubles.
    @inline(__always)
    private static func powerOfTen(_ n: UInt) -> Double {
        var result = 1.0
        var base = 10.0
        var remaining = n
        while remaining > 0 {
            if remaining & 1 == 1 { result *= base }
            base *= base
            remaining >>= 1
        }
        return result
    }

    private func outOfRange(at offset: Int) -> JSONParseError {
        JSONParseError(offset: offset, message: JSONParseError.outOfRangeMessage)
    }

    @inline(__always)
    static func isDigit(_ c: UInt8) -> Bool { c &- UInt8(ascii: "0") < 10 }
}
