// Inputs the parser must reject (modelled on JSONTestSuite n_ cases), plus exact messages and
// offsets for a selection of them.

import QuerydJSON
import Testing

@Suite("Parser rejects invalid JSON")
struct ParserRejectTests {
    /// (JSONTestSuite-style name, input bytes).
    static let cases: [(String, [UInt8])] = [
        ("array_1_true_without_comma", bytes("[1 true]")),
        ("array_a_invalid_utf8", [0x5B, 0x61, 0xE5, 0x5D]),
        ("array_colon_instead_of_comma", bytes("[\"\": 1]")),
        ("array_comma_after_close", bytes("[\"\"],")),
        ("array_comma_and_number", bytes("[,1]")),
        ("array_double_comma", bytes("[1,,2]")),
        ("array_extra_close", bytes("[\"x\"]]")),
        ("array_extra_comma", bytes("[\"\",]")),
        ("array_incomplete", bytes("[\"x\"")),
        ("array_inner_array_no_comma", bytes("[3[4]]")),
        ("array_just_comma", bytes("[,]")),
        ("array_just_minus", bytes("[-]")),
        ("array_missing_value", bytes("[   , \"\"]")),
        ("array_unclosed_trailing_comma", bytes("[1,")),
        ("array_star_inside", bytes("[*]")),
        ("incomplete_false", bytes("[fals]")),
        ("incomplete_null", bytes("[nul]")),
        ("incomplete_true", bytes("[tru]")),
        ("capitalized_True", bytes("[True]")),
        ("number_++", bytes("[++1234]")),
        ("number_+1", bytes("[+1]")),
        ("number_-01", bytes("[-01]")),
        ("number_.-1", bytes("[.-1]")),
        ("number_0.e1", bytes("[0.e1]")),
        ("number_1.0e", bytes("[1.0e]")),
        ("number_1.0e+", bytes("[1.0e+]")),
        ("number_2.e3", bytes("[2.e3]")),
        ("number_Inf", bytes("[Inf]")),
        ("number_Infinity", bytes("[Infinity]")),
        ("number_NaN", bytes("[NaN]")),
        ("number_-NaN", bytes("[-NaN]")),
        ("number_hex", bytes("[0x1]")),
        ("number_leading_zero", bytes("[012]")),
        ("number_neg_int_starting_with_zero", bytes("[-012]")),
        ("number_real_without_fractional_part", bytes("[1.]")),
        ("number_starting_with_dot", bytes("[.123]")),
        ("number_with_alpha", bytes("[1.2a-3]")),
        ("number_minus_space_1", bytes("[- 1]")),
        ("number_1e400_outside_IJSON", bytes("[1e400]")),
        ("number_400_digit_integer", bytes("[" + String(repeating: "9", count: 400) + "]")),
        ("object_bad_value", bytes("[\"x\", truth]")),
        ("object_comma_instead_of_colon", bytes("{\"x\", null}")),
        ("object_missing_colon", bytes("{\"a\" b}")),
        ("object_missing_key", bytes("{:\"b\"}")),
        ("object_missing_value", bytes("{\"a\":")),
        ("object_non_string_key", bytes("{1:1}")),
        ("object_single_quote", bytes("{'a':0}")),
        ("object_trailing_comma", bytes("{\"id\":0,}")),
        ("object_unquoted_key", bytes("{a: \"b\"}")),
        ("object_with_trailing_garbage", bytes("{\"a\":\"a\" 123}")),
        ("object_two_commas_in_a_row", bytes("{\"a\":\"b\",,\"c\":\"d\"}")),
        ("object_trailing_comment", bytes("{\"a\":\"b\"}/**/")),
        ("object_duplicate_name", bytes("{\"a\":1,\"a\":2}")),
        ("string_1_surrogate_then_escape", bytes("[\"\\uD800\\\"]")),
        ("string_escape_x", bytes("[\"\\x00\"]")),
        ("string_incomplete_escaped_character", bytes("[\"\\u00A\"]")),
        ("string_single_quote", bytes("['single quote']")),
        ("string_unescaped_tab", bytes("[\"\t\"]")),
        ("string_unescaped_newline", bytes("[\"new\nline\"]")),
        ("string_invalid_backslash_esc", bytes("[\"\\a\"]")),
        ("string_no_quotes_with_bad_escape", bytes("[\\n]")),
        ("string_lone_high_surrogate", bytes("[\"\\uD800\"]")),
        ("string_lone_low_surrogate", bytes("[\"\\uDC00\"]")),
        ("structure_null_byte_outside_string", [0x5B, 0x00, 0x5D]),
        ("structure_whitespace_formfeed", bytes("[\u{0C}]")),
        ("structure_open_object", bytes("{")),
        ("structure_close_unopened_array", bytes("1]")),
        ("structure_double_array", bytes("[][]")),
        ("structure_no_data", []),
        ("structure_single_space", bytes(" ")),
        ("structure_lone_open_bracket", bytes("[")),
        ("structure_unclosed_object", bytes("{\"asd\":\"asd\"")),
        ("structure_trailing_hash", bytes("{\"a\":\"b\"}#{}")),
        ("structure_U+2060_word_joined", bytes("[\u{2060}]")),
        ("structure_angle_bracket_null", bytes("[<null>]")),
        ("structure_two_values_on_one_line", bytes("{} {}")),
        ("structure_value_then_cr_then_value", bytes("{}\r{}")),
        ("structure_utf8_bom", [0xEF, 0xBB, 0xBF, 0x7B, 0x7D]),
        ("structure_utf16_le", [0x5B, 0x00, 0x5D, 0x00]),
        ("multidigit_number_then_nul", [0x31, 0x32, 0x33, 0x00]),
    ]

    @Test("each n_ input is rejected", arguments: 0..<cases.count)
    func rejectsInvalidInput(index: Int) {
        let (name, input) = Self.cases[index]
        let error = parseError(input)
        #expect(error != nil, "n_\(name) was accepted")
        if let error {
            #expect(error.offset >= 0 && error.offset <= input.count, "n_\(name): offset \(error.offset)")
            #expect(!error.message.isEmpty)
        }
    }

    @Test func tableIsLargeEnough() {
        #expect(Self.cases.count >= 40)
    }

    /// (input, expected offset, expected message).
    static let exact: [(String, Int, String)] = [
        ("", 0, "empty input"),
        (" \t", 2, "no JSON value (only whitespace)"),
        ("[1,]", 3, "trailing comma before ']'"),
        ("{\"a\":1,}", 7, "trailing comma before '}'"),
        ("{\"a\":1 \"b\":2}", 7, "expected ',' or '}' but found '\"'"),
        ("[1 2]", 3, "expected ',' or ']' but found '2'"),
        ("[01]", 1, "leading zeros are not allowed in numbers"),
        ("[1.]", 3, "expected a digit after '.' in a number"),
        ("[1e]", 3, "expected a digit in the exponent of a number"),
        ("[-]", 2, "expected a digit after '-'"),
        ("[1e400]", 1, "number out of range (I-JSON limits numbers to IEEE 754 doubles)"),
        ("[+1]", 1, "unexpected character '+' (not a valid JSON number)"),
        ("[x]", 1, "unexpected character 'x'"),
        ("[tru]", 1, "invalid literal (expected 'true')"),
        ("[\"abc", 1, "unterminated string"),
        ("[\"a\tb\"]", 3, "raw control character 0x09 in a string (must be escaped)"),
        ("[\"\\q\"]", 2, "invalid escape '\\q'"),
        ("[\"\\u12G4\"]", 2, "invalid \\u escape (expected 4 hex digits)"),
        ("{'a':1}", 1, "expected a member name in double quotes (single quotes are not allowed)"),
        ("{\"a\" 1}", 5, "expected ':' after the member name"),
        ("[1] // note", 4, "trailing characters after the JSON value (one JSON value per line)"),
        ("{} {}", 3, "trailing characters after the JSON value (one JSON value per line)"),
        ("[1", 2, "unexpected end of input (unterminated array)"),
        ("{\"a\":1", 6, "unexpected end of input (unterminated object)"),
        ("[/* c */ 1]", 1, "unexpected character '/' (comments are not allowed)"),
        ("[1,'x']", 3, "unexpected character ''' (strings must use double quotes)"),
        ("{\"a\":1,\"b\":2,\"a\":3}", 13, "duplicate member name \"a\""),
    ]

    @Test("exact message and offset", arguments: 0..<exact.count)
    func exactMessageAndOffset(index: Int) {
        let (input, offset, message) = Self.exact[index]
        let error = parseError(input)
        #expect(error == JSONParseError(offset: offset, message: message), "input: \(input)")
    }

    @Test func nulByteOutsideStringHintsAtUTF8() {
        #expect(
            parseError([0x5B, 0x00, 0x5D])
                == JSONParseError(offset: 1, message: "unexpected NUL byte (JSON text must be UTF-8)"))
    }

    @Test func errorDescriptionIncludesOffset() {
        #expect(
            JSONParseError(offset: 7, message: "unterminated string").description
                == "unterminated string (at byte 7)")
    }
}

/// The UTF-8 bytes of `text`.
private func bytes(_ text: String) -> [UInt8] { Array(text.utf8) }
