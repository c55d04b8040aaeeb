// Shared helpers for the QuerydJSON tests.

import QuerydJSON

/// Parses `text`, returning the error instead of throwing it.
func parseResult(_ text: String, maxDepth: Int = 512) -> Result<JSONValue, JSONParseError> {
    Result { () throws(JSONParseError) in try JSONParser.parse(text, maxDepth: maxDepth) }
}

/// Parses raw bytes, returning the error instead of throwing it.
func parseResult(_ bytes: [UInt8], maxDepth: Int = 512) -> Result<JSONValue, JSONParseError> {
    Result { () throws(JSONParseError) in try JSONParser.parse(bytes, maxDepth: maxDepth) }
}

/// The error for `text`, or nil when it parsed.
func parseError(_ text: String, maxDepth: Int = 512) -> JSONParseError? {
    if case .failure(let error) = parseResult(text, maxDepth: maxDepth) { return error }
    return nil
}

/// The error for `bytes`, or nil when they parsed.
func parseError(_ bytes: [UInt8], maxDepth: Int = 512) -> JSONParseError? {
    if case .failure(let error) = parseResult(bytes, maxDepth: maxDepth) { return error }
    return nil
}

/// The parsed value for `text`, or nil when it was rejected.
func parsed(_ text: String) -> JSONValue? {
    try? parseResult(text).get()
}
