// Test support for the mutation engine tests: an EngineHarness (query cache on a manual clock)
// with a MutationCache next to it, whose effects its log records in order, and helpers to submit
// mutations and answer their `mutate` requests.

import QuerydCore
import QuerydJSON
import Testing

/// One effect the mutation cache decided.
enum MutationEffect {
    case send(MutateRequest)
    case cancel(MutationAttemptID)
    case push(MutationState, SubscriptionID)
}

/// What the caller of one `mutation.run` was answered.
typealias MutationOutcome = CallerOutcome<JSONValue>

extension CallerOutcome where Success == JSONValue {
    /// The data, when the caller got exactly one successful answer.
    var data: JSONValue? { success }
}

/// A query cache and a mutation cache on one manual clock.
final class MutationHarness {
    static let mutatorConnection = ConnectionID(200)
    static let mutatorError: JSONValue = ["code": 9, "message": "rejected"]

    let engine = EngineHarness()
    let mutations: MutationCache

    init() {
        mutations = MutationCache(queries: engine.cache)
    }

    var cache: QueryCache { engine.cache }

    func advance(_ ms: Int64) { engine.advance(ms) }

    @discardableResult
    func registerMutator(_ prefix: JSONValue..., connection: ConnectionID = mutatorConnection) -> MutatorID {
        mutations.registerMutator(connection: connection, prefix: prefix, exact: false)
    }

    /// Submits a mutation; `json` is the options object as `mutation.run` takes it.
    @discardableResult
    func run(
        _ key: QueryKey, variables: JSONValue = nil, _ json: JSONValue? = nil,
        sourceLocation: SourceLocation = #_sourceLocation
    ) -> (id: MutationID?, outcome: MutationOutcome) {
        let outcome = engine.log.makeMutationOutcome()
        do {
            let options = try MutationOptions(json: json)
            let id = try mutations.run(
                connection: EngineHarness.client, key: key, variables: variables, options: options,
                waiter: outcome.token)
            return (id, outcome)
        } catch {
            Issue.record("run: \(error)", sourceLocation: sourceLocation)
            return (nil, outcome)
        }
    }

    // MARK: - Mutate requests

    var sends: [MutateRequest] {
        engine.log.mutationEffects.compactMap { if case .send(let request) = $0 { request } else { nil } }
    }

    var cancels: [MutationAttemptID] {
        engine.log.mutationEffects.compactMap { if case .cancel(let attempt) = $0 { attempt } else { nil } }
    }

    /// The variables of every `mutate` request sent, in order.
    var sentVariables: [JSONValue] { sends.map(\.variables) }

    /// Answers the latest request whose variables are `variables` with `data`.
    func answer(_ variables: JSONValue, data: JSONValue, sourceLocation: SourceLocation = #_sourceLocation) {
        guard let request = sends.last(where: { $0.variables == variables }) else {
            Issue.record("no mutate request for \(variables)", sourceLocation: sourceLocation)
            return
        }
        mutations.attemptSucceeded(request.attempt, answer: ["data": data])
    }

    /// Fails the latest request whose variables are `variables`.
    func reject(_ variables: JSONValue, sourceLocation: SourceLocation = #_sourceLocation) {
        guard let request = sends.last(where: { $0.variables == variables }) else {
            Issue.record("no mutate request for \(variables)", sourceLocation: sourceLocation)
            return
        }
        mutations.attemptFailed(request.attempt, error: Self.mutatorError)
    }

    // MARK: - Mutation states

    /// Every pushed mutation state for one subscription, described compactly.
    func trace(of subscription: SubscriptionID) -> [String] {
        engine.log.mutationEffects.compactMap {
            if case .push(let state, let id) = $0, id == subscription { describe(state) } else { nil }
        }
    }

    /// The state of a mutation, described compactly ("absent" when not kept).
    func stateText(_ id: MutationID?) -> String {
        id.flatMap { mutations.state(of: $0) }.map(describe) ?? "absent"
    }
}

/// `id:status`, then `paused`, `failures=n`, `data=`, `error=<mutator code>`.
func describe(_ state: MutationState) -> String {
    var text = "\(state.id):\(state.status.rawValue)"
    if state.isPaused { text += " paused" }
    if state.failureCount > 0 { text += " failures=\(state.failureCount)" }
    if let data = state.data { text += " data=\(data)" }
    if let error = state.error { text += " error=\(error["data"]?["code"]?.intValue ?? 0)" }
    return text
}
