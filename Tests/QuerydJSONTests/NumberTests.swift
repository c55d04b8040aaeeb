// JSONNumber: numeric equality and hashing, exact integers, big literals and canonical text.

import QuerydJSON
import Testing

@Suite("JSON numbers")
struct NumberTests {
    func number(_ text: String) throws -> JSONValue { try JSONParser.parse(text) }

    @Test func equalValuesAreEqualAndHashAlike() throws {
        let forms = ["1", "1.0", "1e0", "10e-1", "0.1e1", "1E+0"]
        let values = try forms.map(number)
        for value in values {
            #expect(value == values[0])
            #expect(value.hashValue == values[0].hashValue)
            #expect(value.encodedString == "1")
        }
        #expect(JSONNumber(1) == JSONNumber(1.0))
        #expect(JSONNumber(Int64(5)) == JSONNumber(5))
        #expect(try number("1") != number("1.5"))
        #expect(try number("1") != JSONValue.string("1"))
    }

    @Test func negativeZeroIsZero() throws {
        for text in ["-0", "-0.0", "-0e5", "0", "0.0", "-0.000"] {
            let value = try number(text)
            #expect(value == 0)
            #expect(value.hashValue == JSONValue(0).hashValue)
            #expect(value.encodedString == "0")
            #expect(value.intValue == 0)
        }
        #expect(JSONNumber(-0.0).description == "0")
    }

    @Test func int64RangeIsExact() throws {
        let value = try number("9007199254740993")
        #expect(value.int64Value == 9_007_199_254_740_993)
        #expect(value.encoded == Array("9007199254740993".utf8))
        #expect(value != .number(JSONNumber(9_007_199_254_740_992.0)))
        #expect(try number("9223372036854775807").int64Value == Int64.max)
        #expect(try number("-9223372036854775808").int64Value == Int64.min)
        #expect(try number("-9223372036854775808").encodedString == "-9223372036854775808")
        #expect(try number("1234567890123456789").int64Value == 1_234_567_890_123_456_789)
    }

    @Test func bigIntegerLiteralsAreKeptVerbatim() throws {
        let text = "123456789012345678901234567890"
        let value = try number(text)
        #expect(value.encodedString == text)
        #expect(value.int64Value == nil)
        #expect(value.intValue == nil)
        #expect(value.doubleValue == 1.2345678901234568e29)
        #expect(try number("9223372036854775808").encodedString == "9223372036854775808")
        #expect(try number("-9223372036854775809").encodedString == "-9223372036854775809")
        #expect(try number(text) == value)
        #expect(try number("123456789012345678901234567891") != value)
    }

    @Test func bigIntegerEqualsTheSameValueWrittenAsADouble() throws {
        // 1e20 is exactly 100000000000000000000.
        let literal = try number("100000000000000000000")
        let double = try number("1e20")
        #expect(literal == double)
        #expect(literal.hashValue == double.hashValue)
        #expect(literal.encodedString == "100000000000000000000")
        #expect(double.encodedString == "1e+20")
        // 2^63 written both ways.
        #expect(try number("9223372036854775808") == number("9.223372036854775808e18"))
        // Not exactly representable: the literal differs from its nearest double.
        #expect(try number("100000000000000000001") != number("1e20"))
    }

    @Test func doublesUseShortestRoundTripText() throws {
        #expect(try number("1.5").encodedString == "1.5")
        #expect(try number("0.1").encodedString == "0.1")
        #expect(try number("-2.25").encodedString == "-2.25")
        #expect(try number("1e300").encodedString == "1e+300")
        #expect(try number("1e-7").encodedString == "1e-07")
        #expect(try number("1E2").encodedString == "100")
        #expect(try number("2.5e-324").encodedString == "5e-324")
        #expect(try number("1.7976931348623157e308").encodedString == "1.7976931348623157e+308")
        for text in ["1e300", "1.5", "0.1", "-1e-300", "123.456e78", "4.9e-324", "1.7976931348623157e308"] {
            let value = try number(text)
            #expect(try JSONParser.parse(value.encoded) == value, "\(text)")
            #expect(try JSONParser.parse(value.encoded).encoded == value.encoded, "\(text)")
        }
    }

    @Test func parsingIsCorrectlyRounded() throws {
        #expect(try number("0.1").doubleValue == 0.1)
        #expect(try number("3.141592653589793").doubleValue == 3.141592653589793)
        #expect(try number("2.2250738585072014e-308").doubleValue == 2.2250738585072014e-308)
        #expect(try number("9007199254740993.0").doubleValue == 9_007_199_254_740_992.0)
        #expect(try number("0.30000000000000004").doubleValue == 0.30000000000000004)
        #expect(try number("123456789012345678.5").doubleValue == 123_456_789_012_345_678.5)
        #expect(try number("1e-400") == 0)
        // Negative values on both the fast and the slow (strtod) path keep their sign.
        #expect(try number("-0.5").doubleValue == -0.5)
        #expect(try number("-1e-300").doubleValue == -1e-300)
        #expect(try number("-123456789012345678.5").doubleValue == -123_456_789_012_345_678.5)
        #expect(try number("-1e20").encodedString == "-1e+20")
    }

    @Test func magnitudeBeyondDoubleIsRejected() {
        for text in ["1e400", "-1e400", "1.8e308", "1e999999999999", String(repeating: "9", count: 310)] {
            #expect(parseError(text)?.message == "number out of range (I-JSON limits numbers to IEEE 754 doubles)")
        }
        #expect(parseError(String(repeating: "9", count: 308)) == nil)
    }

    @Test func integralDoublesBecomeExactIntegers() {
        #expect(JSONNumber(3.0).int64Value == 3)
        #expect(JSONNumber(3.5).int64Value == nil)
        #expect(JSONNumber(-9.2233720368547758e18).int64Value == Int64.min)
        #expect(JSONNumber(9.2233720368547758e18).int64Value == nil)
        #expect(JSONNumber(1e300).description == "1e+300")
    }

    @Test func numbersWorkAsDictionaryKeys() throws {
        var seen: Set<JSONValue> = []
        for text in ["1", "1.0", "1e0", "100000000000000000000", "1e20", "2", "-0", "0"] {
            seen.insert(try number(text))
        }
        #expect(seen.count == 4)
    }
}
