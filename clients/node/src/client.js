// The client: one connection to the daemon, kept alive across daemon restarts.
//
// Client owns the current Connection, the fetchers and mutators registered through it, and its
// subscriptions. When the connection drops it reconnects with a growing delay (50 ms doubling to
// 1 s), registers every fetcher and mutator again and re-subscribes every subscription before any
// waiting call goes on. Requests in flight when it dropped reject with ConnectionLost.

import { setTimeout as sleep } from 'node:timers/promises';
import { Connection } from './connection.js';
import { ClientClosed, ConnectionLost, QuerydConnectionError, RPCError, UnknownID } from './errors.js';
import { errorObject, Registration, serveFetch, serveMutate } from './handlers.js';
import { asKey, socketPath, wireOptions } from './keys.js';
import { ClockAPI, MutationAPI, MutationsAPI, QueriesAPI, QueryAPI, ServerAPI } from './namespaces.js';
import { Subscription } from './subscription.js';

const VERSION = '0.1.0';
const SERVED = { fetch: ['fetcher', serveFetch], mutate: ['mutator', serveMutate] };
const PUSHED = { 'query.changed': ['query.subscribe', 'state'], 'mutation.changed': ['mutation.subscribe', 'mutation'] };
const UNSUBSCRIBE = { 'query.subscribe': 'query.unsubscribe', 'mutation.subscribe': 'mutation.unsubscribe' };

/** A client of queryd. Create it with `await Client.connect(path)`. */
export class Client {
  #conn = null;
  #connected = null;       // a promise resolved when a connection is usable, or null when it is
  #markConnected = () => {};
  #closing = false;
  #failed = false;
  #reconnect;
  #name;
  #reopening = null;
  #registrations = [];
  #byWire = new Map();      // "fetcher:1" -> Registration
  #streams = [];
  #streamIds = new Map();   // "query.subscribe:1" -> Stream
  #serving = new Map();     // Connection -> Map(request id -> AbortController)
  #registering = 0;
  #deferred = [];
  #closedPromise;
  #resolveClosed;

  constructor(path, { reconnect = true, name = 'queryd-node' } = {}) {
    /** The socket path in use. */
    this.path = path;
    /** The daemon's `server.hello` answer on the current connection. */
    this.serverInfo = {};
    /** How many times the client reconnected. */
    this.reconnects = 0;
    this.#reconnect = reconnect;
    this.#name = name;
    this.#closedPromise = new Promise((resolve) => { this.#resolveClosed = resolve; });
    this.query = new QueryAPI(this);
    this.queries = new QueriesAPI(this);
    this.mutation = new MutationAPI(this);
    this.mutations = new MutationsAPI(this);
    this.server = new ServerAPI(this);
    this.clock = new ClockAPI(this);
  }

  /**
   * Connects (the path resolved as the daemon does) and says `server.hello`. Rejects with
   * ConnectFailed when nobody listens. `{reconnect: false}` makes a lost connection final.
   */
  static async connect(path, options = {}) {
    const client = new Client(socketPath(path), options);
    const conn = await client.#open();
    try {
      await client.#greet(conn);
    } catch (error) {
      await conn.close();
      throw error;
    }
    client.#conn = conn;
    return client;
  }

  /** The capability names the daemon announced. */
  get capabilities() { return new Set(this.serverInfo.capabilities ?? []); }

  /** Whether a connection is up right now. */
  get isConnected() { return this.#connected === null && this.#conn !== null && !this.#conn.isClosed; }

  /** Closes the client: subscriptions end, handlers are aborted, calls reject with ClientClosed. */
  async close() {
    if (this.#closing) return;
    this.#closing = true;
    this.#markConnected();
    for (const stream of [...this.#streams]) stream._fail(new ClientClosed('the client was closed'));
    if (this.#conn) await this.#conn.close();
    await this.#reopening?.catch(() => {});
    this.#resolveClosed();
  }

  /** `await using`-style helper: `Symbol.asyncDispose` closes the client. */
  [Symbol.asyncDispose ?? Symbol.for('Symbol.asyncDispose')]() { return this.close(); }

  /** Resolves when `close()` is called: what a fetcher process awaits after registering. */
  serveForever() { return this.#closedPromise; }

  /** Resolves once a connection is up (after a reconnect, once everything is restored). */
  async waitConnected() { await this.#connection(); }

  /** Sends any method and resolves with its result; `{signal}` cancels it (`$/cancelRequest`). */
  async call(method, params, { signal } = {}) {
    const conn = await this.#connection();
    return conn.request(method, params, { signal });
  }

  // -- fetchers and mutators ----------------------------------------------------------------

  /**
   * Serves `fetch` requests for keys under `prefix` with `fetcher({key, pageParam, direction, meta,
   * attempt, signal})`, which returns the data or a PageResult; throwing HandlerError answers with
   * its code. Options: exact, cancellable, defaults (query options for matching queries).
   */
  registerFetcher(prefix, fetcher, { exact = false, cancellable = false, defaults } = {}) {
    const params = { key: asKey(prefix) };
    if (exact) params.exact = true;
    if (cancellable) params.cancellable = true;
    if (defaults !== undefined) params.defaults = wireOptions(defaults);
    return this.#add(new Registration('fetcher', params, fetcher, (r) => this.#remove(r)));
  }

  /** Serves `mutate` requests for keys under `prefix` with `mutator({key, variables, attempt, signal})`. */
  registerMutator(prefix, mutator, { exact = false } = {}) {
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
    serve(registration, params, controller.signal).then(
      (answer) => {
        if (controller.signal.aborted) return;
        try {
          conn.respond(id, answer);
        } catch (error) {
          conn.respondError(id, { code: 1, message: `the result is not JSON: ${error.message}` });
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
    const stream = this.#streamIds.get(`${pushed[0]}:${params.subscription}`);
    if (stream !== undefined && pushed[1] in params) stream._deliver(params[pushed[1]]);
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
    const method = stream.constructor.method;
    const onResult = (result) => {
      stream._acceptReply(result);
      this.#streamIds.set(`${method}:${stream.id}`, stream);
    };
    await conn.request(method, stream._subscribeParams(), { onResult });
  }

  async _detach(stream) {
    this.#streams = this.#streams.filter((s) => s !== stream);
    const wireId = stream.id;
    stream.id = null;
    if (wireId === null) return;
    const method = stream.constructor.method;
    this.#streamIds.delete(`${method}:${wireId}`);
    if (!this.isConnected) return;
    try {
      await this.call(UNSUBSCRIBE[method], { subscription: wireId });
    } catch (error) {
      if (!(error instanceof UnknownID || error instanceof QuerydConnectionError)) throw error;
    }
  }

  async _subscriptionCall(stream, method, params, deliver = false) {
    for (;;) {
      const conn = await this.#connection();
      if (stream.id === null) throw new ClientClosed('the subscription has ended');
      const onResult = deliver ? (state) => stream._deliver(state) : undefined;
      try {
        return await conn.request(method, { ...params, subscription: stream.id }, { onResult });
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
    });
  }

  async #greet(conn) {
    this.serverInfo = await conn.request('server.hello', { client: { name: this.#name, version: VERSION } });
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
      for (const stream of [...this.#streams]) stream._fail(new ConnectionLost('the connection to queryd was lost'));
      return;
    }
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
    let delay = 50;
    while (!this.#closing) {
      let conn;
      try {
        conn = await this.#open();
      } catch (error) {
        if (!(error instanceof QuerydConnectionError)) throw error;
        await sleep(delay);
        delay = Math.min(delay * 2, 1000);
        continue;
      }
      this.#conn = conn;
      try {
        await this.#greet(conn);
        await this.#restore(conn);
      } catch (error) {
        if (error instanceof QuerydConnectionError) continue;
        throw error;
      }
      this.reconnects += 1;
      this.#connected = null;
      this.#markConnected();
      return;
    }
  }

  async #restore(conn) {
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
