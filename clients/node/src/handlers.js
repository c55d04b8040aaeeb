// Fetchers and mutators: what a client registered (kept for reconnects) and how one server
// request is served. A fetcher receives one object: {key, pageParam, direction, meta, attempt,
// signal, progress}; `signal` aborts when the daemon cancels the fetch, `progress(data)` streams
// the data so far (`fetch.progress`, the whole data each time).

import { HandlerError, RPCError } from './errors.js';

/** The code an error other than HandlerError is answered with: JSON-RPC's first implementation-defined
 * server error, the same in every queryd client. */
export const HANDLER_ERROR_CODE = -32000;

/** What a fetcher of an infinite query returns: one page and its neighbours' params (null = none). */
export class PageResult {
  constructor(data, { nextPageParam = null, previousPageParam = null } = {}) {
    this.data = data;
    this.nextPageParam = nextPageParam;
    this.previousPageParam = previousPageParam;
  }

  /** The fetch answer object. */
  toWire() {
    const answer = { data: this.data };
    if (this.nextPageParam !== null && this.nextPageParam !== undefined) answer.nextPageParam = this.nextPageParam;
    if (this.previousPageParam !== null && this.previousPageParam !== undefined) {
      answer.previousPageParam = this.previousPageParam;
    }
    return answer;
  }
}

/** A fetcher or mutator registered by a client; `id` is the daemon's current id (null while disconnected). */
export class Registration {
  constructor(kind, params, handler, remove) {
    this.kind = kind;
    this.params = params;
    this.handler = handler;
    this.id = null;
    this.#remove = remove;
  }

  #remove;

  /** The key prefix served. */
  get key() { return this.params.key; }

  /** Stops serving (`fetcher.unregister` / `mutator.unregister`). */
  unregister() { return this.#remove(this); }
}

/** The wire error object a handler's failure is answered with. */
export function errorObject(error) {
  if (error instanceof HandlerError || error instanceof RPCError) return error.toWire();
  const message = error instanceof Error ? error.message || error.name : String(error);
  return { code: HANDLER_ERROR_CODE, message, data: { type: error instanceof Error ? error.name : typeof error } };
}

/** Runs a fetcher for one `fetch` request; resolves with the answer object. */
export async function serveFetch(registration, params, signal, progress) {
  const result = await registration.handler({
    key: params.key, pageParam: params.pageParam, direction: params.direction, meta: params.meta,
    attempt: params.attempt ?? 1, signal, progress,
  });
  return result instanceof PageResult ? result.toWire() : { data: result === undefined ? null : result };
}

/** Runs a mutator for one `mutate` request; resolves with the answer object. */
export async function serveMutate(registration, params, signal) {
  const result = await registration.handler({
    key: params.key, variables: params.variables, attempt: params.attempt ?? 1, signal,
  });
  return { data: result === undefined ? null : result };
}
