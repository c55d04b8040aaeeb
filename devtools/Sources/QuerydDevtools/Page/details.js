// The selected query: its state, observers and times, the actions (refetch, invalidate, reset, remove, set data),
// its data in the JSON explorer and its timeline.

import { badge, formatTime, keyText, stateOf } from "/status.js";
import { explore } from "/explorer.js";

let shown = { key: null, version: null, openData: null };

/** Draws `query` (undefined: none selected) into `container`. */
export function renderDetails(container, query, timeline, link) {
  if (!query) {
    shown = { key: null, version: null };
    container.innerHTML = '<p class="empty">Select a query.</p>';
    return;
  }
  const key = keyText(query.key);
  const sameQuery = shown.key === key;
  if (sameQuery && shown.version === query.version && shown.observers === query.observers && shown.state === stateOf(query)) {
    drawTimeline(container.querySelector(".timeline"), timeline.of(key));
    return;
  }
  shown = { key, version: query.version, observers: query.observers, state: stateOf(query) };
  const heading = document.createElement("h2");
  heading.append(badge(stateOf(query)), " ", key);
  const facts = document.createElement("dl");
  facts.className = "facts";
  for (const [name, value] of [
    ["status", query.status], ["fetch status", query.fetchStatus], ["observers", query.observers || 0],
    ["version", query.version], ["last updated", formatTime(query.dataUpdatedAt)],
    ["updates", `${query.dataUpdateCount} data, ${query.errorUpdateCount} errors`],
    ["failures", query.failureCount], ["invalidated", query.isInvalidated ? "yes" : "no"],
  ]) {
    const term = document.createElement("dt");
    term.textContent = name;
    const definition = document.createElement("dd");
    definition.textContent = String(value);
    facts.append(term, definition);
  }
  const actions = document.createElement("div");
  actions.className = "actions";
  const status = document.createElement("span");
  status.className = "action-status";
  for (const action of ["refetch", "invalidate", "reset", "remove", "set"]) {
    const button = document.createElement("button");
    button.textContent = action === "set" ? "set data…" : action;
    button.dataset.action = action;
    button.onclick = () => run(action, query, link, status);
    actions.append(button);
  }
  actions.append(status);
  const data = document.createElement("section");
  data.className = "data";
  data.innerHTML = "<h3>Data</h3>";
  data.append(explore(query.data));
  if (query.error !== null && query.error !== undefined) {
    const error = document.createElement("div");
    error.innerHTML = '<h3>Error</h3>';
    error.append(explore(query.error));
    data.append(error);
  }
  const history = document.createElement("section");
  history.innerHTML = "<h3>Timeline</h3>";
  const list = document.createElement("ol");
  list.className = "timeline";
  history.append(list);
  container.replaceChildren(heading, actions, facts, data, history);
  drawTimeline(list, timeline.of(key));
}

function drawTimeline(list, entries) {
  list.replaceChildren(...entries.slice().reverse().map((entry) => {
    const item = document.createElement("li");
    item.dataset.state = entry.state;
    item.append(`${formatTime(entry.time)} `, badge(entry.state), ` ${entry.text}`);
    return item;
  }));
}

async function run(action, query, link, status) {
  let data;
  if (action === "set") {
    data = await askForData(query);
    if (data === undefined) return;
  } else if ((action === "reset" || action === "remove") && !confirm(`${action} ${keyText(query.key)}?`)) {
    return;
  }
  status.textContent = `${action}…`;
  try {
    const result = await link.act(action, query.key, data);
    status.textContent = `${action}: ${result && "matched" in result ? `${result.matched} matched` : "done"}`;
  } catch (error) {
    status.textContent = `${action} failed: ${error.message}`;
  }
}

/** Shows the set-data dialog with the current data; resolves with the parsed new data, or undefined if cancelled. */
function askForData(query) {
  const dialog = document.getElementById("set-dialog");
  const text = document.getElementById("set-data");
  const error = document.getElementById("set-error");
  document.getElementById("set-key").textContent = keyText(query.key);
  text.value = JSON.stringify(query.data ?? null, null, 2);
  error.textContent = "";
  return new Promise((resolve) => {
    document.getElementById("set-confirm").onclick = (event) => {
      try {
        const value = JSON.parse(text.value);
        if (!confirm(`Replace the data of ${keyText(query.key)}?`)) return event.preventDefault();
        resolve(value);
      } catch (problem) {
        event.preventDefault();
        error.textContent = `Not JSON: ${problem.message}`;
      }
    };
    dialog.onclose = () => resolve(undefined);
    dialog.showModal();
  });
}
