// The one way a query's state changes: an action is reduced into the state (`QueryState.reduce`),
// then the change is published to the query's subscriptions and, for new data, reported for
// persistence. Nothing else assigns a query's state or publishes it.

extension QueryCache {
    /// Reduces `action` into the query's state and publishes the result; with `reportingData`, the
    /// change is also reported as new data (`dataChanged`).
    func dispatch(_ action: QueryAction, to query: Query, reportingData: Bool = false) {
        if case .invalidated = action {
            guard query.markInvalidated() else { return }
        } else {
            query.state.reduce(action)
        }
        if reportingData { reportDataChanged(query) }
        report(.queryChanged(query))
        publish(query)
    }

    /// Dispatches a write of new data whose encoding (with the key's) must fit `maxDataBytes`:
    /// a longer one is refused, leaving the state as it was (nothing is published). Returns nil when
    /// applied, else the refused length in bytes.
    func dispatchWrite(_ action: QueryAction, to query: Query) -> Int? {
        let before = query.state
        query.state.reduce(action)
        if let bytes = query.dataAndKeyByteCount, bytes > maxDataBytes {
            query.state = before
            return bytes
        }
        reportDataChanged(query)
        report(.queryChanged(query))
        publish(query)
        return nil
    }
}
