// Test support for the infinite-query engine tests: options literals, page answers (a whole answer
// object with `nextPageParam` / `previousPageParam`), next/previous page calls, and compact
// descriptions of the page requests sent and of a view's pages and paging flags.

import QuerydCore
import QuerydJSON
import Testing

/// Options making an infinite query, plus `extra` options.
func infiniteOptions(
    _ initialPageParam: JSONValue, maxPages: Int? = nil, _ extra: [String: JSONValue] = [:]
) -> JSONValue {
    var paging: [String: JSONValue] = ["initialPageParam": initialPageParam]
    if let maxPages { paging["maxPages"] = .number(JSONNumber(maxPages)) }
    var members = extra
    members["infinite"] = .object(paging)
    return .object(members)
}

/// The data of an infinite query.
func pagesData(_ pages: [JSONValue], _ params: [JSONValue]) -> JSONValue {
    ["pages": .array(pages), "pageParams": .array(params)]
}

/// A view's pages and page params as `pages [..] params [..]` ("no data" without data).
func describePages(_ view: QueryResult?) -> String {
    guard let data = view?.data else { return "no data" }
    guard case .array(let pages)? = data["pages"], case .array(let params)? = data["pageParams"] else {
        return "not paged: \(data)"
    }
    return "pages \(JSONValue.array(pages)) params \(JSONValue.array(params))"
}

/// A view's paging flags, each listed when true: next, previous, fetchingNext, fetchingPrevious,
/// nextError, previousError ("-" when none is true; "ordinary" when the view has none).
func describeFlags(_ view: QueryResult?) -> String {
    guard let flags = view?.infinite else { return "ordinary" }
    var names: [String] = []
    if flags.hasNextPage { names.append("next") }
    if flags.hasPreviousPage { names.append("previous") }
    if flags.isFetchingNextPage { names.append("fetchingNext") }
    if flags.isFetchingPreviousPage { names.append("fetchingPrevious") }
    if flags.isFetchNextPageError { names.append("nextError") }
    if flags.isFetchPreviousPageError { names.append("previousError") }
    return names.isEmpty ? "-" : names.joined(separator: " ")
}

extension EngineHarness {
    /// Answers the latest request for `key` with a page and its links (nil: the member is absent).
    func answerPage(
        _ key: QueryKey, _ page: JSONValue, next: JSONValue? = nil, previous: JSONValue? = nil,
        sourceLocation: SourceLocation = #_sourceLocation
    ) {
        var answer: [String: JSONValue] = ["data": page]
        if let next { answer["nextPageParam"] = next }
        if let previous { answer["previousPageParam"] = previous }
        answerWhole(key, .object(answer), sourceLocation: sourceLocation)
    }

    /// Answers the latest request for `key` with exactly `answer`.
    func answerWhole(_ key: QueryKey, _ answer: JSONValue, sourceLocation: SourceLocation = #_sourceLocation) {
        guard let request = latestRequest(for: key) else {
            Issue.record("no fetch request for \(key)", sourceLocation: sourceLocation)
            return
        }
        cache.attemptSucceeded(request.attempt, answer: answer)
    }

    /// The page requests sent for `key`, in order, as `"<param> <direction>"` (`"-"` for an
    /// ordinary request without a page).
    func pageRequests(for key: QueryKey) -> [String] {
        sends(for: key).map { request in
            guard let page = request.page else { return "-" }
            return "\(page.param) \(page.direction.rawValue)"
        }
    }

    /// A `query.fetchNextPage` / `query.fetchPreviousPage {subscription}` caller.
    @discardableResult
    func fetchPage(
        _ direction: PageDirection, _ id: SubscriptionID, cancelRefetch: Bool = true,
        sourceLocation: SourceLocation = #_sourceLocation
    ) -> Outcome {
        let outcome = makeOutcome()
        do {
            try cache.fetchPage(
                direction, subscription: id, connection: Self.client, cancelRefetch: cancelRefetch,
                waiter: outcome.token)
        } catch {
            Issue.record("fetchPage: \(error)", sourceLocation: sourceLocation)
        }
        return outcome
    }

    /// The same by key; a refusal is recorded in the outcome as a failure.
    @discardableResult
    func fetchPage(_ direction: PageDirection, key: QueryKey, cancelRefetch: Bool = true) -> Outcome {
        let outcome = makeOutcome()
        do {
            try cache.fetchPage(direction, key: key, cancelRefetch: cancelRefetch, waiter: outcome.token)
        } catch {
            outcome.record(.failure(error))
        }
        return outcome
    }

    /// Subscribes with options that the cache may refuse; the failure or the id and first view.
    func trySubscribe(_ key: QueryKey, _ json: JSONValue?) -> Result<(SubscriptionID, QueryResult), CacheFailure> {
        do {
            return .success(try cache.subscribe(connection: Self.client, key: key, options: options(json)))
        } catch {
            return .failure(error)
        }
    }

    /// The last view pushed to a subscription.
    func lastPush(of id: SubscriptionID) -> QueryResult? { pushes(of: id).last }

    /// Loads `count` pages forward through a subscription whose fetcher numbers pages from the
    /// initial param: page `n` is `"p<n>"` with next `n + 1` (and previous `n - 1` when `previous`).
    func loadNumberedPages(
        _ key: QueryKey, subscription: SubscriptionID, from first: Int, count: Int, previous: Bool = false
    ) {
        for n in first..<(first + count) {
            if n > first { fetchPage(.forward, subscription) }
            answerPage(
                key, .string("p\(n)"), next: .number(JSONNumber(n + 1)),
                previous: previous ? .number(JSONNumber(n - 1)) : nil)
        }
    }
}
