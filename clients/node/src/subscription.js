// Subscriptions as async iterators: `for await (const state of client.subscribe(key)) { ... }`.
//
// A subscription yields the state of the subscribe reply first, then every `query.changed` in the
// order the daemon wrote them. Leaving the loop (`break`, `return`, a throw) unsubscribes; closing
// the client ends the loop normally. After a reconnect the client subscribes again with the same
// key and options and the stream goes on. With `push: 'patch'` (protocol 2) pushes are rebuilt into
// full states before they are yielded (patching.js); with `push: 'meta'` states carry no data.

import { asKey, wireOptions, withoutSignal } from './keys.js';
import { PatchTracker } from './patching.js';

class Stream {
  #client;
  #queue = [];
  #waiters = [];
  #started = null;
  #ended = false;

  constructor(client) {
    this.#client = client;
    /** The daemon's id for this subscription (null while disconnected or before start). */
    this.id = null;
  }

  /** The method that subscribes. */
  get _method() { return this.constructor.method; }

  /** The id space the daemon's pushes name this subscription in. */
  get _pushKey() { return this._method; }

  /** The member naming this stream in the reply, its pushes and its unsubscribe call. */
  get _idMember() { return 'subscription'; }

  /** Subscribes (once); iteration calls this itself. */
  start() {
    this.#started ??= this.#client._attach(this).catch((error) => {
      this.#ended = true;
      throw error;
    });
    return this.#started;
  }

  /** The next value, waiting at most `timeoutMs` (rejects on timeout); `undefined` once ended. */
  async nextState(timeoutMs) {
    await this.start();
    const item = await this.#take(timeoutMs);
    if ('error' in item) throw item.error;
    return item.done ? undefined : this._materialize(item.value);
  }

  async *[Symbol.asyncIterator]() {
    await this.start();
    try {
      while (true) {
        const item = await this.#take();
        if ('error' in item) throw item.error;
        if (item.done) return;
        yield await this._materialize(item.value);
      }
    } finally {
      await this.unsubscribe();
    }
  }

  // Turns a queued value into the one yielded (query subscriptions rebuild patched states).
  async _materialize(value) { return value; }

  /** Stops the subscription; iteration ends. */
  async unsubscribe() {
    if (this.#ended) return;
    this.#ended = true;
    this.#put({ done: true });
    await this.#client._detach(this);
  }

  get ended() { return this.#ended; }

  _push(value) {
    if (!this.#ended) this.#put({ value });
  }

  _fail(error) {
    if (this.#ended) return;
    this.#ended = true;
    this.#put({ error });
  }

  // Ends the iteration normally (the client was closed by its owner).
  _finish() {
    if (this.#ended) return;
    this.#ended = true;
    this.#put({ done: true });
  }

  #put(item) {
    const waiter = this.#waiters.shift();
    if (waiter) waiter(item);
    else this.#queue.push(item);
  }

  #take(timeoutMs) {
    if (this.#queue.length > 0) {
      const item = this.#queue[0];
      // The end marker stays queued so every later take sees it too.
      if (!('value' in item)) return Promise.resolve(item);
      return Promise.resolve(this.#queue.shift());
    }
    return new Promise((resolve, reject) => {
      let timer;
      const waiter = (item) => {
        clearTimeout(timer);
        if (!('value' in item)) this.#queue.push(item);
        resolve(item);
      };
      this.#waiters.push(waiter);
      if (timeoutMs !== undefined) {
        timer = setTimeout(() => {
          this.#waiters.splice(this.#waiters.indexOf(waiter), 1);
          reject(new Error(`no state within ${timeoutMs} ms`));
        }, timeoutMs);
      }
    });
  }

  get _client() { return this.#client; }
}

// A `query.changed` params object (or a reply's state) queued in patch mode, rebuilt when taken.
class Raw {
  constructor(params) { this.params = params; }
}

/** One query subscription (TanStack's observer). Yields state objects. */
export class Subscription extends Stream {
  static method = 'query.subscribe';
  #patches = new PatchTracker();

  constructor(client, key, options = {}) {
    super(client);
    /** The subscribed key (changes with setOptions). */
    this.key = asKey(key);
    /** The wire options. */
    this.options = wireOptions(options);
    /** The newest state received (null before the subscribe reply). */
    this.state = null;
  }

  _subscribeParams() {
    return Object.keys(this.options).length > 0 ? { key: this.key, options: this.options } : { key: this.key };
  }

  _acceptReply(result) {
    this.id = result.subscription;
    this._deliver(result.state);
  }

  get #patchMode() { return this.options.push === 'patch'; }

  // A state from a reply (subscribe, setOptions): full, and a fresh base in patch mode.
  _deliver(state) {
    if (this.#patchMode) {
      this._push(new Raw({ state, resync: true }));
      return;
    }
    this.state = state;
    this._push(state);
  }

  _deliverPush(params) {
    if (params.state === null || typeof params.state !== 'object') return;
    if (this.#patchMode) this._push(new Raw(params));
    else this._deliver(params.state);
  }

  async _materialize(value) {
    if (!(value instanceof Raw)) return value;
    const rebuilt = this.#patches.rebuild(value.params);
    let { state } = rebuilt;
    if (state === undefined) {
      const read = await this._client.query.state(this.key);
      state = this.#patches.reread(value.params.state, read, rebuilt.reread);
    }
    this.state = state;
    return state;
  }

  /** `query.setOptions`: replaces the options; `key` moves the subscription to another query. `signal` aborts. */
  setOptions({ key, signal, ...options } = {}) {
    const params = {};
    if (key !== undefined) {
      this.key = asKey(key);
      params.key = this.key;
    }
    this.options = wireOptions(options);
    if (Object.keys(this.options).length > 0) params.options = this.options;
    return this._client._subscriptionCall(this, 'query.setOptions', params, { deliver: true, signal });
  }

  /** `query.refetch` with this subscription's key and options; the settled state. `{cancelRefetch, signal}`. */
  refetch(options = {}) { return this.#call('query.refetch', options); }

  /** `query.fetchNextPage` (infinite queries); the settled state. `{cancelRefetch, signal}`. */
  fetchNextPage(options = {}) { return this.#call('query.fetchNextPage', options); }

  /** `query.fetchPreviousPage` (infinite queries); the settled state. `{cancelRefetch, signal}`. */
  fetchPreviousPage(options = {}) { return this.#call('query.fetchPreviousPage', options); }

  #call(method, options) {
    const [params, call] = withoutSignal(options);
    return this._client._subscriptionCall(this, method, params, call);
  }
}

/** Observes mutations (`mutation.subscribe`): yields the current mutations, then each change. */
export class MutationSubscription extends Stream {
  static method = 'mutation.subscribe';

  constructor(client, filter) {
    super(client);
    this.filter = filter;
  }

  _subscribeParams() { return this.filter === undefined ? {} : { filter: this.filter }; }

  _acceptReply(result) {
    this.id = result.subscription;
    for (const mutation of result.mutations ?? []) this._deliver(mutation);
  }

  _deliver(mutation) { this._push(mutation); }

  _deliverPush(params) {
    if ('mutation' in params) this._deliver(params.mutation);
  }
}

/**
 * Watches the whole cache (`cache.watch`): yields the snapshot (`{watch, queries, fetchers, mutators,
 * mutations}`; again after a reconnect, when the events start over), then each `cache.changed`'s
 * array of events (objects with a `type`).
 */
export class CacheWatch extends Stream {
  static method = 'cache.watch';

  constructor(client, filter, data) {
    super(client);
    this.filter = filter;
    this.data = data;
  }

  get _idMember() { return 'watch'; }

  _subscribeParams() {
    const params = {};
    if (this.filter !== undefined) params.filter = this.filter;
    if (this.data) params.data = true;
    return params;
  }

  _acceptReply(result) {
    this.id = result.watch;
    this._push(result);
  }

  _deliverPush(params) {
    if (Array.isArray(params.events)) this._push(params.events);
  }
}

/**
 * Watches a count (`queries.count` / `mutations.count` with `subscribe: true`; TanStack's
 * useIsFetching / useIsMutating). Yields numbers: the count when subscribing, then each
 * `count.changed` (at most one per daemon loop turn, with the latest count).
 */
export class CountSubscription extends Stream {
  #method;

  constructor(client, method, filter) {
    super(client);
    this.#method = method;
    this.filter = filter;
    /** The newest count received (null before the reply). */
    this.count = null;
  }

  get _method() { return this.#method; }

  get _pushKey() { return 'count'; }

  _subscribeParams() { return this.filter === undefined ? { subscribe: true } : { filter: this.filter, subscribe: true }; }

  _acceptReply(result) {
    this.id = result.subscription;
    this._deliver(result.count);
  }

  _deliver(count) {
    this.count = count;
    this._push(count);
  }

  _deliverPush(params) {
    if (typeof params.count === 'number') this._deliver(params.count);
  }
}
