// Reading the members of one object of a snapshot (`cache.hydrate`): typed, with defaults, and
// with errors that name the field's full path (`snapshot.queries[0].state.status`).

import QuerydJSON

/// The members of one snapshot object, read by name.
struct SnapshotFields {
    let members: [String: JSONValue]
    /// The object's own path, prefixed to the names in errors.
    let path: String

    /// Reads `value` as an object whose members are among `allowed`.
    init(_ value: JSONValue?, path: String, allowed: [String]) throws(OptionsError) {
        guard case .object(let members)? = value else { throw OptionsError(field: path, reason: "must be an object") }
        if let unknown = members.keys.sorted().first(where: { !allowed.contains($0) }) {
            throw OptionsError(
                field: "\(path).\(unknown)", reason: "unknown member; expected \(allowed.joined(separator: ", "))")
        }
        self.members = members
        self.path = path
    }

    subscript(name: String) -> JSONValue? { members[name] }

    func field(_ name: String) -> String { "\(path).\(name)" }

    /// A required query key.
    func key(_ name: String = "key") throws(OptionsError) -> QueryKey {
        guard let value = members[name] else { throw OptionsError(field: field(name), reason: "required") }
        do { return try QueryKey(value) } catch { throw OptionsError(field: field(name), reason: error.message) }
    }

    /// A non-negative integer; `fallback` when absent.
    func count(_ name: String, default fallback: Int64 = 0) throws(OptionsError) -> Int64 {
        guard let value = members[name] else { return fallback }
        guard let number = value.int64Value, number >= 0 else {
            throw OptionsError(field: field(name), reason: "must be a non-negative integer")
        }
        return number
    }

    /// A boolean; `fallback` when absent.
    func bool(_ name: String, default fallback: Bool) throws(OptionsError) -> Bool {
        guard let value = members[name] else { return fallback }
        guard let flag = value.boolValue else { throw OptionsError(field: field(name), reason: "must be a boolean") }
        return flag
    }

    /// An optional string.
    func string(_ name: String) throws(OptionsError) -> String? {
        guard let value = members[name] else { return nil }
        guard let text = value.stringValue else { throw OptionsError(field: field(name), reason: "must be a string") }
        return text
    }

    /// A value whose JSON `null` means "none" (an error object, a failure reason).
    func nullable(_ name: String) -> JSONValue? {
        guard let value = members[name], !value.isNull else { return nil }
        return value
    }

    /// An array (empty when absent).
    func array(_ name: String) throws(OptionsError) -> [JSONValue] {
        guard let value = members[name] else { return [] }
        guard case .array(let items) = value else { throw OptionsError(field: field(name), reason: "must be an array") }
        return items
    }
}
