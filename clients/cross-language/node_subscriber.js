// Cross-language test: a Node subscriber printing each state as canonical {"data","fetchStatus","status","version"} lines.
// Usage: node node_subscriber.js SOCKET KEY_JSON UNTIL_DATA_JSON
// Speaks JSON-RPC directly over the socket with node:net (no dependencies).
'use strict';
const net = require('node:net');

const [socketPath, keyText, untilText] = process.argv.slice(2);
const key = JSON.parse(keyText);
const until = canonical(JSON.parse(untilText));

function canonical(value) {
  if (Array.isArray(value)) return '[' + value.map(canonical).join(',') + ']';
  if (value !== null && typeof value === 'object') {
    return '{' + Object.keys(value).sort().map((k) => JSON.stringify(k) + ':' + canonical(value[k])).join(',') + '}';
  }
  return JSON.stringify(value);
}

function print(state) {
  const line = { fetchStatus: state.fetchStatus, status: state.status, version: state.version };
  if ('data' in state) line.data = state.data;
  process.stdout.write(canonical(line) + '\n');
  if ('data' in state && canonical(state.data) === until) process.exit(0);
}

const socket = net.createConnection(socketPath);
let buffer = '';
let subscription = null;
socket.on('connect', () => {
  socket.write(JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'query.subscribe', params: { key } }) + '\n');
});
socket.on('data', (chunk) => {
  buffer += chunk.toString('utf8');
  let newline;
  while ((newline = buffer.indexOf('\n')) >= 0) {
    const line = buffer.slice(0, newline);
    buffer = buffer.slice(newline + 1);
    if (line.trim() === '') continue;
    const message = JSON.parse(line);
    if (message.id === 1 && message.result) {
      subscription = message.result.subscription;
      print(message.result.state);
    } else if (message.method === 'query.changed' && message.params.subscription === subscription) {
      print(message.params.state);
    }
  }
});
socket.on('error', (error) => {
  process.stderr.write(String(error) + '\n');
  process.exit(1);
});
