// What a cluster layer forwarding mutations between nodes needs of the mutation cache: the local
// mutator that would serve a key.

import QuerydJSON

extension MutationCache {
    /// The mutator that would serve `key` among those whose connection is `eligible` (the same
    /// longest-prefix choice as for an attempt).
    public func mutator(for key: QueryKey, eligible: (ConnectionID) -> Bool) -> Registration? {
        registry.choose(for: key) { eligible($0.connection) }?.registration
    }
}
