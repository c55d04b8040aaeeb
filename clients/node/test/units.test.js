// Unit tests without a daemon: the connection over a socket pair, option folding, socket paths.

import assert from 'node:assert/strict';
import { once } from 'node:events';
import { createServer } from 'node:net';
import { test } from 'node:test';
import { Connection, ConnectionLost, FetchFailed, socketPath } from '../src/index.js';

async function pair(handlers) {
  const path = `/tmp/qd-js-unit-${process.pid}-${Math.random().toString(16).slice(2)}.sock`;
  const server = createServer();
  server.listen(path);
  await once(server, 'listening');
  const accepted = once(server, 'connection');
  const connection = await Connection.open(path, handlers);
  const [peer] = await accepted;
  server.close();
  peer.setEncoding('utf8');
  let buffer = '';
  const lines = [];
  const waiters = [];
  peer.on('data', (chunk) => {
    buffer += chunk;
    let i;
    while ((i = buffer.indexOf('\n')) >= 0) {
      const message = JSON.parse(buffer.slice(0, i));
      buffer = buffer.slice(i + 1);
      const waiter = waiters.shift();
      if (waiter) waiter(message); else lines.push(message);
    }
  });
  const read = () => (lines.length > 0 ? Promise.resolve(lines.shift()) : new Promise((r) => waiters.push(r)));
  const write = (message) => peer.write(`${JSON.stringify(message)}\n`);
  return { connection, peer, read, write };
}

test('replies are routed by id in any order', async () => {
  const { connection, read, write } = await pair();
  const first = connection.request('query.fetch', { key: ['a'] });
  const second = connection.request('query.get', { key: ['b'] });
  assert.deepEqual([await read(), await read()], [
    { jsonrpc: '2.0', id: 1, method: 'query.fetch', params: { key: ['a'] } },
    { jsonrpc: '2.0', id: 2, method: 'query.get', params: { key: ['b'] } },
  ]);
  write({ jsonrpc: '2.0', id: 2, result: null });
  write({ jsonrpc: '2.0', id: 1, error: { code: -32001, message: 'Fetch failed', data: { code: 7, message: 'x' } } });
  assert.equal(await second, null);
  await assert.rejects(first, (error) => error instanceof FetchFailed && error.method === 'query.fetch'
    && error.data.code === 7);
  await connection.close();
});

test('aborting a request sends $/cancelRequest', async () => {
  const { connection, read } = await pair();
  const controller = new AbortController();
  const waiting = connection.request('query.fetch', { key: ['a'] }, { signal: controller.signal });
  assert.equal((await read()).id, 1);
  controller.abort();
  await assert.rejects(waiting, { name: 'AbortError' });
  assert.deepEqual(await read(), { jsonrpc: '2.0', method: '$/cancelRequest', params: { id: 1 } });
  await connection.close();
});

test('server requests and notifications reach their callbacks in order', async () => {
  const seen = [];
  const { connection, read, write } = await pair({
    onRequest: (conn, id, method, params) => conn.respond(id, { data: [method, params] }),
    onNotification: (conn, method, params) => seen.push([method, params]),
  });
  write({ jsonrpc: '2.0', method: 'query.changed', params: { subscription: 1 } });
  write({ jsonrpc: '2.0', id: 9, method: 'fetch', params: { key: [] } });
  assert.deepEqual(await read(), { jsonrpc: '2.0', id: 9, result: { data: ['fetch', { key: [] }] } });
  assert.deepEqual(seen, [['query.changed', { subscription: 1 }]]);
  await connection.close();
});

test('the peer closing rejects waiting requests', async () => {
  const { connection, peer, read } = await pair();
  const waiting = connection.request('server.ping');
  await read();
  peer.end();
  await assert.rejects(waiting, ConnectionLost);
  await connection.waitClosed();
  await assert.rejects(connection.request('server.ping'), ConnectionLost);
});

test('socket path resolution matches the daemon', () => {
  assert.equal(socketPath('/x.sock', { QUERYD_SOCKET: '/y' }), '/x.sock');
  assert.equal(socketPath(undefined, { QUERYD_SOCKET: '/y.sock', XDG_RUNTIME_DIR: '/run/u' }), '/y.sock');
  assert.equal(socketPath(undefined, { QUERYD_SOCKET: '', XDG_RUNTIME_DIR: '/run/u' }), '/run/u/queryd.sock');
  assert.match(socketPath(undefined, { XDG_RUNTIME_DIR: 'relative' }), /^\/tmp\/queryd-\d+\.sock$/);
});
