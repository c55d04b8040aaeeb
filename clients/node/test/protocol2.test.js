// Protocol 2 on the client side, against a scripted fake peer (test-support/fake-peer.js): hello
// negotiation and the protocol-1 fallback, the tolerant-reader rules, patch pushes rebuilt into
// full states, `$/closing` as the reason of a connection loss, paged `queries.list`, and an
// idempotent read re-sent after the connection dropped.

import assert from 'node:assert/strict';
import { test } from 'node:test';
import { Client, InvalidParams } from '../src/index.js';
import { eventually } from '../test-support/daemon.js';
import { FakePeer, HELLO_V2 } from '../test-support/fake-peer.js';

const state = (version, members = {}) => ({ key: ['k'], status: 'success', fetchStatus: 'idle', version, ...members });

async function withPeer(script, body) {
  const fake = await FakePeer.start(script);
  try {
    await body(fake);
  } finally {
    await fake.stop();
  }
}

test('hello negotiates protocol 2 and keeps node and epoch', async () => {
  const hellos = [];
  await withPeer(async (peer) => { hellos.push((await peer.hello()).params); await peer.idle(); }, async (fake) => {
    const client = await Client.connect(fake.path);
    assert.deepEqual([client.protocol, client.node, client.epoch], [2, 'n1', 'e1']);
    assert.ok(client.capabilities.has('option:push'));
    await client.close();
  });
  assert.deepEqual(hellos[0].protocol, { min: 1, max: 2 });
  assert.deepEqual(hellos[0].capabilities, { requests: ['fetch', 'mutate'] });
  assert.equal(hellos[0].client.name, 'queryd-node');
});

for (const field of ['protocol', 'capabilities']) {
  test(`a protocol-1 daemon refusing "${field}" is greeted again without the new members`, async () => {
    const hellos = [];
    await withPeer(async (peer) => {
      const first = await peer.expect('server.hello');
      hellos.push(first.params);
      peer.error(first, -32602, 'Invalid params', { field, reason: 'unknown parameter' });
      const second = await peer.expect('server.hello');
      hellos.push(second.params);
      peer.reply(second, { server: 'queryd', version: '0.1.0', protocol: 1, capabilities: ['query.get'] });
      await peer.idle();
    }, async (fake) => {
      const client = await Client.connect(fake.path);
      assert.deepEqual([client.protocol, client.node, client.epoch], [1, undefined, undefined]);
      await client.close();
    });
    assert.deepEqual(Object.keys(hellos[1]), ['client']);
  });
}

test('no protocol overlap fails connect', async () => {
  await withPeer(async (peer) => {
    const request = await peer.expect('server.hello');
    peer.error(request, -32602, 'Invalid params', {
      field: 'protocol', reason: 'no overlap', supported: { min: 3, max: 4 }, requested: {},
    });
    await peer.idle();
  }, async (fake) => {
    await assert.rejects(Client.connect(fake.path, { reconnect: false }), (error) => {
      assert.ok(error instanceof InvalidParams);
      assert.deepEqual(error.data.supported, { min: 3, max: 4 });
      return true;
    });
  });
});

test('tolerant reader: unknown members and notifications ignored, unknown requests refused', async () => {
  const answers = [];
  await withPeer(async (peer) => {
    await peer.hello();
    const request = await peer.expect('query.state');
    peer.send({ method: 'future.notification', params: { x: 1 } });
    peer.send({ id: 77, method: 'future.request', params: {} });
    answers.push(await peer.recv());
    peer.send({ id: request.id, result: state(1, { data: 5, futureField: [1] }), futureTop: 1 });
    await peer.idle();
  }, async (fake) => {
    const client = await Client.connect(fake.path);
    const read = await client.query.state(['k']);
    assert.deepEqual([read.data, read.futureField], [5, [1]]);
    await client.close();
  });
  assert.deepEqual(answers, [
    { jsonrpc: '2.0', id: 77, error: { code: -32601, message: 'Method not found', data: { method: 'future.request' } } },
  ]);
});

test('patch pushes are rebuilt into full states', async () => {
  const reads = [];
  await withPeer(async (peer) => {
    await peer.hello();
    const request = await peer.expect('query.subscribe');
    assert.deepEqual(request.params.options, { push: 'patch', echo: false });
    peer.reply(request, { subscription: 1, state: state(1, { data: { a: 1, b: 1 }, dataVersion: 1 }) });
    const push = (version, members, extra = {}) => peer.send({
      method: 'query.changed', params: { subscription: 1, ...extra, state: state(version, members) },
    });
    push(2, { dataVersion: 2 }, { patch: { baseVersion: 1, version: 2, patch: { b: null, c: 3 } } });
    push(3, { dataVersion: 2, isStale: true }); // unchanged data
    // A patch against a base this subscription never had: the client must re-read.
    push(5, { dataVersion: 5 }, { patch: { baseVersion: 4, version: 5, patch: { z: 1 } } });
    const read = await peer.expect('query.state');
    reads.push(read.params);
    peer.reply(read, state(5, { data: { a: 9, z: 1 } }));
    push(6, { dataVersion: 6 }, { patch: { baseVersion: 5, version: 6, patch: { a: 10 } } });
    push(7, { data: 'fresh', dataVersion: 7 }, { resync: true });
    push(8, {}); // no dataVersion: the query has no data now
    await peer.idle();
  }, async (fake) => {
    const client = await Client.connect(fake.path);
    const subscription = client.subscribe(['k'], { push: 'patch', echo: false });
    const seen = [];
    for (let i = 0; i < 7; i += 1) {
      const next = await subscription.nextState(5000);
      seen.push([next.version, 'data' in next ? next.data : '-']);
    }
    await client.close();
    assert.deepEqual(seen, [
      [1, { a: 1, b: 1 }], [2, { a: 1, c: 3 }], [3, { a: 1, c: 3 }], [5, { a: 9, z: 1 }],
      [6, { a: 10, z: 1 }], [7, 'fresh'], [8, '-'],
    ]);
  });
  assert.deepEqual(reads, [{ key: ['k'] }]);
});

test('$/closing is the reason of the connection loss', async () => {
  let accepted = 0;
  const changes = [];
  await withPeer(async (peer) => {
    await peer.hello();
    accepted += 1;
    if (accepted > 1) return peer.idle();
    peer.send({ method: '$/closing', params: { reason: 'slow consumer', limit: 'max-outbound-bytes' } });
    peer.close();
  }, async (fake) => {
    const client = await Client.connect(fake.path, { backoffMs: [10, 20] });
    client.onConnectionState((next, reason) => changes.push([next, reason]));
    await eventually(async () => changes.length === 2, 'the reconnect');
    await client.close();
  });
  assert.deepEqual(changes, [
    ['reconnecting', 'the daemon closed the connection: slow consumer (limit max-outbound-bytes)'],
    ['connected', null],
    ['closed', null],
  ]);
});

test('queries.pages follows nextCursor', async () => {
  const cursors = [];
  await withPeer(async (peer) => {
    await peer.hello();
    for (const [page, cursor] of [[['a', 'b'], 'c1'], [['c'], undefined]]) {
      const request = await peer.expect('queries.list');
      cursors.push(request.params);
      peer.reply(request, { queries: page.map((k) => state(1, { key: [k] })), nextCursor: cursor });
    }
    await peer.idle();
  }, async (fake) => {
    const client = await Client.connect(fake.path);
    const pages = [];
    for await (const page of client.queries.pages(['q'], { limit: 2 })) pages.push(page.map((s) => s.key[0]));
    await client.close();
    assert.deepEqual(pages, [['a', 'b'], ['c']]);
  });
  assert.deepEqual(cursors, [
    { filter: { key: ['q'] }, cursor: null, limit: 2 },
    { filter: { key: ['q'] }, cursor: 'c1', limit: 2 },
  ]);
});

test('an idempotent read in flight is sent again after a reconnect', async () => {
  const received = [];
  await withPeer(async (peer) => {
    await peer.hello({ ...HELLO_V2, epoch: `e${received.length + 1}` });
    const request = await peer.expect('query.get');
    received.push(request.params);
    if (received.length === 1) return peer.close(); // dropped before the reply
    peer.reply(request, { data: 'second try' });
    await peer.idle();
  }, async (fake) => {
    const client = await Client.connect(fake.path, { backoffMs: [10, 20] });
    assert.equal(await client.query.get(['k']), 'second try');
    assert.deepEqual([client.reconnects, client.epoch], [1, 'e2']);
    await client.close();
  });
  assert.deepEqual(received, [{ key: ['k'] }, { key: ['k'] }]);
});

test('meta pushes are yielded without data and without reads', async () => {
  const requests = [];
  await withPeer(async (peer) => {
    await peer.hello();
    const request = await peer.expect('query.subscribe');
    peer.reply(request, { subscription: 1, state: state(1, { dataVersion: 1 }) });
    peer.send({ method: 'query.changed', params: { subscription: 1, state: state(2, { dataVersion: 2 }) } });
    for (let message = await peer.recv(); message !== null; message = await peer.recv()) {
      requests.push(message.method);
      if ('id' in message) peer.reply(message, {});
    }
  }, async (fake) => {
    const client = await Client.connect(fake.path);
    const subscription = client.subscribe(['k'], { push: 'meta' });
    const seen = [await subscription.nextState(5000), await subscription.nextState(5000)];
    assert.deepEqual(seen.map((s) => [s.version, s.dataVersion, 'data' in s]), [[1, 1, false], [2, 2, false]]);
    await client.server.ping();
    await client.close();
  });
  assert.deepEqual(requests, ['server.ping']);
});
