// TypeScript declarations of queryd-client (src/index.js). The wire types (options, states, filters,
// each method's params and result) come from protocol.d.ts, generated from protocol/openrpc.json by
// scripts/generate-types.js; this file declares the client API around them.

import type {
  JsonValue, Methods, MutationFilter, MutationOptions, MutationState, QueryFilter, QueryKey, QueryOptions,
  QueryState, QueryStateWithObservers, ServerStats, ServerToClient,
} from './protocol.js';

export * from './protocol.js';

/** `{signal}`: aborting it sends `$/cancelRequest` and rejects the call with the signal's reason. */
export interface CallOptions { signal?: AbortSignal }

/** Query options as callers give them: `initialPageParam` and `maxPages` may sit at the top level. */
export type QueryOptionsInput = QueryOptions & {
  initialPageParam?: JsonValue;
  maxPages?: number;
};

/** Subscription options: the query options plus protocol 2's push granularity. */
export type SubscribeOptions = QueryOptionsInput & {
  /** `state` (default): full states; `meta`: states without data; `patch`: merge patches, rebuilt by the client. */
  push?: 'state' | 'meta' | 'patch';
  /** false: a change made by this connection's own `query.set` is not pushed to this subscription. */
  echo?: boolean;
};

/** A state as a subscription in push mode `patch` or `meta` sees it (protocol 2 adds these members). */
export type SubscribedState = QueryState & { dataVersion?: number; epoch?: string };

export interface ConnectOptions {
  /** Reconnect after the connection drops (default true). */
  reconnect?: boolean;
  /** The client name sent in `server.hello` (default `queryd-node`). */
  name?: string;
  /** How long to wait for a daemon that is starting (default 0: fail at once with ConnectFailed). */
  connectWaitMs?: number;
  /** [first, longest] delay between reconnect attempts in ms (default [50, 2000]), each jittered down to half. */
  backoffMs?: [number, number];
  /** The longest line accepted from the daemon (default 64 MiB). */
  maxLineBytes?: number;
}

export type ConnectionState = 'connecting' | 'connected' | 'reconnecting' | 'closed';

/** What a fetcher receives. */
export interface FetchContext {
  key: QueryKey;
  pageParam?: JsonValue;
  direction?: 'forward' | 'backward';
  meta?: JsonValue;
  attempt: number;
  /** Aborts when the daemon cancels the fetch. */
  signal: AbortSignal;
  /** Streams the data so far (`fetch.progress`): the whole data each time. */
  progress(data: JsonValue): void;
}

/** What a mutator receives. */
export interface MutateContext {
  key: QueryKey;
  variables?: JsonValue;
  attempt: number;
  signal: AbortSignal;
}

export type Fetcher = (context: FetchContext) => JsonValue | PageResult | Promise<JsonValue | PageResult>;
export type Mutator = (context: MutateContext) => JsonValue | Promise<JsonValue>;

export interface FetcherOptions {
  exact?: boolean;
  cancellable?: boolean;
  /** Query options for the queries this fetcher serves. */
  defaults?: QueryOptionsInput;
}

/** What a fetcher of an infinite query returns: one page and its neighbours' params (null = none). */
export class PageResult {
  constructor(data: JsonValue, params?: { nextPageParam?: JsonValue; previousPageParam?: JsonValue });
  data: JsonValue;
  nextPageParam: JsonValue;
  previousPageParam: JsonValue;
}

/** A fetcher or mutator registered by a client. */
export class Registration {
  readonly kind: 'fetcher' | 'mutator';
  /** The daemon's current id (null while disconnected). */
  id: number | null;
  readonly key: QueryKey;
  unregister(): Promise<void>;
}

declare class Stream<T> implements AsyncIterable<T> {
  /** The daemon's id for this subscription (null while disconnected or before start). */
  id: number | null;
  readonly ended: boolean;
  start(): Promise<void>;
  /** The next value, waiting at most `timeoutMs`; undefined once ended. */
  nextState(timeoutMs?: number): Promise<T | undefined>;
  unsubscribe(): Promise<void>;
  [Symbol.asyncIterator](): AsyncIterator<T>;
}

/** One query subscription (TanStack's observer). */
export class Subscription extends Stream<SubscribedState> {
  key: QueryKey;
  options: QueryOptions;
  state: SubscribedState | null;
  setOptions(options?: SubscribeOptions & { key?: QueryKey } & CallOptions): Promise<QueryState>;
  refetch(options?: { cancelRefetch?: boolean } & CallOptions): Promise<QueryState>;
  fetchNextPage(options?: { cancelRefetch?: boolean } & CallOptions): Promise<QueryState>;
  fetchPreviousPage(options?: { cancelRefetch?: boolean } & CallOptions): Promise<QueryState>;
}

/** Observes mutations (`mutation.subscribe`). */
export class MutationSubscription extends Stream<MutationState> {
  filter: MutationFilter | undefined;
}

/** Watches a count (`queries.count` / `mutations.count` with `subscribe: true`): the count, then each change. */
export class CountSubscription extends Stream<number> {
  filter: QueryFilter | MutationFilter | undefined;
  /** The newest count received (null before the reply). */
  count: number | null;
}

/** One event of a `cache.changed` (see protocol/methods/cache.md). */
export type CacheEvent = ServerToClient['cache.changed']['params']['events'][number];

/**
 * Watches the whole cache (`cache.watch`): the snapshot (`Methods['cache.watch']['result']`, again after a
 * reconnect), then each `cache.changed`'s events.
 */
export class CacheWatch extends Stream<Methods['cache.watch']['result'] | CacheEvent[]> {
  filter: { key: QueryKey } | undefined;
  data: boolean;
}

/** A filter: a key prefix array, or a QueryFilter object. */
export type FilterInput = QueryKey | QueryFilter;

export interface QueryAPI {
  fetch(key: QueryKey, options?: QueryOptionsInput & CallOptions, call?: CallOptions): Promise<QueryState>;
  ensure(key: QueryKey, options?: QueryOptionsInput & CallOptions, call?: CallOptions): Promise<QueryState>;
  prefetch(key: QueryKey, options?: QueryOptionsInput & CallOptions, call?: CallOptions): Promise<void>;
  get(key: QueryKey, call?: CallOptions): Promise<JsonValue | undefined>;
  state(key: QueryKey, call?: CallOptions): Promise<QueryState | null>;
  set(
    key: QueryKey,
    value:
      | { data: JsonValue; updatedAt?: number; ifVersion?: number }
      | { mergePatch: JsonValue; updatedAt?: number; ifVersion?: number },
    updatedAt?: number | ({ updatedAt?: number } & CallOptions),
  ): Promise<QueryState>;
  refetch(key: QueryKey, options?: { cancelRefetch?: boolean } & CallOptions): Promise<QueryState | null>;
  cancel(key: QueryKey, options?: { revert?: boolean } & CallOptions): Promise<void>;
  fetchNextPage(key: QueryKey, options?: { cancelRefetch?: boolean } & CallOptions): Promise<QueryState>;
  fetchPreviousPage(key: QueryKey, options?: { cancelRefetch?: boolean } & CallOptions): Promise<QueryState>;
}

export interface QueriesAPI {
  invalidate(
    filter?: FilterInput,
    options?: { refetchType?: Methods['queries.invalidate']['params']['refetchType']; cancelRefetch?: boolean },
  ): Promise<number>;
  refetch(filter?: FilterInput, options?: { cancelRefetch?: boolean }): Promise<number>;
  cancel(filter?: FilterInput): Promise<number>;
  remove(filter?: FilterInput): Promise<number>;
  reset(filter?: FilterInput, options?: { cancelRefetch?: boolean }): Promise<number>;
  /** `queries.setData` (setQueriesData): all or nothing; the number of queries written. */
  setData(
    filter: FilterInput,
    value: { data: JsonValue; updatedAt?: number } | { mergePatch: JsonValue; updatedAt?: number },
  ): Promise<number>;
  /** How many queries match (`{fetchStatus: 'fetching'}` is useIsFetching). */
  count(filter?: FilterInput): Promise<number>;
  watchCount(filter?: FilterInput): CountSubscription;
  reset(filter?: FilterInput): Promise<number>;
  /** `queries.setDefaults`: options for keys under the prefix `key`; `{}` removes the entry. */
  setDefaults(key: QueryKey, options: QueryOptions): Promise<void>;
  /** `queries.getDefaults`: every entry, or those applying to `key` (shortest prefix first). */
  getDefaults(key?: QueryKey): Promise<Methods['queries.getDefaults']['result']>;
  list(filter?: FilterInput): Promise<QueryStateWithObservers[]>;
  /** Every match, page by page (`cursor`/`nextCursor`, protocol 2; one page from a protocol-1 daemon). */
  pages(filter?: FilterInput, options?: { limit?: number } & CallOptions): AsyncGenerator<QueryStateWithObservers[], void>;
}

export interface MutationAPI {
  run(key: QueryKey, variables?: JsonValue, options?: MutationOptions & CallOptions): Promise<JsonValue>;
}

export interface MutationsAPI {
  /** `mutations.setDefaults`: `mutation.run` options for keys under the prefix `key`; `{}` removes the entry. */
  setDefaults(key: QueryKey, options: MutationOptions): Promise<void>;
  list(filter?: MutationFilter): Promise<MutationState[]>;
  /** Every match, page by page in submission order (`cursor`/`nextCursor`, protocol 2). */
  pages(filter?: MutationFilter, options?: { limit?: number } & CallOptions): AsyncGenerator<MutationState[], void>;
  /** Forgets settled mutations and cancels paused ones; how many left the cache. */
  clear(): Promise<number>;
  subscribe(filter?: MutationFilter): MutationSubscription;
  /** How many mutations match (`{status: 'pending'}` is useIsMutating). */
  count(filter?: MutationFilter): Promise<number>;
  watchCount(filter?: MutationFilter): CountSubscription;
}

export interface CacheAPI {
  /** A versioned snapshot: successful queries (pending too with `includePending`) and paused mutations. */
  /** `cache.watch`: the snapshot, then the whole cache's events; `key` narrows the queries to a prefix. */
  watch(key?: QueryKey, options?: { data?: boolean }): CacheWatch;
  dehydrate(filter?: QueryFilter, options?: { includePending?: boolean }): Promise<Methods['cache.dehydrate']['result']>;
  /** Merges a snapshot in (newer `dataUpdatedAt` wins); how many entries were written. */
  hydrate(snapshot: Methods['cache.hydrate']['params']['snapshot']): Promise<Methods['cache.hydrate']['result']>;
}

export interface ServerAPI {
  hello(client?: JsonValue): Promise<Methods['server.hello']['result']>;
  ping(): Promise<void>;
  stats(): Promise<ServerStats>;
}

export interface ClockAPI {
  advance(ms: number): Promise<number>;
  now(): Promise<number>;
}

/** A client of queryd: one connection, kept alive across daemon restarts. */
export class Client {
  static connect(path?: string, options?: ConnectOptions): Promise<Client>;
  readonly path: string;
  /** The daemon's `server.hello` answer on the current connection. */
  serverInfo: { [member: string]: JsonValue };
  reconnects: number;
  readonly capabilities: Set<string>;
  readonly protocol: number;
  readonly node: string | undefined;
  readonly epoch: string | undefined;
  readonly isConnected: boolean;
  readonly connectionState: ConnectionState;
  readonly query: QueryAPI;
  readonly queries: QueriesAPI;
  readonly mutation: MutationAPI;
  readonly mutations: MutationsAPI;
  readonly server: ServerAPI;
  readonly clock: ClockAPI;
  readonly cache: CacheAPI;
  onConnectionState(listener: (state: ConnectionState, reason: string | null) => void): () => boolean;
  close(): Promise<void>;
  serveForever(): Promise<void>;
  waitConnected(): Promise<void>;
  call<M extends keyof Methods>(method: M, params: Methods[M]['params'], options?: CallOptions): Promise<Methods[M]['result']>;
  call(method: string, params?: JsonValue, options?: CallOptions): Promise<JsonValue>;
  setFocused(focused: boolean, call?: CallOptions): Promise<void>;
  setOnline(online: boolean, call?: CallOptions): Promise<void>;
  emit(name: string, call?: CallOptions): Promise<number>;
  registerFetcher(prefix: QueryKey, fetcher: Fetcher, options?: FetcherOptions): Promise<Registration>;
  registerMutator(prefix: QueryKey, mutator: Mutator, options?: { exact?: boolean }): Promise<Registration>;
  subscribe(key: QueryKey, options?: SubscribeOptions): Subscription;
}

/** The JSON-RPC peer under a Client (one Unix socket). */
export class Connection {
  static open(path: string, handlers?: object, options?: { maxLineBytes?: number }): Promise<Connection>;
  readonly isClosed: boolean;
  closeReason: string | null;
  request(method: string, params?: JsonValue, options?: CallOptions & { onResult?: (result: JsonValue) => void }): Promise<JsonValue>;
  notify(method: string, params?: JsonValue): void;
  close(): Promise<void>;
}

export const VERSION: string;
export const PROTOCOLS: { min: number; max: number };
export const LINE_LIMIT: number;
export const LINE_TOO_LONG: 'LINE_TOO_LONG';
export function socketPath(explicit?: string, env?: { [name: string]: string | undefined }): string;
export function mergePatch(target: JsonValue, patch: JsonValue): JsonValue;

/** Base class of every error this package throws. */
export class QuerydError extends Error {}
export class QuerydConnectionError extends QuerydError {}
export class ConnectFailed extends QuerydConnectionError { path: string; code: string | undefined }
export class ConnectionLost extends QuerydConnectionError { code: string | undefined }
export class ClientClosed extends QuerydConnectionError {}

/** The daemon answered with an error object. */
export class RPCError extends QuerydError {
  constructor(code: number, message: string, data?: JsonValue, method?: string);
  code: number;
  rpcMessage: string;
  data: JsonValue | undefined;
  method: string | undefined;
  static fromWire(error: JsonValue, method?: string): RPCError;
  toWire(): { code: number; message: string; data?: JsonValue };
}
export class ParseError extends RPCError {}
export class InvalidRequest extends RPCError {}
export class MethodNotFound extends RPCError {}
export class InvalidParams extends RPCError {}
export class InternalError extends RPCError {}
export class FetchFailed extends RPCError {}
export class NoFetcher extends RPCError {}
export class CancelledByServer extends RPCError {}
export class AttemptTimeout extends RPCError {}
export class UnknownID extends RPCError {}
export class LimitExceeded extends RPCError {}
/** @deprecated use LimitExceeded (the same class). */
export const TooManyConnections: typeof LimitExceeded;
export class MutationFailed extends RPCError {}
export class PermissionDenied extends RPCError {}
/** -32009: `query.set` with `ifVersion` found another version; `data` is `{key, version}`. */
export class VersionConflict extends RPCError {}
export class RequestCancelled extends RPCError {}

/** Thrown by a fetcher or mutator to answer with this error object. */
export class HandlerError extends QuerydError {
  constructor(message: string, options?: { code?: number; data?: JsonValue });
  code: number;
  data: JsonValue | undefined;
  toWire(): { code: number; message: string; data?: JsonValue };
}
