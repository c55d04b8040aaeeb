// The queries as a table: state, key, observers and last update, sortable by each column.

import { badge, formatTime, keyText, stateOf, updatedAt, STATES } from "/status.js";

const sorters = {
  state: (a, b) => STATES.indexOf(stateOf(a)) - STATES.indexOf(stateOf(b)),
  key: (a, b) => (keyText(a.key) < keyText(b.key) ? -1 : keyText(a.key) > keyText(b.key) ? 1 : 0),
  observers: (a, b) => (a.observers || 0) - (b.observers || 0),
  updated: (a, b) => updatedAt(a) - updatedAt(b),
};

/** Fills `table`'s body with a row per query of `queries`, sorted as `view.sort` says. */
export function renderList(table, queries, view, select) {
  const sorter = sorters[view.sort.by];
  const sorted = [...queries].sort((a, b) => (view.sort.up ? 1 : -1) * (sorter(a, b) || sorters.key(a, b)));
  for (const header of table.querySelectorAll("th[data-sort]")) {
    header.className = header.dataset.sort === view.sort.by ? (view.sort.up ? "sorted-up" : "sorted-down") : "";
  }
  table.tBodies[0].replaceChildren(...sorted.map((query) => {
    const key = keyText(query.key);
    const state = stateOf(query);
    const row = document.createElement("tr");
    row.className = `query state-${state}${key === view.selected ? " selected" : ""}`;
    row.dataset.key = key;
    row.dataset.state = state;
    const cells = [badge(state), key, String(query.observers || 0), formatTime(updatedAt(query))];
    for (const content of cells) {
      const cell = document.createElement("td");
      cell.append(content);
      row.append(cell);
    }
    row.cells[1].className = "key";
    row.onclick = () => select(key);
    return row;
  }));
}
