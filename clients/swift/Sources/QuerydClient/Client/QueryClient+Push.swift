// States arriving for a subscription: in `push: "patch"` mode the data is rebuilt from merge patches, so the
// subscription's stream always carries full states (see protocol 2, push granularity).

import QuerydJSON

/// The data a patch-mode subscription last received, and its `dataVersion`.
struct PatchBase {
    let dataVersion: Int64
    let data: JSONValue
}

extension QueryClient {
    /// A full state for subscription `local` (a subscribe or setOptions result): yields it and, in patch mode,
    /// makes its data the base for the next patch.
    func receiveFullState(_ raw: JSONValue, for local: Int, freshStart: Bool) {
        guard var state = try? QueryState(json: raw) else { return }
        state.isFreshStart = freshStart
        remember(state, for: local)
        subscriptions[local]?.continuation.yield(.state(state))
    }

    /// A `query.changed` for subscription `local`.
    func receivePush(_ params: JSONValue, for local: Int) {
        guard let entry = subscriptions[local] else { return }
        if entry.heldPushes != nil {
            subscriptions[local]?.heldPushes?.append(params)
            return
        }
        guard let raw = params["state"], var state = try? QueryState(json: raw) else { return }
        state.isFreshStart = params["resync"]?.boolValue == true
        guard entry.options.push == .patch else {
            entry.continuation.yield(.state(state))
            return
        }
        if state.isFreshStart { subscriptions[local]?.base = nil }
        let base = subscriptions[local]?.base
        if state.data == nil {
            if let patch = params["patch"] {
                guard let base, patch["baseVersion"]?.int64Value == base.dataVersion, let change = patch["patch"] else {
                    reread(state, for: local)
                    return
                }
                state = state.replacingData(base.data.applyingMergePatch(change))
            } else if let dataVersion = state.dataVersion {
                guard let base, base.dataVersion == dataVersion else {
                    reread(state, for: local)
                    return
                }
                state = state.replacingData(base.data)
            }
        }
        remember(state, for: local)
        entry.continuation.yield(.state(state))
    }

    /// Patch mode: keeps the state's data as the next patch's base (or forgets the base when it has none).
    func remember(_ state: QueryState, for local: Int) {
        guard subscriptions[local]?.options.push == .patch else { return }
        if let data = state.data, let dataVersion = state.dataVersion {
            subscriptions[local]?.base = PatchBase(dataVersion: dataVersion, data: data)
        } else {
            subscriptions[local]?.base = nil
        }
    }

    /// The base does not match the push: reads the data with `query.state`, yields the push with it, then
    /// handles the pushes that arrived meanwhile in order.
    private func reread(_ pushed: QueryState, for local: Int) {
        subscriptions[local]?.base = nil
        subscriptions[local]?.heldPushes = []
        let key = pushed.key
        Task {
            let current = try? await self.request("query.state", ["key": key], binding: nil)
            self.finishReread(pushed, current: current, for: local)
        }
    }

    private func finishReread(_ pushed: QueryState, current: JSONValue?, for local: Int) {
        guard let held = subscriptions[local]?.heldPushes else { return }
        subscriptions[local]?.heldPushes = nil
        var state = pushed
        if let data = current?["data"] { state = state.replacingData(data) }
        remember(state, for: local)
        subscriptions[local]?.continuation.yield(.state(state))
        for params in held { receivePush(params, for: local) }
    }
}
