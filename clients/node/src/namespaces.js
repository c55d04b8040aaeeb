// The typed API grouped by wire namespace: client.query, client.queries, client.mutation,
// client.mutations, client.server and client.clock. Each method maps to one wire method
// (protocol/methods/); options use the wire's camelCase names.

import { asKey, makeFilter, wireOptions } from './keys.js';
import { MutationSubscription } from './subscription.js';

function withOptions(key, options) {
  const converted = wireOptions(options);
  return Object.keys(converted).length > 0 ? { key: asKey(key), options: converted } : { key: asKey(key) };
}

function filterParams(filter, extra = {}) {
  const found = makeFilter(filter);
  return found === undefined ? { ...extra } : { filter: found, ...extra };
}

/** One query by key: `query.*`. The last argument of each method may carry `{signal}`. */
export class QueryAPI {
  #client;
  constructor(client) { this.#client = client; }

  /** Fresh data (fetches unless fresh for `staleTime`); the settled state. */
  fetch(key, options = {}, call = {}) { return this.#client.call('query.fetch', withOptions(key, options), call); }

  /** Cached data of any age; fetches only when there is none. */
  ensure(key, options = {}, call = {}) { return this.#client.call('query.ensure', withOptions(key, options), call); }

  /** Starts a background fetch when stale; resolves at once. */
  async prefetch(key, options = {}) { await this.#client.call('query.prefetch', withOptions(key, options)); }

  /** The cached data, or `undefined` when there is none (never fetches). */
  async get(key) {
    const result = await this.#client.call('query.get', { key: asKey(key) });
    return result === null ? undefined : result.data;
  }

  /** The full state, or null when the query is not cached. */
  state(key) { return this.#client.call('query.state', { key: asKey(key) }); }

  /** Writes `{data}` or applies `{mergePatch}` (RFC 7396); `updatedAt` optional. The new state. */
  set(key, { data, mergePatch, updatedAt } = {}) {
    const params = { key: asKey(key) };
    if (data !== undefined) params.data = data;
    if (mergePatch !== undefined) params.mergePatch = mergePatch;
    if (updatedAt !== undefined) params.updatedAt = updatedAt;
    return this.#client.call('query.set', params);
  }

  /** Fetches now; the settled state (a failure shows as status "error"), or null. */
  refetch(key, { cancelRefetch } = {}) {
    return this.#client.call('query.refetch', cancelRefetch === undefined ? { key: asKey(key) } : { key: asKey(key), cancelRefetch });
  }

  /** Cancels the fetch in flight (reverting unless `revert: false`). */
  async cancel(key, { revert } = {}) {
    await this.#client.call('query.cancel', revert === undefined ? { key: asKey(key) } : { key: asKey(key), revert });
  }

  /** Infinite query: fetches the page after the last one; the settled state. */
  fetchNextPage(key, { cancelRefetch } = {}) { return this.#paged('query.fetchNextPage', key, cancelRefetch); }

  /** Infinite query: fetches the page before the first one; the settled state. */
  fetchPreviousPage(key, { cancelRefetch } = {}) { return this.#paged('query.fetchPreviousPage', key, cancelRefetch); }

  #paged(method, key, cancelRefetch) {
    return this.#client.call(method, cancelRefetch === undefined ? { key: asKey(key) } : { key: asKey(key), cancelRefetch });
  }
}

/** Many queries by filter (a key array, or `{key, exact, type, stale, fetchStatus}`): `queries.*`. */
export class QueriesAPI {
  #client;
  constructor(client) { this.#client = client; }

  /** Marks the matches stale and refetches the active ones; resolves with the matched count. */
  async invalidate(filter, { refetchType } = {}) {
    const extra = refetchType === undefined ? {} : { refetchType };
    return (await this.#client.call('queries.invalidate', filterParams(filter, extra))).matched;
  }

  /** Refetches the matches; the matched count. */
  async refetch(filter) { return (await this.#client.call('queries.refetch', filterParams(filter))).matched; }

  /** Cancels the matches' fetches; the matched count. */
  async cancel(filter) { return (await this.#client.call('queries.cancel', filterParams(filter))).matched; }

  /** Removes the matches; the matched count. */
  async remove(filter) { return (await this.#client.call('queries.remove', filterParams(filter))).matched; }

  /** Resets the matches; the matched count. */
  async reset(filter) { return (await this.#client.call('queries.reset', filterParams(filter))).matched; }

  /** The matches' states, each with `observers`. */
  list(filter) { return this.#client.call('queries.list', filterParams(filter)); }
}

/** `mutation.run`. */
export class MutationAPI {
  #client;
  constructor(client) { this.#client = client; }

  /**
   * Runs a mutation through the mutator registered for `key`; resolves with its data, rejects
   * with MutationFailed. Options: retry, retryDelay, optimistic, invalidate, setData, scope.
   */
  async run(key, variables, options = {}) {
    const params = { key: asKey(key) };
    if (variables !== undefined) params.variables = variables;
    if (Object.keys(options).length > 0) params.options = options;
    return (await this.#client.call('mutation.run', params)).data;
  }
}

/** `mutations.list` and `mutation.subscribe`. */
export class MutationsAPI {
  #client;
  constructor(client) { this.#client = client; }

  /** The mutations the daemon knows (matching `filter`). */
  list(filter) { return this.#client.call('mutations.list', filter === undefined ? {} : { filter }); }

  /** An async iterator of mutation states: the current ones, then every change. */
  subscribe(filter) { return new MutationSubscription(this.#client, filter); }
}

/** `server.*`. */
export class ServerAPI {
  #client;
  constructor(client) { this.#client = client; }

  /** `{server, version, protocol, capabilities}`. */
  hello(client) { return this.#client.call('server.hello', client === undefined ? {} : { client }); }

  /** Round trip. */
  async ping() { await this.#client.call('server.ping', {}); }

  /** Daemon counters. */
  stats() { return this.#client.call('server.stats', {}); }
}

/** `clock.*` (daemon started with --manual-clock). */
export class ClockAPI {
  #client;
  constructor(client) { this.#client = client; }

  /** Moves the virtual clock forward; resolves with the new time (ms). */
  async advance(ms) { return (await this.#client.call('clock.advance', { ms })).now; }

  /** The virtual time (ms since the epoch). */
  async now() { return (await this.#client.call('clock.now', {})).now; }
}
