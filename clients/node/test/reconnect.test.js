// Reconnecting after the daemon restarts: fetchers registered again, subscriptions resumed,
// an idempotent read cancelled by the shutdown sent again to the next daemon; and `reconnect: false`
// failing cleanly.

import assert from 'node:assert/strict';
import { afterEach, beforeEach, describe, test } from 'node:test';
import { Client, ConnectionLost } from '../src/index.js';
import { Daemon, eventually } from '../test-support/daemon.js';

describe('reconnect', () => {
  let daemon;
  beforeEach(async () => { daemon = await Daemon.start(); });
  afterEach(async () => { await daemon.dispose(); });

  test('after a daemon restart', async () => {
    let generation = 1;
    const client = await Client.connect(daemon.socketPath);
    const watcher = await Client.connect(daemon.socketPath);
    await client.registerFetcher(['r'], async () => `gen ${generation}`);
    const subscription = watcher.subscribe(['r']);
    assert.equal((await subscription.nextState(5000)).fetchStatus, 'fetching');
    assert.equal((await subscription.nextState(5000)).data, 'gen 1');
    const waiting = watcher.query.fetch(['unserved']);
    const outcome = waiting.then((state) => state, (error) => error);
    await eventually(async () => (await client.server.stats()).pendingRequests === 1, 'the waiting fetch');
    generation = 2;
    assert.equal(await daemon.stop(), 0);
    // The daemon answered it -32003 shutdown: an idempotent read waits for the next daemon.
    await daemon.start();
    let state = await subscription.nextState(10000);
    while (state.status !== 'success') state = await subscription.nextState(10000);
    assert.deepEqual([state.data, state.dataUpdateCount], ['gen 2', 1]);
    assert.equal((await client.query.fetch(['r', 'again'])).data, 'gen 2');
    await client.registerFetcher(['unserved'], async () => 'served by the next daemon');
    assert.equal((await outcome).data, 'served by the next daemon');
    assert.deepEqual([client.reconnects, watcher.reconnects], [1, 1]);
    const stats = await client.server.stats();
    assert.deepEqual([stats.fetchers, stats.subscriptions, stats.connections], [2, 1, 2]);
    await subscription.unsubscribe();
    await Promise.all([client.close(), watcher.close()]);
  });

  test('a killed daemon fails in-flight requests with ConnectionLost', async () => {
    const client = await Client.connect(daemon.socketPath, { reconnect: false });
    const subscription = client.subscribe(['k']);
    await subscription.start();
    const waiting = client.query.fetch(['k']).then(() => 'resolved', (error) => error);
    await client.server.ping();
    await daemon.kill();
    assert.ok((await waiting) instanceof ConnectionLost);
    await assert.rejects(client.server.ping(), ConnectionLost);
    assert.equal((await subscription.nextState(5000)).fetchStatus, 'paused');
    await assert.rejects(subscription.nextState(5000), ConnectionLost);
    await client.close();
  });
});
