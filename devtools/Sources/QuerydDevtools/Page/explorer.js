// A JSON explorer: objects and arrays fold open and shut; the first two levels start open.

/** An element showing `value`. */
export function explore(value, depth = 0) {
  if (value === null || typeof value !== "object") {
    const leaf = document.createElement("span");
    leaf.className = `json-${value === null ? "null" : typeof value}`;
    leaf.textContent = JSON.stringify(value);
    return leaf;
  }
  const entries = Array.isArray(value) ? value.map((item, index) => [index, item]) : Object.entries(value);
  const details = document.createElement("details");
  details.open = depth < 2;
  const summary = document.createElement("summary");
  summary.textContent = Array.isArray(value) ? `Array(${entries.length})` : `{${entries.length} ${entries.length === 1 ? "key" : "keys"}}`;
  details.append(summary);
  for (const [name, item] of entries) {
    const row = document.createElement("div");
    row.className = "json-member";
    const label = document.createElement("span");
    label.className = "json-name";
    label.textContent = `${name}: `;
    row.append(label, explore(item, depth + 1));
    details.append(row);
  }
  return details;
}
