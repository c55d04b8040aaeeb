// Lifecycle triggers (focus, online, named events), streaming fetchers, and resilience against
// the real daemon: waiting for a daemon that is starting, and a fetch in flight sent again after
// the daemon was killed and restarted.

import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { Client, ConnectFailed } from '../src/index.js';
import { Daemon, eventually, gate } from '../test-support/daemon.js';

async function until(subscription, check) {
  for (;;) {
    const state = await subscription.nextState(5000);
    if (check(state)) return state;
  }
}

describe('lifecycle triggers and streaming', () => {
  let daemon;
  before(async () => { daemon = await Daemon.start(); });
  after(async () => {
    assert.equal(await daemon.stop(), 0, daemon.logTail());
    await daemon.dispose();
  });

  test('focus, online and named events refetch', async () => {
    const server = await Client.connect(daemon.socketPath);
    const user = await Client.connect(daemon.socketPath);
    let calls = 0;
    try {
      await server.registerFetcher(['trigger'], async () => { calls += 1; return calls; });
      const subscription = user.subscribe(['trigger'], { refetchOn: ['saved'] });
      await until(subscription, (s) => s.data === 1);
      await user.setFocused(false);
      await user.setFocused(true); // stale data: regaining focus refetches
      await until(subscription, (s) => s.data === 2);
      assert.equal(await user.emit('saved'), 1);
      await until(subscription, (s) => s.data === 3);
      assert.equal(await user.emit('nobody-listens'), 0);
      await user.setOnline(false);
      await user.query.prefetch(['trigger']);
      await until(subscription, (s) => s.fetchStatus === 'paused');
      await user.setOnline(true);
      await until(subscription, (s) => s.data === 4 && s.fetchStatus === 'idle');
      await subscription.unsubscribe();
      assert.equal(calls, 4);
    } finally {
      await Promise.all([server.close(), user.close()]);
    }
  });

  test('a fetcher streams progress chunks', async () => {
    const server = await Client.connect(daemon.socketPath);
    const user = await Client.connect(daemon.socketPath);
    const step = gate();
    try {
      await server.registerFetcher(['log'], async ({ progress }) => {
        progress(['line 1']);
        await step.promise;
        progress(['line 1', 'line 2']);
        return ['line 1', 'line 2', 'line 3'];
      });
      const subscription = user.subscribe(['log']);
      const first = await until(subscription, (s) => s.data !== undefined && s.data !== null);
      assert.deepEqual([first.data, first.fetchStatus], [['line 1'], 'fetching']);
      step.open();
      const last = await until(subscription, (s) => s.fetchStatus === 'idle');
      assert.deepEqual([last.data, last.dataUpdateCount], [['line 1', 'line 2', 'line 3'], 3]);
      await subscription.unsubscribe();
    } finally {
      await Promise.all([server.close(), user.close()]);
    }
  });
});

describe('resilience', () => {
  test('connect waits for a daemon that is starting', async () => {
    const daemon = new Daemon();
    await assert.rejects(Client.connect(daemon.socketPath), ConnectFailed);
    const starting = new Promise((done) => setTimeout(done, 300)).then(() => daemon.start());
    try {
      const client = await Client.connect(daemon.socketPath, { connectWaitMs: 10_000 });
      assert.equal(client.connectionState, 'connected');
      await client.server.ping();
      await client.close();
    } finally {
      await starting;
      await daemon.dispose();
    }
  });

  test('a fetch in flight is sent again after the daemon was killed', async () => {
    const daemon = await Daemon.start();
    const options = { backoffMs: [10, 100] };
    const user = await Client.connect(daemon.socketPath, options);
    const server = await Client.connect(daemon.socketPath, options);
    const changes = [];
    try {
      user.onConnectionState((state) => changes.push(state));
      const waiting = user.query.fetch(['late']);
      await eventually(async () => (await server.server.stats()).pendingRequests === 1, 'the fetch to wait');
      await daemon.kill();
      await daemon.start();
      await server.waitConnected();
      await server.registerFetcher(['late'], async () => 'served after the restart');
      const state = await waiting;
      assert.deepEqual([state.data, state.dataUpdateCount], ['served after the restart', 1]);
      assert.equal(user.reconnects, 1);
    } finally {
      await Promise.all([user.close(), server.close()]);
      await daemon.dispose();
    }
    assert.deepEqual(changes, ['reconnecting', 'connected', 'closed']);
  });
});
