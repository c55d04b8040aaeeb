// The key part that query and mutation filters share: a key prefix (objects matching partially)
// and whether it must match exactly, read from a filter object's members.

import QuerydJSON

/// Reads `key` and `exact` out of a filter object.
struct FilterKeyReader {
    var key: [JSONValue]?
    var exact = false

    /// Reads the member when it is `key` or `exact`; returns false for any other member.
    mutating func read(_ name: String, _ member: JSONValue, field: String) throws(OptionsError) -> Bool {
        switch name {
        case "key":
            guard case .array(let elements) = member else {
                throw OptionsError(field: field, reason: "must be an array")
            }
            key = elements
        case "exact":
            guard case .bool(let b) = member else { throw OptionsError(field: field, reason: "must be a boolean") }
            exact = b
        default:
            return false
        }
        return true
    }

    /// Refuses `exact` without a key to be exact about.
    func validate(path: String) throws(OptionsError) {
        if exact, key?.isEmpty ?? true {
            throw OptionsError(field: "\(path).exact", reason: "exact needs a non-empty key")
        }
    }
}
