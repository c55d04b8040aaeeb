// The page's entry: keeps the cache as the server's snapshot and cache.watch events describe it, and redraws the
// registrations and work in flight, the list or tree and the selected query's details when it changes; the counters
// and graphs follow the server.stats readings.

import { Link } from "/link.js";
import { STATES, keyText, stateOf } from "/status.js";
import { renderList } from "/list.js";
import { renderTree } from "/tree.js";
import { renderDetails } from "/details.js";
import { Timeline } from "/timeline.js";
import { Graphs } from "/graphs.js";
import { renderActivity } from "/activity.js";

const token = new URLSearchParams(location.search).get("token") || "";
const view = {
  queries: new Map(), fetchers: new Map(), mutators: new Map(), fetches: new Map(), mutations: new Map(),
  stats: null, selected: null, sort: { by: "key", up: true }, mode: "list",
};
const timeline = new Timeline();
const graphs = new Graphs(document.getElementById("graphs"));
const link = new Link(token, receive, (status) => {
  const element = document.getElementById("connection");
  element.textContent = status;
  element.className = `connection ${status === "connected" ? "up" : "down"}`;
});

function receive(message) {
  const now = Date.now();
  if (message.type === "disconnected") {
    document.getElementById("connection").textContent = `daemon unreachable: ${message.reason}`;
    document.getElementById("connection").className = "connection down";
    return;
  }
  document.getElementById("connection").textContent = "connected";
  document.getElementById("connection").className = "connection up";
  if (message.type === "stats") {
    view.stats = message.stats;
    graphs.add(message.at, message.stats);
    renderCounters(view.stats);
    return;
  }
  if (message.type === "snapshot") {
    view.queries = new Map(message.queries.map((query) => [keyText(query.key), query]));
    view.fetchers = new Map(message.fetchers.map((fetcher) => [fetcher.id, fetcher]));
    view.mutators = new Map(message.mutators.map((mutator) => [mutator.id, mutator]));
    view.fetches = new Map(message.fetches.map((key) => [keyText(key), key]));
    view.mutations = new Map(message.mutations.map((mutation) => [mutation.id, mutation]));
    for (const query of message.queries) timeline.record(query, now);
  } else if (message.type === "events") {
    for (const event of message.events) apply(event, now);
  }
  renderActivity(view);
  render();
}

/** One cache.changed event: the view and the timeline follow it. */
function apply(event, now) {
  const { type, ...members } = event;
  switch (type) {
    case "query.added":
    case "query.changed":
      view.queries.set(keyText(event.state.key), event.state);
      timeline.record(event.state, now);
      break;
    case "query.removed":
      view.queries.delete(keyText(event.key));
      timeline.removed(event.key, now);
      break;
    case "fetch.started":
      view.fetches.set(keyText(event.key), event.key);
      timeline.fetch(event.key, now);
      break;
    case "fetch.settled":
      view.fetches.delete(keyText(event.key));
      timeline.fetch(event.key, now, event.succeeded);
      break;
    case "fetcher.registered": view.fetchers.set(event.id, members); break;
    case "fetcher.unregistered": view.fetchers.delete(event.id); break;
    case "mutator.registered": view.mutators.set(event.id, members); break;
    case "mutator.unregistered": view.mutators.delete(event.id); break;
    case "mutation.started": view.mutations.set(event.mutation.id, event.mutation); break;
    case "mutation.settled": view.mutations.delete(event.mutation.id); break;
  }
}

function render() {
  renderStateFilter();
  const shown = visibleQueries();
  if (view.mode === "list") renderList(document.getElementById("list"), shown, view, select);
  else renderTree(document.getElementById("tree"), shown, view, select);
  renderDetails(document.getElementById("details"), view.queries.get(view.selected), timeline, link);
}

function visibleQueries() {
  const text = document.getElementById("filter").value.trim().toLowerCase();
  const state = document.getElementById("state-filter").value;
  return [...view.queries.values()].filter(
    (query) => (!text || keyText(query.key).toLowerCase().includes(text)) && (!state || stateOf(query) === state));
}

function select(key) {
  view.selected = key;
  render();
}

function renderCounters(stats) {
  if (!stats) return;
  const counters = [
    ["queries", stats.queries], ["connections", stats.connections], ["subscriptions", stats.subscriptions],
    ["fetchers", stats.fetchers], ["in-flight fetches", stats.inFlightFetches],
    ["waiting requests", stats.pendingRequests], ["memory", `${((stats.memory?.rssBytes || 0) / 1048576).toFixed(1)} MiB`],
  ];
  document.getElementById("counters").replaceChildren(...counters.flatMap(([name, value]) => {
    const term = document.createElement("dt");
    term.textContent = name;
    const definition = document.createElement("dd");
    definition.textContent = value ?? "–";
    definition.id = `counter-${name.replaceAll(" ", "-")}`;
    return [term, definition];
  }));
}

function renderStateFilter() {
  const counts = Object.fromEntries(STATES.map((state) => [state, 0]));
  for (const query of view.queries.values()) counts[stateOf(query)] += 1;
  document.getElementById("state-counts").replaceChildren(...STATES.map((state) => {
    const chip = document.createElement("span");
    chip.className = `chip state-${state}`;
    chip.textContent = `${state} ${counts[state]}`;
    return chip;
  }));
}

const stateFilter = document.getElementById("state-filter");
for (const state of STATES) stateFilter.add(new Option(state, state));
stateFilter.onchange = render;
document.getElementById("filter").oninput = render;
for (const header of document.querySelectorAll("#list th[data-sort]")) {
  header.onclick = () => {
    const by = header.dataset.sort;
    view.sort = { by, up: view.sort.by === by ? !view.sort.up : true };
    render();
  };
}
for (const [button, mode] of [["show-list", "list"], ["show-tree", "tree"]]) {
  document.getElementById(button).onclick = () => {
    view.mode = mode;
    document.getElementById("list").hidden = mode !== "list";
    document.getElementById("tree").hidden = mode !== "tree";
    document.getElementById("show-list").classList.toggle("active", mode === "list");
    document.getElementById("show-tree").classList.toggle("active", mode === "tree");
    render();
  };
}
