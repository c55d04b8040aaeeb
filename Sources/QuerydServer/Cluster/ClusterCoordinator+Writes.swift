// Writes everywhere: the write methods applied here are published (with their shared copies of
// data stored or deleted first), mutations' effects on queries too, and other nodes' writes are
// applied with the same engine methods, publishing nothing back.

import QuerydCore
import QuerydJSON
import QuerydRPC

extension ClusterCoordinator {
    /// Applies a `queries.*` write here and publishes it; the shared copies of the data it makes
    /// unusable are deleted first (before any refetch it causes reads them).
    func applyEverywhere(_ write: FilterWrite, method: String, params: JSONValue) -> FilterCallOutcome {
        if write.dropsData {
            markInvalidated(write.filter, at: cache.now)
            dropShared(matching: write.filter)
        }
        let outcome = write.apply(to: cache)
        publishWrite(method, params)
        return outcome
    }

    /// Publishes a `query.set` made here, as the data and `dataUpdatedAt` it left (so every node
    /// writes the same, whatever its own data), and stores it as the shared copy.
    func wroteData(to key: QueryKey) {
        guard let state = cache.query(key)?.state, let data = state.data else { return }
        let params: JSONValue = [
            "key": key.jsonValue, "data": data, "updatedAt": .number(JSONNumber(state.dataUpdatedAt)),
        ]
        wroteData(method: "query.set", params: params, keys: [key])
    }

    /// Publishes a data write made here (`query.set`, `queries.setData`) and stores the keys' new
    /// data as their shared copies. `params` carry the resolved `updatedAt`.
    func wroteData(method: String, params: JSONValue, keys: [QueryKey]) {
        if joined {
            for key in keys {
                guard let state = cache.query(key)?.state, let entry = ClusterEntry(key: key, state: state) else {
                    continue
                }
                bus.send(entry.setCommand(layout, gcTime: cache.gcTime(of: key))) { _ in }
            }
        }
        publishWrite(method, params)
    }

    /// A mutation wrote `key` here (optimistic data, its rollback, a `setData` result): every node
    /// gets the state it left, whatever the times (a rollback puts older data back); a rollback to
    /// no data resets the key everywhere.
    func mutationWrote(_ key: QueryKey) {
        guard let state = cache.query(key)?.state else { return }
        guard let data = state.data else {
            let filter: JSONValue = ["key": key.jsonValue, "exact": true]
            if joined { bus.send([bytes("DEL"), layout.dataKey(key)]) { _ in } }
            publishWrite("queries.reset", ["filter": filter])
            return
        }
        let params: JSONValue = [
            "key": key.jsonValue, "data": data, "updatedAt": .number(JSONNumber(state.dataUpdatedAt)), "exact": true,
        ]
        wroteData(method: "query.set", params: params, keys: [key])
    }

    /// A mutation invalidated `key` here: so does every node (its shared copy goes first).
    func mutationInvalidated(_ key: QueryKey) {
        if joined { bus.send([bytes("DEL"), layout.dataKey(key)]) { _ in } }
        let filter: JSONValue = ["key": key.jsonValue, "exact": true]
        publishWrite("queries.invalidate", ["filter": filter])
    }

    /// Publishes a write made here; made while the link is down, it waits for the link.
    func publishWrite(_ method: String, _ params: JSONValue) {
        let body = ClusterMessage.Body.write(method: method, params: params, at: cache.now)
        let payload = ClusterMessage(origin: nodeId, body: body).encoded
        publish(payload: payload, queuedWhileDown: true)
    }

    /// Records in Redis that `filter` invalidated (reset, removed) its keys at `time`, so the shared
    /// copies stored at or before it are stale also for keys no node holds (every node applying the
    /// write records it: the time only grows, and a write published late is still recorded).
    func markInvalidated(_ filter: QueryFilter, at time: Int64) {
        guard joined else { return }
        let script =
            "local t = redis.call('hget', KEYS[1], ARGV[1]) "
            + "if not t or tonumber(t) < tonumber(ARGV[2]) then redis.call('hset', KEYS[1], ARGV[1], ARGV[2]) end "
            + "return 0"
        let field = ClusterLayout.invalidationField(filter.key?.first)
        bus.send([bytes("EVAL"), bytes(script), bytes("1"), layout.invalidatedKey, bytes(field), bytes(String(time))]) {
            _ in
        }
    }

    /// Deletes the shared copies of the queries `filter` matches here; with `writtenBy`, only those
    /// stored at or before that time (another node's write: a copy fetched since is kept).
    func dropShared(matching filter: QueryFilter, writtenBy time: Int64? = nil) {
        guard joined else { return }
        let script =
            "local v = redis.call('get', KEYS[1]) "
            + "if v and cjson.decode(v).dataUpdatedAt <= tonumber(ARGV[1]) then return redis.call('del', KEYS[1]) end "
            + "return 0"
        for result in cache.list(filter) {
            let key = layout.dataKey(result.key)
            if let time {
                bus.send([bytes("EVAL"), bytes(script), bytes("1"), key, bytes(String(time))]) { _ in }
            } else {
                bus.send([bytes("DEL"), key]) { _ in }
            }
        }
    }

    /// Applies another node's write with the same engine methods (and publishes nothing).
    func applyRemoteWrite(_ method: String, _ params: JSONValue, at time: Int64, from origin: String) {
        do {
            let parsed = try Params(params)
            if let write = try FilterWrite(method: method, params: parsed) {
                if write.dropsData {
                    markInvalidated(write.filter, at: time)
                    dropShared(matching: write.filter, writtenBy: time)
                }
                _ = write.apply(to: cache)
            } else if method == "queries.setData" {
                _ = try? cache.setData(
                    try parsed.filter(), try parsed.write(),
                    updatedAt: try parsed.optionalInt("updatedAt").map(Int64.init))
            } else if method == "query.set", let data = parsed["data"],
                let updatedAt = try parsed.optionalInt("updatedAt").map(Int64.init)
            {
                let key = try parsed.key()
                // Last writer wins by dataUpdatedAt: an older write than the data here is not applied
                // (except a mutation's, `exact`, which may put older data back: a rollback).
                let exact = parsed["exact"] == .bool(true)
                if !exact, let local = cache.query(key)?.state, local.dataUpdatedAt > updatedAt { return }
                _ = try? cache.set(key: key, .data(data), updatedAt: updatedAt)
            } else {
                logger.warning("cluster: ignored a write of unknown method \(method) from \(origin)")
            }
        } catch {
            logger.warning("cluster: ignored a write \(method) from \(origin): \(error.message)")
        }
    }
}
