// The write methods' way into the cluster: applied here, and, with `--cluster`, published to every
// other node (which applies them with the same engine methods).

import QuerydCore
import QuerydJSON

extension Server {
    /// Applies a `queries.*` write (and, in a cluster, sends it to every node); returns the count
    /// of queries it matched here, or the sweep that will tell.
    func apply(_ write: FilterWrite, method: String, params: JSONValue?) -> FilterCallOutcome {
        guard let cluster else { return write.apply(to: cache) }
        return cluster.applyEverywhere(write, method: method, params: params ?? [:])
    }
}
