// Cross-language test: a Node subscriber using the queryd-client library, which re-subscribes after a
// daemon restart. Prints each state as a canonical {"data"?, "fetchStatus", "status"} line and exits
// once the data equals UNTIL_DATA_JSON.
// Usage: node node_restart_subscriber.mjs SOCKET KEY_JSON UNTIL_DATA_JSON

import { Client } from '../node/src/index.js';

const [socketPath, keyText, untilText] = process.argv.slice(2);

function canonical(value) {
  if (Array.isArray(value)) return `[${value.map(canonical).join(',')}]`;
  if (value !== null && typeof value === 'object') {
    return `{${Object.keys(value).sort().map((k) => `${JSON.stringify(k)}:${canonical(value[k])}`).join(',')}}`;
  }
  return JSON.stringify(value);
}

const until = canonical(JSON.parse(untilText));
const client = await Client.connect(socketPath, { backoffMs: [20, 200] });
client.onConnectionState((state) => process.stderr.write(`connection: ${state}\n`));
for await (const state of client.subscribe(JSON.parse(keyText))) {
  const line = { fetchStatus: state.fetchStatus, status: state.status };
  if ('data' in state) line.data = state.data;
  process.stdout.write(`${canonical(line)}\n`);
  if ('data' in state && canonical(state.data) === until) break;
}
await client.close();
