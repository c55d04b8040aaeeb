// Each query's state changes as the page saw them (since it was opened): a new entry when its state label, status,
// fetch status, version or observer count changes.

import { stateOf, keyText } from "/status.js";

const LIMIT = 100;

export class Timeline {
  constructor() {
    this.entries = new Map();
  }

  /** Notes `query`'s state at `time` when it differs from the last entry. */
  record(query, time) {
    const key = keyText(query.key);
    const list = this.entries.get(key) || [];
    const entry = {
      time, state: stateOf(query), status: query.status, fetchStatus: query.fetchStatus,
      version: query.version, observers: query.observers || 0,
    };
    const last = list[list.length - 1];
    if (last && ["state", "status", "fetchStatus", "version", "observers"].every((name) => last[name] === entry[name])) return;
    list.push(entry);
    if (list.length > LIMIT) list.shift();
    this.entries.set(key, list);
  }

  /** Notes that the query left the cache. */
  removed(key, time) {
    const list = this.entries.get(keyText(key)) || [];
    list.push({ time, state: "removed", status: "", fetchStatus: "", version: null, observers: 0 });
    this.entries.set(keyText(key), list);
  }

  /** The entries of `key` (its JSON text), oldest first. */
  of(key) {
    return this.entries.get(key) || [];
  }
}
