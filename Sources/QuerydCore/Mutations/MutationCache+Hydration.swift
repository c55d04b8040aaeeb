// The mutations of a cache snapshot (`cache.dehydrate` / `cache.hydrate`, and the persisted
// offline mutations of `--persist`): TanStack's dehydrateMutation and the mutation half of hydrate.
//
// Dehydrate keeps only paused mutations (B138: a mutation between retries, or out at a mutator, is
// not kept), in submission order, each as `{key, state, options}`: `state` has status "pending",
// isPaused, variables, submittedAt, failureCount and failureReason; `options` are the mutation's
// `mutation.run` options without `optimistic` (those writes were made already; the queries carry
// them), so invalidations, result writes, retries, scope and meta work as before.
//
// Hydrate adds each as a new mutation (a new id, no caller waiting), pending and paused, after the
// mutations already unsettled. A hydrated mutation never fails for want of a mutator: it stays
// paused until the network is up and a mutator for its key is registered (B141), then runs like
// any other. Its optimistic writes cannot be rolled back: a failure leaves the queries as they are.

public import QuerydJSON

/// One mutation entry of a snapshot, read and checked.
public struct DehydratedMutation: Sendable {
    let key: QueryKey
    let variables: JSONValue
    let submittedAt: Int64
    let failureCount: Int
    let failureReason: JSONValue?
    let options: MutationOptions

    static let entryMembers = ["key", "state", "options"]
    static let stateMembers = ["failureCount", "failureReason", "isPaused", "status", "submittedAt", "variables"]

    /// Reads one entry of a snapshot's `mutations`; `path` names it in errors.
    public init(json value: JSONValue, path: String) throws(OptionsError) {
        let entry = try SnapshotFields(value, path: path, allowed: Self.entryMembers)
        key = try entry.key()
        let state = try SnapshotFields(entry["state"], path: entry.field("state"), allowed: Self.stateMembers)
        if let status = try state.string("status"), status != MutationStatus.pending.rawValue {
            throw OptionsError(
                field: state.field("status"), reason: "must be \"pending\" (only paused mutations are kept)")
        }
        _ = try state.bool("isPaused", default: true)
        variables = state["variables"] ?? .null
        submittedAt = try state.count("submittedAt")
        failureCount = Int(try state.count("failureCount"))
        failureReason = state.nullable("failureReason")
        if case .object(let members)? = entry["options"], members["optimistic"] != nil {
            throw OptionsError(
                field: entry.field("options.optimistic"), reason: "optimistic writes are not part of a snapshot")
        }
        options = try MutationOptions(json: entry["options"], path: entry.field("options"))
    }
}

extension MutationCache {
    /// The snapshot entries of the paused mutations, in submission order.
    public func dehydrateMutations() -> [JSONValue] {
        unsettled.filter { $0.state.isPaused }.map(dehydrated)
    }

    func dehydrated(_ mutation: Mutation) -> JSONValue {
        let state = mutation.state
        var options: [String: JSONValue] = [:]
        if case .object(let given)? = mutation.options.source { options = given }
        options["optimistic"] = nil
        return [
            "key": state.key.jsonValue,
            "state": [
                "status": .string(state.status.rawValue), "isPaused": .bool(state.isPaused),
                "variables": state.variables, "submittedAt": .number(JSONNumber(state.submittedAt)),
                "failureCount": .number(JSONNumber(state.failureCount)), "failureReason": state.failureReason ?? .null,
            ],
            "options": .object(options),
        ]
    }

    /// Adds a snapshot's paused mutation (see above); returns its id. It does not start here: the
    /// caller resumes what may run once every entry is in (`resumeRunnable`), so adding many costs
    /// one pass. `persisted`: it comes from the store, which holds it already.
    @discardableResult
    public func hydrate(_ entry: DehydratedMutation, persisted: Bool = false) -> MutationID {
        var state = MutationState(
            id: makeMutationID(), key: entry.key, variables: entry.variables, submittedAt: entry.submittedAt,
            scope: entry.options.scope)
        state.meta = entry.options.meta
        state.failureCount = entry.failureCount
        state.failureReason = entry.failureReason
        state.isPaused = true
        let mutation = Mutation(state: state, options: entry.options)
        mutation.waitsForMutator = true
        mutation.isPersisted = persisted
        mutations[mutation.id] = mutation
        unsettled.append(mutation)
        publish(mutation)
        return mutation.id
    }
}
