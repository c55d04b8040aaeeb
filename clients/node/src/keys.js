// Small conversions between JavaScript values and the wire: keys, options, filters, socket paths.

import { getuid } from 'node:process';

/** Returns `key` when it is an array (a query key); throws a TypeError otherwise. */
export function asKey(key) {
  if (Array.isArray(key)) return key;
  throw new TypeError(`a query key is an array such as ['todos', 1], not ${JSON.stringify(key)}`);
}

/**
 * Wire options from caller options: the same camelCase names, except that `initialPageParam` and
 * `maxPages` given at the top level are folded into `infinite` (as `useInfiniteQuery` takes them).
 */
export function wireOptions(options = {}) {
  const { initialPageParam, maxPages, ...rest } = options;
  if (initialPageParam === undefined && maxPages === undefined) return rest;
  const infinite = { ...(rest.infinite ?? {}) };
  if (initialPageParam !== undefined) infinite.initialPageParam = initialPageParam;
  if (maxPages !== undefined) infinite.maxPages = maxPages;
  return { ...rest, infinite };
}

/** A queries filter from a key or a filter object; `undefined` means every query. */
export function makeFilter(filter) {
  if (filter === undefined || filter === null) return undefined;
  return Array.isArray(filter) ? { key: filter } : filter;
}

/**
 * The socket path as the daemon resolves it: `explicit`, `$QUERYD_SOCKET`,
 * `$XDG_RUNTIME_DIR/queryd.sock` (absolute only), else `/tmp/queryd-<uid>.sock`.
 */
export function socketPath(explicit, env = process.env) {
  if (explicit) return explicit;
  if (env.QUERYD_SOCKET) return env.QUERYD_SOCKET;
  const runtime = env.XDG_RUNTIME_DIR;
  if (runtime && runtime.startsWith('/')) return runtime + (runtime.endsWith('/') ? 'queryd.sock' : '/queryd.sock');
  return `/tmp/queryd-${getuid()}.sock`;
}

/** Throws a TypeError naming the members of `options` that are not in `known` (none are dropped silently). */
export function checkOptions(where, options, known) {
  const unknown = Object.keys(options ?? {}).filter((name) => !known.includes(name));
  if (unknown.length > 0) {
    throw new TypeError(`${where}: unknown option${unknown.length > 1 ? 's' : ''} ${unknown.join(', ')} (known: ${known.join(', ')})`);
  }
}

/** Splits `{signal, ...rest}`: the signal is the client's, never a wire parameter. */
export function withoutSignal(options = {}) {
  const { signal, ...rest } = options;
  return [rest, signal === undefined ? {} : { signal }];
}
