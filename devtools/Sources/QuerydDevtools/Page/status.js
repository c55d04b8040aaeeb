// A query state's label as TanStack Devtools shows it (fetching, paused, error, inactive, stale, fresh), and small
// helpers to describe a query.

/** The states, in the order the page lists their counts. */
export const STATES = ["fresh", "fetching", "paused", "stale", "inactive", "error"];

/** The label of a state: TanStack Devtools' rule (a watch's `isStale` is TanStack's query.isStale()), with `error`
 * for a query in error. */
export function stateOf(query) {
  if (query.fetchStatus === "fetching") return "fetching";
  if (query.fetchStatus === "paused") return "paused";
  if (query.status === "error") return "error";
  if (!query.observers) return "inactive";
  if (query.isStale) return "stale";
  return "fresh";
}

/** The key's JSON text: the page's identity for a query. */
export const keyText = (key) => JSON.stringify(key);

/** When the query last got data or an error (ms since the epoch, 0 for never). */
export const updatedAt = (query) => Math.max(query.dataUpdatedAt || 0, query.errorUpdatedAt || 0);

/** A badge element for a state. */
export function badge(state) {
  const span = document.createElement("span");
  span.className = `badge state-${state}`;
  span.textContent = state;
  return span;
}

/** "12:03:04" for a time, "never" for 0. */
export function formatTime(ms) {
  return ms ? new Date(ms).toLocaleTimeString([], { hour12: false }) : "never";
}
