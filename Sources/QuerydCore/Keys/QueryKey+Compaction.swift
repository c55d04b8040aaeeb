// A query key as the cache stores it: the parser reserves room for 4 elements in every array, so
// a 2-element key kept for the life of its query would carry 2 empty slots; the stored copy has none.

import QuerydJSON

extension QueryKey {
    /// An equal key whose element array (and any container inside it) has no spare capacity.
    var compacted: QueryKey {
        QueryKey(elements: elements.map { $0.compacted() })
    }
}
