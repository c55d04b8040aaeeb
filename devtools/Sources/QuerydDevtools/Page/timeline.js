// Each query's history as the cache.watch events told it (since the page opened): its states (a new entry when the
// state label, status, fetch status, version or observer count changes), each fetch's start and settlement, and its
// removal. A fetch shows however short it was: its `fetch.started` event is an entry of its own.

import { stateOf, keyText } from "/status.js";

const LIMIT = 100;

export class Timeline {
  constructor() {
    this.entries = new Map();
  }

  /** Notes `query`'s state at `time` when it differs from the last state entry. */
  record(query, time) {
    const text = `${query.status}/${query.fetchStatus} v${query.version}, ${query.observers || 0} observers`;
    const list = this.entries.get(keyText(query.key)) || [];
    const last = list.findLast((entry) => entry.kind === "state");
    const state = stateOf(query);
    if (last && last.state === state && last.text === text) return;
    this.add(query.key, { time, kind: "state", state, text });
  }

  /** Notes a `fetch.started` (succeeded undefined) or `fetch.settled` event of `key`. */
  fetch(key, time, succeeded) {
    if (succeeded === undefined) this.add(key, { time, kind: "fetch", state: "fetching", text: "fetch started" });
    else this.add(key, { time, kind: "fetch", state: succeeded ? "settled" : "error", text: `fetch ${succeeded ? "succeeded" : "failed"}` });
  }

  /** Notes that the query left the cache. */
  removed(key, time) {
    this.add(key, { time, kind: "state", state: "removed", text: "removed" });
  }

  /** The entries of `key` (its JSON text), oldest first. */
  of(key) {
    return this.entries.get(key) || [];
  }

  add(key, entry) {
    const list = this.entries.get(keyText(key)) || [];
    list.push(entry);
    if (list.length > LIMIT) list.shift();
    this.entries.set(keyText(key), list);
  }
}
