// The typed API grouped by wire namespace: client.query, client.queries, client.mutation,
// client.mutations, client.server and client.clock. Each method maps to one wire method
// (protocol/methods/); options use the wire's camelCase names.

import { asKey, makeFilter, wireOptions, withoutSignal } from './keys.js';
import { CacheWatch, CountSubscription, MutationSubscription } from './subscription.js';

// `{key, options?}` for the calls that take query options; `signal` is taken out of the options.
function withOptions(key, options) {
  const [rest, call] = withoutSignal(options);
  const converted = wireOptions(rest);
  const params = Object.keys(converted).length > 0 ? { key: asKey(key), options: converted } : { key: asKey(key) };
  return [params, call];
}

function filterParams(filter, extra = {}) {
  const found = makeFilter(filter);
  return found === undefined ? { ...extra } : { filter: found, ...extra };
}

// The members that are not undefined.
function defined(members) {
  return Object.fromEntries(Object.entries(members).filter(([, value]) => value !== undefined));
}

// `{key, ...members}` without undefined members, and the call options (`{signal}`).
function keyParams(key, options = {}) {
  const [rest, call] = withoutSignal(options);
  const params = { key: asKey(key) };
  for (const [name, value] of Object.entries(rest)) if (value !== undefined) params[name] = value;
  return [params, call];
}

/**
 * One query by key: `query.*`. Every method takes `signal` in its last options object (aborting it
 * sends `$/cancelRequest` and rejects with the signal's reason); it is never sent to the daemon.
 */
export class QueryAPI {
  #client;
  constructor(client) { this.#client = client; }

  /** Fresh data (fetches unless fresh for `staleTime`); the settled state. `call` may carry `{signal}`. */
  fetch(key, options = {}, call = {}) { return this.#withOptions('query.fetch', key, options, call); }

  /** Cached data of any age; fetches only when there is none. */
  ensure(key, options = {}, call = {}) { return this.#withOptions('query.ensure', key, options, call); }

  /** Starts a background fetch when stale; resolves at once. */
  async prefetch(key, options = {}, call = {}) { await this.#withOptions('query.prefetch', key, options, call); }

  /** The cached data, or `undefined` when there is none (never fetches). */
  async get(key, call = {}) {
    const result = await this.#client.call('query.get', { key: asKey(key) }, call);
    return result === null ? undefined : result.data;
  }

  /** The full state, or null when the query is not cached. */
  state(key, call = {}) { return this.#client.call('query.state', { key: asKey(key) }, call); }

  /**
   * Writes `{data}` or applies `{mergePatch}` (RFC 7396); resolves with the new state. The third
   * argument is `updatedAt` (ms since the epoch) or `{updatedAt, signal}`. With `ifVersion` the write
   * happens only at that version (0: key not cached), else it rejects with VersionConflict.
   */
  set(key, { data, mergePatch, updatedAt, ifVersion } = {}, third = {}) {
    const call = typeof third === 'number' ? { updatedAt: third } : third;
    const [params, options] = keyParams(
      key, { data, mergePatch, updatedAt: call.updatedAt ?? updatedAt, ifVersion, signal: call.signal });
    return this.#client.call('query.set', params, options);
  }

  /** Fetches now; the settled state (a failure shows as status "error"), or null. `{cancelRefetch, signal}`. */
  refetch(key, options = {}) { return this.#keyed('query.refetch', key, options); }

  /** Cancels the fetch in flight (reverting unless `revert: false`). */
  async cancel(key, options = {}) { await this.#keyed('query.cancel', key, options); }

  /** Infinite query: fetches the page after the last one; the settled state. `{cancelRefetch, signal}`. */
  fetchNextPage(key, options = {}) { return this.#keyed('query.fetchNextPage', key, options); }

  /** Infinite query: fetches the page before the first one; the settled state. `{cancelRefetch, signal}`. */
  fetchPreviousPage(key, options = {}) { return this.#keyed('query.fetchPreviousPage', key, options); }

  #withOptions(method, key, options, call) {
    const [params, signal] = withOptions(key, options);
    return this.#client.call(method, params, { ...signal, ...call });
  }

  #keyed(method, key, options) {
    const [params, call] = keyParams(key, options);
    return this.#client.call(method, params, call);
  }
}

/** Many queries by filter (a key array, or `{key, exact, type, stale, fetchStatus}`): `queries.*`. */
export class QueriesAPI {
  #client;
  constructor(client) { this.#client = client; }

  /**
   * Marks the matches stale and refetches the active ones; resolves with the matched count.
   * `cancelRefetch: false` joins fetches in flight instead of replacing them.
   */
  async invalidate(filter, { refetchType, cancelRefetch } = {}) {
    return (await this.#client.call('queries.invalidate', filterParams(filter, defined({ refetchType, cancelRefetch })))).matched;
  }

  /** Refetches the matches; the matched count. `{cancelRefetch}`. */
  async refetch(filter, { cancelRefetch } = {}) {
    return (await this.#client.call('queries.refetch', filterParams(filter, defined({ cancelRefetch })))).matched;
  }

  /** Cancels the matches' fetches; the matched count. */
  async cancel(filter) { return (await this.#client.call('queries.cancel', filterParams(filter))).matched; }

  /** Removes the matches; the matched count. */
  async remove(filter) { return (await this.#client.call('queries.remove', filterParams(filter))).matched; }

  /** Resets the matches; the matched count. `{cancelRefetch}`. */
  async reset(filter, { cancelRefetch } = {}) {
    return (await this.#client.call('queries.reset', filterParams(filter, defined({ cancelRefetch })))).matched;
  }

  /**
   * `queries.setData` (setQueriesData): writes `{data}` or `{mergePatch}` to every cached match, all
   * or nothing; resolves with how many were written. `updatedAt` as for `query.set`.
   */
  async setData(filter, { data, mergePatch, updatedAt } = {}) {
    const params = { filter: makeFilter(filter) ?? {}, ...defined({ data, mergePatch, updatedAt }) };
    return (await this.#client.call('queries.setData', params)).matched;
  }

  /** How many queries match (`{fetchStatus: 'fetching'}` is useIsFetching). */
  async count(filter) { return (await this.#client.call('queries.count', filterParams(filter))).count; }

  /** An async iterator of the match count: now, then each change (`count.changed`). */
  watchCount(filter) { return new CountSubscription(this.#client, 'queries.count', makeFilter(filter)); }

  /**
   * `queries.setDefaults`: query options for every key under the prefix `key` (the longest matching
   * prefix wins); `{}` removes the entry.
   */
  async setDefaults(key, options) { await this.#client.call('queries.setDefaults', { key: asKey(key), options }); }

  /** `queries.getDefaults`: `{queries, mutations}` entries `{key, options}`, all or those applying to `key`. */
  getDefaults(key) { return this.#client.call('queries.getDefaults', key === undefined ? {} : { key: asKey(key) }); }

  /** The matches' states, each with `observers`. */
  list(filter) { return this.#client.call('queries.list', filterParams(filter)); }

  /**
   * The matches page by page: `for await (const page of client.queries.pages(filter, {limit}))`
   * (`queries.list` with `cursor`/`nextCursor`, protocol 2; a protocol-1 daemon answers one page).
   */
  async *pages(filter, { limit, signal } = {}) {
    if (this.#client.protocol < 2) {
      yield await this.#client.call('queries.list', filterParams(filter), { signal });
      return;
    }
    const params = filterParams(filter, limit === undefined ? { cursor: null } : { cursor: null, limit });
    for (;;) {
      const page = await this.#client.call('queries.list', params, { signal });
      if (Array.isArray(page)) { // a daemon that ignores cursor answers everything at once
        yield page;
        return;
      }
      yield page.queries;
      if (typeof page.nextCursor !== 'string') return;
      params.cursor = page.nextCursor;
    }
  }
}

/** `mutation.run`. */
export class MutationAPI {
  #client;
  constructor(client) { this.#client = client; }

  /**
   * Runs a mutation through the mutator registered for `key`; resolves with its data, rejects
   * with MutationFailed. Options: retry, retryDelay, optimistic, invalidate, setData, scope, and
   * `signal` (aborting cancels the call, not a mutation the mutator already runs).
   */
  async run(key, variables, options = {}) {
    const [rest, call] = withoutSignal(options);
    const params = { key: asKey(key) };
    if (variables !== undefined) params.variables = variables;
    if (Object.keys(rest).length > 0) params.options = rest;
    return (await this.#client.call('mutation.run', params, call)).data;
  }
}

/** `mutations.list`, `mutations.clear` and `mutation.subscribe`. */
export class MutationsAPI {
  #client;
  constructor(client) { this.#client = client; }

  /** The mutations the daemon knows (matching `filter`). */
  /**
   * `mutations.setDefaults`: `mutation.run` options for every mutation key under the prefix `key`
   * (the longest matching prefix wins); `{}` removes the entry.
   */
  async setDefaults(key, options) { await this.#client.call('mutations.setDefaults', { key: asKey(key), options }); }

  list(filter) { return this.#client.call('mutations.list', filter === undefined ? {} : { filter }); }

  /** The mutations page by page, in submission order (`mutations.list` with `cursor`, protocol 2). */
  async *pages(filter, { limit, signal } = {}) {
    const params = { cursor: null };
    if (filter !== undefined) params.filter = filter;
    if (limit !== undefined) params.limit = limit;
    for (;;) {
      const page = await this.#client.call('mutations.list', params, { signal });
      yield page.mutations;
      if (typeof page.nextCursor !== 'string') return;
      params.cursor = page.nextCursor;
    }
  }

  /** Forgets settled mutations and cancels paused ones; how many left the cache. */
  async clear() { return (await this.#client.call('mutations.clear', {})).cleared; }

  /** An async iterator of mutation states: the current ones, then every change. */
  subscribe(filter) { return new MutationSubscription(this.#client, filter); }

  /** How many mutations match (`{status: 'pending'}` is useIsMutating). */
  async count(filter) { return (await this.#client.call('mutations.count', filter === undefined ? {} : { filter })).count; }

  /** An async iterator of the match count: now, then each change (`count.changed`). */
  watchCount(filter) { return new CountSubscription(this.#client, 'mutations.count', filter); }
}

/** The whole cache: `cache.watch`, and versioned snapshots with `cache.dehydrate` and `cache.hydrate` (protocol 2). */
export class CacheAPI {
  #client;
  constructor(client) { this.#client = client; }

  /**
   * An async iterator over the whole cache (`cache.watch`): the snapshot, then each `cache.changed`'s
   * events; `key` narrows the queries to a prefix, `data` shows their data.
   */
  watch(key, { data = false } = {}) {
    return new CacheWatch(this.#client, key === undefined ? undefined : { key: asKey(key) }, data);
  }

  /** `{version, queries, mutations}`: successful queries (pending too with `includePending`) and paused mutations. */
  dehydrate(filter, { includePending } = {}) {
    const params = {};
    if (filter !== undefined) params.filter = filter;
    if (includePending) params.includePending = true;
    return this.#client.call('cache.dehydrate', params);
  }

  /** Merges a snapshot in (newer `dataUpdatedAt` wins); `{queries, mutations}` written. */
  hydrate(snapshot) { return this.#client.call('cache.hydrate', { snapshot }); }
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
