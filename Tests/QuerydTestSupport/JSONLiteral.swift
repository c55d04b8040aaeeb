// JSON values written as text in tests.

public import QuerydJSON

/// Parses JSON text written in a test (a malformed literal is a test bug and traps).
public func json(_ text: String) -> JSONValue {
    do {
        return try JSONParser.parse(text)
    } catch {
        fatalError("bad JSON literal in a test: \(text): \(error)")
    }
}
