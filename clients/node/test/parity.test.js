// Issue 16 against the real daemon: cancelRefetch on the filter methods, queries.setData,
// query.set with ifVersion (VersionConflict), and counts, once and watched.

import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { Client, InvalidParams, VersionConflict } from '../src/index.js';
import { Daemon, gate } from '../test-support/daemon.js';

describe('TanStack parity (issue 16)', () => {
  let daemon;
  before(async () => { daemon = await Daemon.start(); });
  after(async () => {
    assert.equal(await daemon.stop(), 0, daemon.logTail());
    await daemon.dispose();
  });

  test('cancelRefetch: false joins the fetch in flight', async () => {
    const release = gate();
    const calls = [];
    const server = await Client.connect(daemon.socketPath);
    const client = await Client.connect(daemon.socketPath);
    await server.registerFetcher(['cr'], async ({ key }) => {
      calls.push(key);
      await release.promise;
      return calls.length;
    });
    await client.query.set(['cr'], { data: 0 });
    await client.query.prefetch(['cr']);
    assert.equal(await client.queries.refetch(['cr'], { cancelRefetch: false }), 1);
    assert.equal(await client.queries.invalidate(['cr'], { refetchType: 'all', cancelRefetch: false }), 1);
    assert.equal(await client.queries.reset(['cr', 'none'], { cancelRefetch: false }), 0);
    release.open();
    assert.equal((await client.query.fetch(['cr'], { staleTime: 60000 })).data, 1);
    assert.deepEqual(calls, [['cr']]);
    await assert.rejects(client.queries.refetch(['cr'], { cancelRefetch: 'no' }), InvalidParams);
    await Promise.all([server.close(), client.close()]);
  });

  test('queries.setData and query.set with ifVersion', async () => {
    const client = await Client.connect(daemon.socketPath);
    await client.query.set(['sd', 1], { data: { n: 1 } });
    await client.query.set(['sd', 2], { data: { n: 2 } });
    assert.equal(await client.queries.setData(['sd'], { mergePatch: { done: true } }), 2);
    assert.deepEqual(await client.query.get(['sd', 2]), { n: 2, done: true });
    const created = await client.query.set(['cas'], { data: 1, ifVersion: 0 });
    await assert.rejects(client.query.set(['cas'], { data: 2, ifVersion: 0 }), (error) => {
      assert.ok(error instanceof VersionConflict);
      assert.equal(error.code, -32009);
      assert.deepEqual(error.data, { key: ['cas'], version: created.version });
      return true;
    });
    assert.equal((await client.query.set(['cas'], { data: 3, ifVersion: created.version })).data, 3);
    await client.close();
  });

  test('counts, once and watched', async () => {
    const release = gate();
    const server = await Client.connect(daemon.socketPath);
    const client = await Client.connect(daemon.socketPath);
    await server.registerFetcher(['cnt'], async () => {
      await release.promise;
      return 1;
    });
    assert.equal(await client.queries.count(['cnt']), 0);
    assert.equal(await client.mutations.count({ status: 'pending' }), 0);
    const counts = client.queries.watchCount({ key: ['cnt'], fetchStatus: 'fetching' });
    const seen = [await counts.nextState(5000)];
    await client.query.prefetch(['cnt', 1]);
    seen.push(await counts.nextState(5000));
    release.open();
    seen.push(await counts.nextState(5000));
    await counts.unsubscribe();
    assert.deepEqual(seen, [0, 1, 0]);
    assert.equal(await client.queries.count(['cnt']), 1);
    const mutations = client.mutations.watchCount({ status: 'pending' });
    assert.equal(await mutations.nextState(5000), 0);
    await mutations.unsubscribe();
    await Promise.all([server.close(), client.close()]);
  });
});
