// The queries as a tree of their keys' elements: ["todos", 1] sits under "todos", so a key's prefixes (what the
// daemon's filters match) read as branches.

import { badge, keyText, stateOf } from "/status.js";

/** Draws the tree of `queries` into `container`. */
export function renderTree(container, queries, view, select) {
  const root = { children: new Map(), query: null };
  for (const query of queries) {
    let node = root;
    for (const part of query.key) {
      const label = typeof part === "string" ? part : JSON.stringify(part);
      if (!node.children.has(label)) node.children.set(label, { children: new Map(), query: null });
      node = node.children.get(label);
    }
    node.query = query;
  }
  container.replaceChildren(branch(root, view, select));
}

function branch(node, view, select) {
  const list = document.createElement("ul");
  for (const [label, child] of [...node.children].sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0))) {
    const item = document.createElement("li");
    const line = document.createElement("div");
    line.className = "node";
    if (child.query) {
      const key = keyText(child.query.key);
      line.classList.add("query", `state-${stateOf(child.query)}`);
      if (key === view.selected) line.classList.add("selected");
      line.dataset.key = key;
      line.append(badge(stateOf(child.query)));
      line.onclick = () => select(key);
    }
    line.append(` ${label}`);
    item.append(line);
    if (child.children.size) item.append(branch(child, view, select));
    list.append(item);
  }
  return list;
}
