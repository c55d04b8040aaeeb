// The `queries.*` writes over a filter (invalidate, refetch, reset, remove, cancel) as values:
// parsed once from their params, applied to the engine (as a sweep, in slices when it matches many
// queries) by the method handlers and, in a cluster, by every node that receives the write
// (Cluster/Server+ClusterWrites.swift).

import QuerydCore
import QuerydJSON
import QuerydRPC

/// One `queries.*` write over the queries a filter matches.
struct FilterWrite {
    let filter: QueryFilter
    let operation: FilterOperation

    /// The write `method` asks for with `params` (-32602 for bad params; nil for another method).
    init?(method: String, params: Params) throws(RPCError) {
        switch method {
        case "queries.invalidate":
            try params.expect(["filter", "refetchType", "cancelRefetch"])
            var refetchType = RefetchType.active
            if let member = params["refetchType"] {
                guard let text = member.stringValue, let type = RefetchType(rawValue: text) else {
                    throw Params.invalid("refetchType", "must be \"active\", \"inactive\", \"all\" or \"none\"")
                }
                refetchType = type
            }
            operation = .invalidate(
                refetchType: refetchType, cancelRefetch: try params.bool("cancelRefetch", default: true))
        case "queries.refetch":
            try params.expect(["filter", "cancelRefetch"])
            operation = .refetch(cancelRefetch: try params.bool("cancelRefetch", default: true))
        case "queries.reset":
            try params.expect(["filter", "cancelRefetch"])
            operation = .reset(cancelRefetch: try params.bool("cancelRefetch", default: true))
        case "queries.remove":
            try params.expect(["filter"])
            operation = .remove
        case "queries.cancel":
            try params.expect(["filter"])
            operation = .cancel
        default:
            return nil
        }
        filter = try params.filter()
    }

    /// Whether the write makes the matched queries' data unusable as it is (so shared copies go).
    var dropsData: Bool {
        switch operation {
        case .invalidate, .reset, .remove: return true
        case .refetch, .cancel: return false
        }
    }

    /// Applies the write to `cache`: how many queries it matched, or the sweep that will tell.
    func apply(to cache: QueryCache) -> FilterCallOutcome {
        cache.sweep(operation, filter)
    }
}
