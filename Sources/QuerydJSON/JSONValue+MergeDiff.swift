// The other direction of JSON Merge Patch (RFC 7396): the patch that turns one value into another,
// when one exists. A merge patch cannot write a null object member (null means "remove"), so a
// target with one inside an object that changed has none.

extension JSONValue {
    /// A merge patch that turns this value into `target`, or nil when no merge patch can (the
    /// target puts a null member into an object the patch must write). Unchanged members are left
    /// out, removed ones are null; objects on both sides are patched member by member, anything
    /// else is replaced whole.
    public func mergePatch(to target: JSONValue) -> JSONValue? {
        guard case .object(let old) = self, case .object(let new) = target else {
            // (Not a `?:` with `nil`: a nil literal there would be the JSON null.)
            if target.hasNullMember { return nil }
            return target
        }
        var patch: [String: JSONValue] = [:]
        for name in old.keys where new[name] == nil { patch[name] = .null }
        for (name, value) in new {
            guard let before = old[name] else {
                guard !value.isNullOrHasNullMember else { return nil }
                patch[name] = value
                continue
            }
            if before == value { continue }
            if case .object = before, case .object = value {
                guard let inner = before.mergePatch(to: value) else { return nil }
                patch[name] = inner
            } else {
                guard !value.isNullOrHasNullMember else { return nil }
                patch[name] = value
            }
        }
        return .object(patch)
    }

    /// Whether an object member is null here or in an object nested in objects (arrays are written
    /// whole by a patch, so what they hold does not count).
    private var hasNullMember: Bool {
        guard case .object(let members) = self else { return false }
        return members.values.contains { $0.isNullOrHasNullMember }
    }

    private var isNullOrHasNullMember: Bool {
        if case .null = self { return true }
        return hasNullMember
    }
}
