// JSON Merge Patch (RFC 7396).

extension JSONValue {
    /// Applies `patch` to this value following RFC 7396 section 2: a non-object patch replaces the
    /// target; an object patch turns a non-object target into `{}`, deletes members whose patch
    /// value is `null` and merges the others recursively.
    public func applyingMergePatch(_ patch: JSONValue) -> JSONValue {
        guard case .object(let patchMembers) = patch else { return patch }
        var members: [String: JSONValue]
        if case .object(let targetMembers) = self {
            members = targetMembers
        } else {
            members = [:]
        }
        for (name, patchValue) in patchMembers {
            if case .null = patchValue {
                members.removeValue(forKey: name)
            } else {
                let target = members.removeValue(forKey: name) ?? .null
                members[name] = target.applyingMergePatch(patchValue)
            }
        }
        return .object(members)
    }
}
