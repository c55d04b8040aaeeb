// Test support for the engine tests: a QueryCache on a manual clock whose effects are taken after
// every input and logged in order with the virtual time they were decided at, helpers that answer
// the fetch requests it sends, and compact one-line descriptions of the views it pushes, so tests
// can pin exact state sequences.

import QuerydCore
import QuerydJSON
import Testing

/// One effect the cache decided, with the virtual time (ms since the harness started) it was taken at.
enum Effect {
    case send(FetchRequest, at: Int64)
    case cancel(AttemptID, ConnectionID, at: Int64)
    case push(QueryResult, SubscriptionID, ConnectionID, at: Int64)
}

/// Takes the cache's effects and logs them in order: fetch requests, cancels and pushes, and the
/// answers to waiting callers (routed to their `Outcome`).
final class EffectLog {
    private let cache: QueryCache
    private let clock: ManualClock
    private let start: Int64
    private var log: [Effect] = []
    private var lastToken = 0
    private var outcomes: [WaiterToken: Outcome] = [:]
    private var mutationLog: [MutationEffect] = []
    private var mutationOutcomes: [WaiterToken: MutationOutcome] = [:]

    init(cache: QueryCache, clock: ManualClock, start: Int64) {
        self.cache = cache
        self.clock = clock
        self.start = start
    }

    /// Every effect so far, in order.
    var effects: [Effect] {
        take()
        return log
    }

    /// Every effect of the mutation cache so far, in order.
    var mutationEffects: [MutationEffect] {
        take()
        return mutationLog
    }

    /// A new waiting caller, answered through this log.
    func makeOutcome() -> Outcome {
        lastToken += 1
        let outcome = Outcome(token: WaiterToken(lastToken), log: self)
        outcomes[outcome.token] = outcome
        return outcome
    }

    /// A new `mutation.run` caller, answered through this log.
    func makeMutationOutcome() -> MutationOutcome {
        lastToken += 1
        let outcome = MutationOutcome(token: WaiterToken(lastToken), log: self)
        mutationOutcomes[outcome.token] = outcome
        return outcome
    }

    /// Takes the effects the cache decided since the last call, stamped with the time now.
    func take() {
        let at = clock.now - start
        cache.effects.drain { effect in
            switch effect {
            case .sendFetch(let request): log.append(.send(request, at: at))
            case .cancelFetch(let attempt, let connection): log.append(.cancel(attempt, connection, at: at))
            case .push(let view, let subscription, let connection):
                log.append(.push(view.result, subscription, connection, at: at))
            case .answer(let token, let result): outcomes[token]?.record(result)
            case .answerAll(let tokens, let result): for token in tokens { outcomes[token]?.record(result) }
            case .sendMutate(let request): mutationLog.append(.send(request))
            case .cancelMutate(let attempt, _): mutationLog.append(.cancel(attempt))
            case .pushMutation(let state, let subscription, _): mutationLog.append(.push(state, subscription))
            case .answerMutation(let token, let result): mutationOutcomes[token]?.record(result)
            case .dataChanged, .queryRemoved, .cacheEvent, .pausedMutationsChanged, .mutationWrote,
                .mutationInvalidated:
                break
            }
        }
    }
}

/// Collects what one waiting caller was answered (`fetch`, `refetch`: a view; `mutation.run`: data).
final class CallerOutcome<Success> {
    /// The token the engine answers this caller by.
    let token: WaiterToken
    private unowned let log: EffectLog
    private var answers: [Result<Success, CacheFailure>] = []

    init(token: WaiterToken, log: EffectLog) {
        self.token = token
        self.log = log
    }

    func record(_ result: Result<Success, CacheFailure>) { answers.append(result) }

    /// Every answer so far.
    var results: [Result<Success, CacheFailure>] {
        log.take()
        return answers
    }

    /// The answer, when the caller got exactly one successful answer.
    var success: Success? {
        let results = results
        guard results.count == 1, case .success(let value) = results[0] else { return nil }
        return value
    }

    /// The failure the caller got, when it got exactly one failed answer.
    var failure: CacheFailure? {
        let results = results
        guard results.count == 1, case .failure(let failure) = results[0] else { return nil }
        return failure
    }
}

/// A `fetch` / `refetch` caller.
typealias Outcome = CallerOutcome<QueryResult>

extension CallerOutcome where Success == QueryResult {
    /// The view the caller got, when it got exactly one successful answer.
    var value: QueryResult? { success }
}

/// A key from its elements.
func key(_ elements: JSONValue...) -> QueryKey {
    QueryKey(elements: elements)
}

/// Query options from their JSON form (a malformed literal is a test defect and is recorded).
func options(_ json: JSONValue?) -> QueryOptions {
    do {
        return try QueryOptions(json: json)
    } catch {
        Issue.record("bad options literal \(String(describing: json)): \(error)")
        return QueryOptions()
    }
}

/// A query filter from its JSON form.
func filter(_ json: JSONValue?) -> QueryFilter {
    do {
        return try QueryFilter(json: json)
    } catch {
        Issue.record("bad filter literal \(String(describing: json)): \(error)")
        return QueryFilter()
    }
}

/// A compact description of a view: `status/fetchStatus`, then `data=`, `error=<code>`,
/// `failures=n`, `invalidated`, `placeholder`, and (when `stale`) `stale` or `fresh`.
func describe(_ view: QueryResult, stale: Bool = false) -> String {
    var text = "\(view.status.rawValue)/\(view.fetchStatus.rawValue)"
    if let data = view.data { text += " data=\(data)" }
    if let error = view.error { text += " error=\(error["code"]?.intValue ?? 0)" }
    if view.failureCount > 0 { text += " failures=\(view.failureCount)" }
    if view.isInvalidated { text += " invalidated" }
    if view.isPlaceholderData { text += " placeholder" }
    if stale { text += view.isStale ? " stale" : " fresh" }
    return text
}

/// A query cache on a manual clock, with a fetcher connection and a client connection.
final class EngineHarness {
    static let client = ConnectionID(1)
    static let otherClient = ConnectionID(2)
    static let fetcherConnection = ConnectionID(100)
    /// The error object the tests' failing fetchers answer with.
    static let fetcherError: JSONValue = ["code": 7, "message": "boom"]

    let clock = ManualClock()
    let cache: QueryCache
    let log: EffectLog
    let start: Int64

    init() {
        start = clock.now
        cache = QueryCache(clock: clock)
        log = EffectLog(cache: cache, clock: clock, start: start)
    }

    /// Milliseconds of virtual time since the harness was made.
    var elapsed: Int64 { clock.now - start }

    /// Moves virtual time forward, firing due timers at their deadlines (their effects are
    /// stamped with the deadline they fired at).
    func advance(_ ms: Int64) {
        log.take()
        let target = clock.now + max(ms, 0)
        while let deadline = cache.nextDeadline, deadline <= target {
            if deadline > clock.now { clock.advance(by: deadline - clock.now) }
            cache.runDueTimers()
            log.take()
        }
        clock.advance(by: target - clock.now)
    }

    /// Moves virtual time to `ms` after the start.
    func advance(to ms: Int64) {
        advance(ms - elapsed)
    }

    /// A new waiting caller, to hand its token to the cache.
    func makeOutcome() -> Outcome { log.makeOutcome() }

    // MARK: - Driving the cache

    @discardableResult
    func register(
        _ prefix: JSONValue..., exact: Bool = false, cancellable: Bool = false, defaults: JSONValue? = nil,
        connection: ConnectionID = fetcherConnection
    ) -> FetcherID {
        cache.registerFetcher(
            connection: connection, prefix: prefix, exact: exact, cancellable: cancellable,
            defaults: options(defaults))
    }

    @discardableResult
    func subscribe(
        _ key: QueryKey, _ json: JSONValue? = nil, connection: ConnectionID = client
    ) -> (id: SubscriptionID, view: QueryResult) {
        // The tests subscribe only in ways the cache accepts; a refusal is a test bug.
        let (id, view) = try! cache.subscribe(connection: connection, key: key, options: options(json))
        return (id, view)
    }

    func unsubscribe(_ id: SubscriptionID, connection: ConnectionID = client) {
        do { try cache.unsubscribe(id, connection: connection) } catch { Issue.record("unsubscribe: \(error)") }
    }

    func setOptions(
        _ id: SubscriptionID, key: QueryKey? = nil, _ json: JSONValue?, connection: ConnectionID = client
    ) -> QueryResult? {
        do {
            return try cache.setOptions(id, connection: connection, key: key, options: json.map { options($0) })
        } catch {
            Issue.record("setOptions: \(error)")
            return nil
        }
    }

    /// A `query.fetch` / `query.ensure` caller; the outcome fills in when the fetch settles.
    @discardableResult
    func fetch(_ key: QueryKey, _ json: JSONValue? = nil, mode: FetchMode = .fetch) -> Outcome {
        let outcome = makeOutcome()
        do {
            try cache.fetch(key: key, options: options(json), mode: mode, waiter: outcome.token)
        } catch {
            outcome.record(.failure(error))
        }
        return outcome
    }

    /// A `query.refetch {subscription}` caller.
    @discardableResult
    func refetch(_ id: SubscriptionID, cancelRefetch: Bool = true) -> Outcome {
        let outcome = makeOutcome()
        do {
            try cache.refetch(
                subscription: id, connection: Self.client, cancelRefetch: cancelRefetch, waiter: outcome.token)
        } catch {
            Issue.record("refetch: \(error)")
        }
        return outcome
    }

    @discardableResult
    func set(_ key: QueryKey, _ data: JSONValue, updatedAt: Int64? = nil) -> QueryResult {
        try! cache.set(key: key, .data(data), updatedAt: updatedAt)
    }

    // MARK: - Answering fetch requests

    /// Answers the latest request for `key` with data.
    func answer(_ key: QueryKey, _ data: JSONValue, sourceLocation: SourceLocation = #_sourceLocation) {
        guard let request = latestRequest(for: key) else {
            Issue.record("no fetch request for \(key)", sourceLocation: sourceLocation)
            return
        }
        cache.attemptSucceeded(request.attempt, answer: ["data": data])
    }

    /// Answers the latest request for `key` with an error object.
    func fail(
        _ key: QueryKey, _ error: JSONValue = fetcherError, sourceLocation: SourceLocation = #_sourceLocation
    ) {
        guard let request = latestRequest(for: key) else {
            Issue.record("no fetch request for \(key)", sourceLocation: sourceLocation)
            return
        }
        cache.attemptFailed(request.attempt, error: error)
    }

    // MARK: - Reading the log

    var effects: [Effect] { log.effects }

    /// Every fetch request sent, in order.
    var sends: [FetchRequest] {
        effects.compactMap { if case .send(let request, _) = $0 { request } else { nil } }
    }

    /// The fetch requests sent for `key`, in order.
    func sends(for key: QueryKey) -> [FetchRequest] { sends.filter { $0.key == key } }

    /// The times (ms since start) the requests for `key` were sent.
    func sendTimes(for key: QueryKey) -> [Int64] {
        effects.compactMap { if case .send(let request, let at) = $0, request.key == key { at } else { nil } }
    }

    func latestRequest(for key: QueryKey) -> FetchRequest? { sends(for: key).last }

    /// The attempts the cache told fetchers it no longer wants, in order.
    var cancels: [AttemptID] {
        effects.compactMap { if case .cancel(let attempt, _, _) = $0 { attempt } else { nil } }
    }

    /// Every pushed view, in order, with its subscription.
    var allPushes: [(SubscriptionID, QueryResult)] {
        effects.compactMap { if case .push(let view, let id, _, _) = $0 { (id, view) } else { nil } }
    }

    /// The views pushed to one subscription, in order.
    func pushes(of id: SubscriptionID) -> [QueryResult] {
        allPushes.filter { $0.0 == id }.map(\.1)
    }

    /// The pushes of one subscription as compact descriptions (see `describe`).
    func trace(of id: SubscriptionID, stale: Bool = false) -> [String] {
        pushes(of: id).map { describe($0, stale: stale) }
    }

    /// The times (ms since start) of the pushes to one subscription.
    func pushTimes(of id: SubscriptionID) -> [Int64] {
        effects.compactMap { if case .push(_, let sub, _, let at) = $0, sub == id { at } else { nil } }
    }

    /// The query's state as `query.state` shows it, described compactly ("absent" when not cached).
    func stateText(_ key: QueryKey) -> String {
        cache.state(of: key).map { describe($0) } ?? "absent"
    }
}
