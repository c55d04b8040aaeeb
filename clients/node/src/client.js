// The client: one connection to the daemon, kept alive across daemon restarts.
//
// Client owns the current Connection, the fetchers and mutators registered through it, and its
// subscriptions. Connecting says `server.hello` with protocol negotiation (protocol 2, falling back
// to 1 for an older daemon). When the connection drops it reconnects with a growing, jittered delay
// (resilience.js), says hello again, registers every fetcher and mutator again, restores the focus
// and online state it set and re-subscribes every subscription before any waiting call goes on.
// Reads in flight when it dropped, or that a stopping daemon cancelled (query.get/state/fetch/ensure),
// are sent again; other calls reject with ConnectionLost. `onConnectionState` reports connecting / connected / reconnecting / closed.

import { setTimeout as sleep } from 'node:timers/promises';
import { Connection, LINE_LIMIT, LINE_TOO_LONG } from './connection.js';
import { CancelledByServer, ClientClosed, ConnectionLost, InvalidParams, QuerydConnectionError, RPCError, UnknownID } from './errors.js';
import { errorObject, HANDLER_ERROR_CODE, Registration, serveFetch, serveMutate } from './handlers.js';
import { asKey, checkOptions, socketPath, wireOptions } from './keys.js';
import { CacheAPI, ClockAPI, MutationAPI, MutationsAPI, QueriesAPI, QueryAPI, ServerAPI } from './namespaces.js';
import { Backoff, IDEMPOTENT, openWaiting, StateListeners } from './resilience.js';
import { Subscription } from './subscription.js';

/** This package's version, sent in `server.hello`. */
export const VERSION = '0.1.0';
/** The protocols this client speaks, sent in every `server.hello`. */
export const PROTOCOLS = { min: 1, max: 2 };
const SERVED = { fetch: ['fetcher', serveFetch], mutate: ['mutator', serveMutate] };
const PUSHED = {
  'query.changed': 'query.subscribe', 'mutation.changed': 'mutation.subscribe', 'count.changed': 'count',
  'cache.changed': 'cache.watch',
};
const UNSUBSCRIBE = {
  'query.subscribe': 'query.unsubscribe', 'mutation.subscribe': 'mutation.unsubscribe', count: 'count.unsubscribe',
  'cache.watch': 'cache.unwatch',
};
// The member naming the stream in a push, where it is not `subscription`.
const PUSH_ID_MEMBER = { 'cache.changed': 'watch' };
// The hello members this client sends that a protocol-1 daemon does not know: it refuses the first one
// it meets (`capabilities` sorts first), where a protocol-2 daemon's refusal has `supported`.
const HELLO_V2_MEMBERS = new Set(['protocol', 'capabilities']);
const CONNECT_OPTIONS = ['reconnect', 'name', 'connectWaitMs', 'backoffMs', 'maxLineBytes'];

/** A client of queryd. Create it with `await Client.connect(path)`. */
export class Client {
  #conn = null;
  #connected = null;       // a promise resolved when a connection is usable, or null when it is
  #markConnected = () => {};
  #closing = false;
  #failed = false;
  #reconnect;
  #name;
  #connectWaitMs;
  #backoff;
  #maxLineBytes;
  #states = new StateListeners();
  #lifecycle = new Map();   // method -> params: the focus/online state set through this client
  #reopening = null;
  #stopping = new AbortController(); // aborted by close(): ends a reconnect delay at once
  #registrations = [];
  #byWire = new Map();      // "fetcher:1" -> Registration
  #streams = [];
  #streamIds = new Map();   // "query.subscribe:1" -> Stream
  #serving = new Map();     // Connection -> Map(request id -> AbortController)
  #registering = 0;
  #deferred = [];
  #closedPromise;
  #resolveClosed;

  constructor(path, options = {}) {
    checkOptions('Client.connect', options, CONNECT_OPTIONS);
    const {
      reconnect = true, name = 'queryd-node', connectWaitMs = 0, backoffMs = [50, 2000], maxLineBytes = LINE_LIMIT,
    } = options;
    /** The socket path in use. */
    this.path = path;
    /** The daemon's `server.hello` answer on the current connection. */
    this.serverInfo = {};
    /** How many times the client reconnected. */
    this.reconnects = 0;
    this.#reconnect = reconnect;
    this.#name = name;
    this.#connectWaitMs = connectWaitMs;
    this.#backoff = new Backoff(...backoffMs);
    this.#maxLineBytes = maxLineBytes;
    this.#closedPromise = new Promise((resolve) => { this.#resolveClosed = resolve; });
    this.query = new QueryAPI(this);
    this.queries = new QueriesAPI(this);
    this.mutation = new MutationAPI(this);
    this.mutations = new MutationsAPI(this);
    this.server = new ServerAPI(this);
    this.clock = new ClockAPI(this);
    this.cache = new CacheAPI(this);
  }

  /**
   * Connects (the path resolved as the daemon does) and says `server.hello`. Rejects with
   * ConnectFailed when nobody listens after `connectWaitMs` (default 0: a daemon that is starting
   * gets that long). Options: `reconnect` (default true; false makes a lost connection final),
   * `backoffMs` ([first, longest] delay between reconnect attempts, each jittered down to half),
   * `maxLineBytes` (the longest line accepted), `name` (sent in the hello). Unknown options throw.
   */
  static async connect(path, options = {}) {
    const client = new Client(socketPath(path), options);
    const conn = await openWaiting(() => client.#open(), client.#connectWaitMs, client.#backoff);
    try {
      await client.#greet(conn);
    } catch (error) {
      await conn.close();
      throw error;
    }
    client.#conn = conn;
    client.#backoff.reset();
    client.#states.change('connected');
    return client;
  }

  /** The capability names the daemon announced (method names, `feature:*`, `option:*`, ...). */
  get capabilities() { return new Set(this.serverInfo.capabilities ?? []); }

  /** The protocol negotiated on the current connection (1 with a protocol-1 daemon). */
  get protocol() { return this.serverInfo.protocol ?? 1; }

  /** The daemon's node name (protocol 2; undefined when unknown). */
  get node() { return this.serverInfo.node; }

  /** The daemon's cache generation (protocol 2; undefined when unknown). */
  get epoch() { return this.serverInfo.epoch; }

  /** Whether a connection is up right now. */
  get isConnected() { return this.#connected === null && this.#conn !== null && !this.#conn.isClosed; }

  /** `connecting`, `connected`, `reconnecting` or `closed`. */
  get connectionState() { return this.#states.state; }

  /**
   * Calls `listener(state, reason)` on each change of `connectionState`; `reason` says why a
   * connection ended (the daemon's `$/closing` reason when it sent one). Returns a remover.
   */
  onConnectionState(listener) { return this.#states.add(listener); }

  /**
   * Closes the client: subscription iterators end normally (a `for await` loop just stops),
   * handlers are aborted, later calls reject with ClientClosed.
   */
  async close() {
    if (this.#closing) return;
    this.#closing = true;
    this.#stopping.abort();
    this.#markConnected();
    for (const stream of [...this.#streams]) stream._finish();
    if (this.#conn) await this.#conn.close();
    await this.#reopening?.catch(() => {});
    this.#resolveClosed();
    this.#states.change('closed');
  }

  /** `await using`-style helper: `Symbol.asyncDispose` closes the client. */
  [Symbol.asyncDispose ?? Symbol.for('Symbol.asyncDispose')]() { return this.close(); }

  /** Resolves when `close()` is called: what a fetcher process awaits after registering. */
  serveForever() { return this.#closedPromise; }

  /** Resolves once a connection is up (after a reconnect, once everything is restored). */
  async waitConnected() { await this.#connection(); }

  /**
   * Sends any method and resolves with its result; `{signal}` cancels it (`$/cancelRequest`). A read
   * (query.get, query.state, query.fetch, query.ensure) whose connection dropped before the reply is
   * sent again once reconnected (unless its reply was over `maxLineBytes`), and so is one the daemon
   * answered with -32003 `shutdown`; any other call rejects with ConnectionLost (CancelledByServer).
   */
  async call(method, params, { signal } = {}) {
    for (;;) {
      signal?.throwIfAborted();
      const conn = await this.#connection();
      try {
        return await conn.request(method, params, { signal });
      } catch (error) {
        const stopping = error instanceof CancelledByServer && error.data?.reason === 'shutdown';
        const lost = error instanceof ConnectionLost && error.code !== LINE_TOO_LONG;
        if (!(stopping || lost) || !IDEMPOTENT.has(method) || !this.#reconnect || this.#closing) throw error;
        if (stopping) await conn.waitClosed(); // the daemon is stopping: ask the next one
      }
    }
  }

  // -- lifecycle triggers --------------------------------------------------------------------

  /**
   * `client.setFocused`: this connection's focus (TanStack's `focusManager.setFocused`); regaining
   * it refetches the stale queries this client subscribes to. Kept across reconnects.
   */
  setFocused(focused, call = {}) { return this.#lifecycleCall('client.setFocused', { focused }, focused, call); }

  /**
   * `network.setOnline`: the daemon's online state (TanStack's `onlineManager.setOnline`); offline
   * pauses fetches, back online resumes them. Restored on reconnect while offline.
   */
  setOnline(online, call = {}) { return this.#lifecycleCall('network.setOnline', { online }, online, call); }

  /** `events.emit`: refetches every query whose subscriptions list `name` in `refetchOn`; the count. */
  async emit(name, call = {}) { return (await this.call('events.emit', { name }, call)).matched; }

  async #lifecycleCall(method, params, isDefault, call) {
    await this.call(method, params, call);
    if (isDefault) this.#lifecycle.delete(method);
    else this.#lifecycle.set(method, params);
  }

  // -- fetchers and mutators ----------------------------------------------------------------

  /**
   * Serves `fetch` requests for keys under `prefix` with `fetcher({key, pageParam, direction, meta,
   * attempt, signal, progress})`, which returns the data or a PageResult (`progress(data)` streams
   * the data so far); throwing HandlerError answers with its code. Options: exact, cancellable,
   * defaults (query options for matching queries); any other option throws a TypeError.
   */
  registerFetcher(prefix, fetcher, options = {}) {
    checkOptions('registerFetcher', options, ['exact', 'cancellable', 'defaults']);
    const { exact = false, cancellable = false, defaults } = options;
    const params = { key: asKey(prefix) };
    if (exact) params.exact = true;
    if (cancellable) params.cancellable = true;
    if (defaults !== undefined) params.defaults = wireOptions(defaults);
    return this.#add(new Registration('fetcher', params, fetcher, (r) => this.#remove(r)));
  }

  /**
   * Serves `mutate` requests for keys under `prefix` with `mutator({key, variables, attempt, signal})`.
   * Options: exact; any other option throws a TypeError.
   */
  registerMutator(prefix, mutator, options = {}) {
    checkOptions('registerMutator', options, ['exact']);
    const { exact = false } = options;
    const params = { key: asKey(prefix) };
    if (exact) params.exact = true;
    return this.#add(new Registration('mutator', params, mutator, (r) => this.#remove(r)));
  }

  async #add(registration) {
    await this.#register(await this.#connection(), registration);
    return registration;
  }

  async #register(conn, registration) {
    const { kind } = registration;
    const onResult = (result) => {
      registration.id = result[kind];
      this.#byWire.set(`${kind}:${registration.id}`, registration);
      if (!this.#registrations.includes(registration)) this.#registrations.push(registration);
      this.#replayDeferred(false);
    };
    this.#registering += 1;
    try {
      await conn.request(`${kind}.register`, registration.params, { onResult });
    } finally {
      this.#registering -= 1;
      this.#replayDeferred(this.#registering === 0);
    }
  }

  // The daemon may send a `fetch` for a paused query before the `fetcher.register` reply: such a
  // request waits here until the registration it names is bound.
  #replayDeferred(final) {
    const deferred = this.#deferred;
    this.#deferred = [];
    for (const [conn, id, method, params] of deferred) {
      if (conn.isClosed) continue;
      const kind = SERVED[method][0];
      if (this.#byWire.has(`${kind}:${params[kind]}`) || final) this.#onRequest(conn, id, method, params);
      else this.#deferred.push([conn, id, method, params]);
    }
  }

  async #remove(registration) {
    this.#registrations = this.#registrations.filter((r) => r !== registration);
    const wireId = registration.id;
    registration.id = null;
    if (wireId === null) return;
    this.#byWire.delete(`${registration.kind}:${wireId}`);
    if (this.isConnected) await this.call(`${registration.kind}.unregister`, { [registration.kind]: wireId });
  }

  #onRequest(conn, id, method, params) {
    const served = SERVED[method];
    if (served === undefined || params === null || typeof params !== 'object') {
      conn.respondError(id, { code: -32601, message: 'Method not found', data: { method } });
      return;
    }
    const [kind, serve] = served;
    const registration = this.#byWire.get(`${kind}:${params[kind]}`);
    if (registration === undefined && this.#registering > 0) {
      this.#deferred.push([conn, id, method, params]);
      return;
    }
    if (registration === undefined) {
      conn.respondError(id, { code: -32005, message: `Unknown ${kind}` });
      return;
    }
    const controller = new AbortController();
    if (!this.#serving.has(conn)) this.#serving.set(conn, new Map());
    this.#serving.get(conn).set(id, controller);
    const progress = (data) => { if (!controller.signal.aborted) conn.notify('fetch.progress', { id, data }); };
    serve(registration, params, controller.signal, progress).then(
      (answer) => {
        if (controller.signal.aborted) return;
        try {
          conn.respond(id, answer);
        } catch (error) {
          conn.respondError(id, { code: HANDLER_ERROR_CODE, message: `the result is not JSON: ${error.message}` });
        }
      },
      (error) => {
        if (!controller.signal.aborted) conn.respondError(id, errorObject(error));
      },
    ).finally(() => this.#serving.get(conn)?.delete(id));
  }

  // -- subscriptions ------------------------------------------------------------------------

  /**
   * A subscription to `key`: `for await (const state of client.subscribe(['todos'])) {...}`.
   * Yields the current state first, then every change; leaving the loop unsubscribes.
   */
  subscribe(key, options = {}) { return new Subscription(this, key, options); }

  #onNotification(conn, method, params) {
    if (params === null || typeof params !== 'object') return;
    if (method === '$/cancelRequest') {
      this.#serving.get(conn)?.get(params.id)?.abort();
      return;
    }
    const pushed = PUSHED[method];
    if (pushed === undefined) return;
    this.#streamIds.get(`${pushed}:${params[PUSH_ID_MEMBER[method] ?? 'subscription']}`)?._deliverPush(params);
  }

  async _attach(stream) {
    this.#streams.push(stream);
    try {
      await this.#subscribe(await this.#connection(), stream);
    } catch (error) {
      this.#streams = this.#streams.filter((s) => s !== stream);
      throw error;
    }
  }

  async #subscribe(conn, stream) {
    const onResult = (result) => {
      stream._acceptReply(result);
      this.#streamIds.set(`${stream._pushKey}:${stream.id}`, stream);
    };
    await conn.request(stream._method, stream._subscribeParams(), { onResult });
  }

  async _detach(stream) {
    this.#streams = this.#streams.filter((s) => s !== stream);
    const wireId = stream.id;
    stream.id = null;
    if (wireId === null) return;
    this.#streamIds.delete(`${stream._pushKey}:${wireId}`);
    if (!this.isConnected) return;
    try {
      await this.call(UNSUBSCRIBE[stream._pushKey], { [stream._idMember]: wireId });
    } catch (error) {
      if (!(error instanceof UnknownID || error instanceof QuerydConnectionError)) throw error;
    }
  }

  async _subscriptionCall(stream, method, params, { deliver = false, signal } = {}) {
    for (;;) {
      signal?.throwIfAborted();
      const conn = await this.#connection();
      if (stream.id === null) throw new ClientClosed('the subscription has ended');
      const onResult = deliver ? (state) => stream._deliver(state) : undefined;
      try {
        return await conn.request(method, { ...params, subscription: stream.id }, { onResult, signal });
      } catch (error) {
        if (!(error instanceof ConnectionLost) || !this.#reconnect) throw error;
      }
    }
  }

  // -- connection lifecycle ------------------------------------------------------------------

  #open() {
    return Connection.open(this.path, {
      onRequest: (conn, id, method, params) => this.#onRequest(conn, id, method, params),
      onNotification: (conn, method, params) => this.#onNotification(conn, method, params),
      onClose: (conn) => this.#onClose(conn),
    }, { maxLineBytes: this.#maxLineBytes });
  }

  // `server.hello` with negotiation. A protocol-1 daemon refuses the new members without saying which
  // protocols it supports: it is greeted again the protocol-1 way. Every re-subscribed state is a
  // fresh start (patch bases are reset by the subscribe reply), whether the epoch changed or not.
  async #greet(conn) {
    const client = { name: this.#name, version: VERSION };
    let info;
    try {
      info = await conn.request('server.hello', {
        client, protocol: PROTOCOLS, capabilities: { requests: Object.keys(SERVED).sort() },
      });
    } catch (error) {
      const data = error instanceof InvalidParams && error.data !== null && typeof error.data === 'object' ? error.data : {};
      if (!HELLO_V2_MEMBERS.has(data.field) || 'supported' in data) throw error;
      info = { ...(await conn.request('server.hello', { client })), protocol: 1 };
    }
    this.serverInfo = info !== null && typeof info === 'object' ? info : {};
  }

  async #connection() {
    for (;;) {
      if (this.#closing) throw new ClientClosed('the client was closed');
      if (this.#failed) throw new ConnectionLost('the connection to queryd was lost');
      if (this.#connected === null && this.#conn !== null && !this.#conn.isClosed) return this.#conn;
      await this.#connected;
    }
  }

  #onClose(conn) {
    if (conn !== this.#conn) return;
    if (this.#connected === null) {
      this.#connected = new Promise((resolve) => { this.#markConnected = resolve; });
    }
    this.#forget(conn);
    if (this.#closing) return;
    if (!this.#reconnect) {
      this.#failed = true;
      this.#markConnected();
      const lost = new ConnectionLost(`the connection to queryd was lost: ${conn.closeReason}`);
      for (const stream of [...this.#streams]) stream._fail(lost);
      this.#states.change('closed', conn.closeReason);
      return;
    }
    this.#states.change('reconnecting', conn.closeReason);
    this.#reopening ??= this.#reopen().finally(() => { this.#reopening = null; });
  }

  #forget(conn) {
    for (const registration of this.#registrations) registration.id = null;
    this.#byWire.clear();
    for (const stream of this.#streams) stream.id = null;
    this.#streamIds.clear();
    for (const controller of this.#serving.get(conn)?.values() ?? []) controller.abort();
    this.#serving.delete(conn);
  }

  async #reopen() {
    while (!this.#closing) {
      let conn;
      try {
        conn = await this.#open();
        this.#conn = conn;
        await this.#greet(conn);
        await this.#restore(conn);
      } catch (error) {
        // A refused hello or restore is retried like a failed connect: the daemon may be restarting.
        await conn?.close();
        this.#states.change('reconnecting', error.message);
        await sleep(this.#backoff.next(), undefined, { signal: this.#stopping.signal }).catch(() => {});
        continue;
      }
      this.#backoff.reset();
      this.reconnects += 1;
      this.#connected = null;
      this.#markConnected();
      this.#states.change('connected');
      return;
    }
  }

  async #restore(conn) {
    for (const [method, params] of this.#lifecycle) {
      await conn.request(method, params).catch((error) => {
        if (!(error instanceof RPCError)) throw error; // a daemon without the method: nothing to restore
      });
    }
    for (const registration of [...this.#registrations]) {
      try {
        await this.#register(conn, registration);
      } catch (error) {
        if (!(error instanceof RPCError)) throw error;
      }
    }
    for (const stream of [...this.#streams]) {
      try {
        await this.#subscribe(conn, stream);
      } catch (error) {
        if (!(error instanceof RPCError)) throw error;
        stream._fail(error);
      }
    }
  }
}
