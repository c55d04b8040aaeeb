// What keeps a client going when the daemon is away: the reconnect backoff (exponential with
// jitter), waiting for a daemon that is starting, connection-state listeners, and the calls that
// are safe to send again when the connection dropped before their reply.

import { setTimeout as sleep } from 'node:timers/promises';
import { ConnectFailed } from './errors.js';

/**
 * Methods sent again on the new connection when the old one dropped before their reply: they read,
 * or fetch through the daemon's dedupe, so sending them twice cannot change the cache twice.
 */
export const IDEMPOTENT = new Set(['query.get', 'query.state', 'query.fetch', 'query.ensure']);

/**
 * Delays between reconnect attempts: `initialMs` doubling up to `maxMs`, each drawn uniformly from
 * `[delay / 2, delay]` (jitter) so the clients of a restarted daemon do not all come back at once.
 */
export class Backoff {
  #delay;
  constructor(initialMs = 50, maxMs = 2000, random = Math.random) {
    this.initialMs = initialMs;
    this.maxMs = maxMs;
    this.random = random;
    this.#delay = initialMs;
  }

  /** The next delay in milliseconds. */
  next() {
    const delay = this.#delay;
    this.#delay = Math.min(this.#delay * 2, this.maxMs);
    return delay / 2 + this.random() * (delay / 2);
  }

  /** Starts over at `initialMs` (after a successful connect). */
  reset() { this.#delay = this.initialMs; }
}

/** The listeners given to `client.onConnectionState`, and the current state. */
export class StateListeners {
  #listeners = new Set();
  /** `connecting`, `connected`, `reconnecting` or `closed`. */
  state = 'connecting';

  add(listener) {
    this.#listeners.add(listener);
    return () => this.#listeners.delete(listener);
  }

  change(state, reason = null) {
    if (state === this.state) return;
    this.state = state;
    for (const listener of [...this.#listeners]) listener(state, reason);
  }
}

/**
 * Calls `openOnce` until it succeeds, retrying a ConnectFailed for `waitMs`: a daemon that is
 * starting has not created (or does not yet listen on) its socket.
 */
export async function openWaiting(openOnce, waitMs, backoff) {
  const deadline = Date.now() + waitMs;
  for (;;) {
    try {
      return await openOnce();
    } catch (error) {
      const remaining = deadline - Date.now();
      if (!(error instanceof ConnectFailed) || remaining <= 0) throw error;
      await sleep(Math.min(backoff.next(), remaining));
    }
  }
}
