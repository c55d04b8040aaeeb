// Structural JSON comparison with placeholders, plus small accessors used by the tests.
//
// Placeholders in expected values: "$any" (anything), "$number" (any number), "$optional"
// (as an object member: absent or anything), "$=name" (anything; remember it as `name`) and
// "$name" for a remembered value (must be equal to it). An `epoch` member left out of an expected
// object is matched as "$epoch": equal to the first epoch the matcher saw.

import QuerydJSON
import Testing

extension JSONValue {
    /// The member `name` of an object (nil for a missing member or a non-object).
    func member(_ name: String) -> JSONValue? {
        if case .object(let members) = self { return members[name] }
        return nil
    }

    /// Whether this is an object with a member `name` (even a null one).
    func has(_ name: String) -> Bool { member(name).map { _ in true } ?? false }

    /// The element at `index` of an array (nil when out of range or not an array).
    func item(_ index: Int) -> JSONValue? {
        if case .array(let elements) = self, elements.indices.contains(index) { return elements[index] }
        return nil
    }

    /// The value as an exact integer.
    var asInt: Int? {
        if case .number(let number) = self { return number.intValue }
        return nil
    }

    /// The value as a string.
    var asString: String? {
        if case .string(let text) = self { return text }
        return nil
    }

    /// The value as a boolean.
    var asBool: Bool? {
        if case .bool(let flag) = self { return flag }
        return nil
    }

    /// The elements of an array.
    var asArray: [JSONValue]? {
        if case .array(let elements) = self { return elements }
        return nil
    }

    /// The member `error.code` of a response.
    var errorCode: Int? { member("error")?.member("code")?.asInt }
}

/// Compares JSON values against expectations that may hold placeholders.
struct JSONMatcher {
    /// Values remembered by "$=name" placeholders.
    var variables: [String: JSONValue] = [:]

    /// Returns nil when `actual` matches `expected`, else a description of the first mismatch.
    /// Captures are kept only when the whole value matches.
    mutating func mismatch(expected: JSONValue, actual: JSONValue, unorderedTopLevel: Bool = false) -> String? {
        var trial = variables
        let problem: String?
        if unorderedTopLevel, case .array(let want) = expected, case .array(let got) = actual {
            problem = Self.unordered(want, got, path: "$", variables: &trial)
        } else {
            problem = Self.compare(expected, actual, path: "$", variables: &trial)
        }
        if problem == nil { variables = trial }
        return problem
    }

    private static func compare(
        _ expected: JSONValue, _ actual: JSONValue, path: String, variables: inout [String: JSONValue]
    ) -> String? {
        if case .string(let text) = expected, text.hasPrefix("$"), text.count > 1 {
            switch text {
            case "$any", "$optional": return nil
            case "$number":
                if case .number = actual { return nil }
                return "\(path): expected a number, got \(actual.encodedString)"
            default:
                if text.hasPrefix("$=") {
                    variables[String(text.dropFirst(2))] = actual
                    return nil
                }
                if let known = variables[String(text.dropFirst())] {
                    return known == actual
                        ? nil : "\(path): expected \(text) = \(known.encodedString), got \(actual.encodedString)"
                }
            }
        }
        switch (expected, actual) {
        case (.object(let want), .object(let got)):
            for name in want.keys.sorted() {
                let value = want[name]!
                guard let other = got[name] else {
                    if value == .string("$optional") { continue }
                    return "\(path).\(name): missing (expected \(value.encodedString))"
                }
                if let problem = compare(value, other, path: "\(path).\(name)", variables: &variables) {
                    return problem
                }
            }
            for extra in got.keys.sorted() where want[extra] == nil {
                // The epoch every state and `server.hello` carry is one value for a daemon's life:
                // left out of an expected object, it must equal the first one seen ("$epoch").
                if extra == "epoch", let epoch = got[extra], case .string = epoch {
                    if let known = variables["epoch"], known != epoch {
                        return "\(path).epoch: expected $epoch = \(known.encodedString), got \(epoch.encodedString)"
                    }
                    variables["epoch"] = epoch
                    continue
                }
                return "\(path).\(extra): unexpected member \(got[extra]!.encodedString)"
            }
            return nil
        case (.array(let want), .array(let got)):
            guard want.count == got.count else {
                return "\(path): expected \(want.count) elements, got \(got.count): \(actual.encodedString)"
            }
            for (index, pair) in zip(want, got).enumerated() {
                if let problem = compare(pair.0, pair.1, path: "\(path)[\(index)]", variables: &variables) {
                    return problem
                }
            }
            return nil
        default:
            return expected == actual ? nil : "\(path): expected \(expected.encodedString), got \(actual.encodedString)"
        }
    }

    /// Multiset comparison (batch replies): finds a one-to-one pairing by backtracking.
    private static func unordered(
        _ want: [JSONValue], _ got: [JSONValue], path: String, variables: inout [String: JSONValue]
    ) -> String? {
        guard want.count == got.count else {
            return "\(path): expected \(want.count) elements, got \(got.count): \(JSONValue.array(got).encodedString)"
        }
        func search(_ index: Int, _ used: [Bool], _ vars: [String: JSONValue]) -> [String: JSONValue]? {
            if index == want.count { return vars }
            for candidate in got.indices where !used[candidate] {
                var trial = vars
                if compare(want[index], got[candidate], path: path, variables: &trial) == nil {
                    var nowUsed = used
                    nowUsed[candidate] = true
                    if let done = search(index + 1, nowUsed, trial) { return done }
                }
            }
            return nil
        }
        guard let matched = search(0, Array(repeating: false, count: got.count), variables) else {
            return "\(path): no pairing of the expected elements \(JSONValue.array(want).encodedString) "
                + "with the actual ones \(JSONValue.array(got).encodedString)"
        }
        variables = matched
        return nil
    }
}

/// Records an issue unless `actual` matches `expected` (placeholders allowed).
func expectJSON(
    _ actual: JSONValue, _ expected: JSONValue, unordered: Bool = false,
    sourceLocation: SourceLocation = #_sourceLocation
) {
    var matcher = JSONMatcher()
    if let problem = matcher.mismatch(expected: expected, actual: actual, unorderedTopLevel: unordered) {
        Issue.record(
            "JSON mismatch: \(problem)\n  expected: \(expected.encodedString)\n  actual:   \(actual.encodedString)",
            sourceLocation: sourceLocation)
    }
}

/// Records an issue unless `reply` is an error response with exactly `code` and `id`.
func expectError(
    _ reply: JSONValue, code: Int, id: JSONValue, sourceLocation: SourceLocation = #_sourceLocation
) {
    let ok =
        reply.member("jsonrpc") == "2.0" && reply.member("id") == id && reply.errorCode == code
        && !reply.has("result") && reply.member("error")?.member("message")?.asString != nil
    if !ok {
        Issue.record(
            "expected error \(code) with id \(id.encodedString), got \(reply.encodedString)",
            sourceLocation: sourceLocation)
    }
}

/// Records an issue unless `reply` is a success response with exactly `result` and `id`.
func expectResult(
    _ reply: JSONValue, _ result: JSONValue, id: JSONValue, sourceLocation: SourceLocation = #_sourceLocation
) {
    expectJSON(reply, .object(["jsonrpc": "2.0", "id": id, "result": result]), sourceLocation: sourceLocation)
}
