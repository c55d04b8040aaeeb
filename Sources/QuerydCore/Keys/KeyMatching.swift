// TanStack Query's partial key matching (`partialMatchKey`), used by filters and query defaults.
//
// A filter matches a value when every part the filter states is present and equal in the value:
// arrays match as prefixes at every depth, objects match on the members the filter names.

public import QuerydJSON

/// Partial matching of query keys against filter keys, with TanStack Query's rules.
public enum KeyMatching {
    /// Whether `value` partially matches `filter`:
    /// - equal values match;
    /// - two arrays match when every index of `filter` partially matches the same index of `value`
    ///   (so `filter` is a prefix of `value`, recursively);
    /// - two objects match when every member of `filter` partially matches the member of `value`
    ///   with the same name (extra members of `value` are ignored; a missing one does not match);
    /// - values of different types never match, and `null` matches only `null`.
    public static func partialMatch(_ value: JSONValue, filter: JSONValue) -> Bool {
        switch (value, filter) {
        case (.array(let values), .array(let filters)):
            guard filters.count <= values.count else { return false }
            for index in filters.indices where !partialMatch(values[index], filter: filters[index]) {
                return false
            }
            return true
        case (.object(let values), .object(let filters)):
            guard filters.count <= values.count else { return false }
            for (name, filterMember) in filters {
                guard let member = values[name], partialMatch(member, filter: filterMember) else { return false }
            }
            return true
        default:
            return value == filter
        }
    }

    /// Whether `key` starts with elements that partially match `prefix`, element by element.
    /// An empty prefix matches every key.
    public static func matches(_ key: QueryKey, prefix: [JSONValue]) -> Bool {
        partialMatch(.array(key.elements), filter: .array(prefix))
    }
}
