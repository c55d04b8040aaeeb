// The fetchers and mutators registered (prefix, connection, and how many of the fetches or mutations in flight are
// under their prefix) and the fetches and mutations in flight, as the cache.watch events told them.

import { keyText } from "/status.js";

/** Redraws the four tables from `view` (its fetchers, mutators, fetches and mutations). */
export function renderActivity(view) {
  const fetchKeys = [...view.fetches.values()];
  const mutationKeys = [...view.mutations.values()].map((mutation) => mutation.key);
  fill("fetchers", [...view.fetchers.values()].map((fetcher) => registrationRow(fetcher, fetchKeys)));
  fill("mutators", [...view.mutators.values()].map((mutator) => registrationRow(mutator, mutationKeys)));
  fill("fetches", fetchKeys.map((key) => [keyText(key)]));
  fill("mutations", [...view.mutations.values()].map((mutation) => [`#${mutation.id}`, keyText(mutation.key)]));
}

/** id, prefix (with "exact" for an exact registration), connection, and the keys in flight that it serves. */
function registrationRow(registration, keys) {
  const served = keys.filter((key) => serves(registration, key)).length;
  const prefix = keyText(registration.prefix) + (registration.exact ? " exact" : "");
  return [registration.id, prefix, registration.connection, served];
}

/** The daemon's rule: a key equal to the prefix when exact, else one that starts with its elements. */
function serves({ prefix, exact }, key) {
  if (exact ? key.length !== prefix.length : key.length < prefix.length) return false;
  return prefix.every((element, index) => JSON.stringify(element) === JSON.stringify(key[index]));
}

function fill(id, rows) {
  document.getElementById(id).tBodies[0].replaceChildren(...rows.map((cells) => {
    const row = document.createElement("tr");
    row.append(...cells.map((text, index) => {
      const cell = document.createElement("td");
      cell.textContent = String(text);
      if (index === 1 || id === "fetches") cell.className = "key";
      return cell;
    }));
    return row;
  }));
}
