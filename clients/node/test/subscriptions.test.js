// Subscriptions against the real daemon: subscribe then push, setOptions, invalidation by prefix.

import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { Client } from '../src/index.js';
import { Daemon, gate } from '../test-support/daemon.js';

describe('subscriptions', () => {
  let daemon;
  before(async () => { daemon = await Daemon.start(); });
  after(async () => {
    assert.equal(await daemon.stop(), 0, daemon.logTail());
    await daemon.dispose();
  });

  test('subscribe yields the reply state, then pushes; break unsubscribes', async () => {
    const release = gate();
    const server = await Client.connect(daemon.socketPath);
    const reader = await Client.connect(daemon.socketPath);
    await server.registerFetcher(['news'], async () => {
      await release.promise;
      return ['headline'];
    });
    const seen = [];
    for await (const state of reader.subscribe(['news'])) {
      seen.push([state.status, state.fetchStatus, state.data]);
      if (seen.length === 1) release.open();
      else if (seen.length === 2) await server.query.set(['news'], { data: ['breaking'] });
      else break;
    }
    assert.deepEqual(seen, [
      ['pending', 'fetching', undefined],
      ['success', 'idle', ['headline']],
      ['success', 'idle', ['breaking']],
    ]);
    assert.equal((await reader.server.stats()).subscriptions, 0);
    await Promise.all([server.close(), reader.close()]);
  });

  test('push modes over the daemon: patch rebuilt, meta without data, echo false', async () => {
    const key = ['push-modes', 1];
    const writer = await Client.connect(daemon.socketPath);
    const reader = await Client.connect(daemon.socketPath);
    await writer.query.set(key, { data: { a: 1, b: { c: 2 } } });
    const patched = reader.subscribe(key, { push: 'patch' })[Symbol.asyncIterator]();
    const meta = reader.subscribe(key, { push: 'meta' })[Symbol.asyncIterator]();
    const first = (await patched.next()).value;
    const firstMeta = (await meta.next()).value;
    assert.deepEqual(first.data, { a: 1, b: { c: 2 } });
    assert.equal(firstMeta.data, undefined);
    assert.equal(firstMeta.dataVersion, first.dataVersion);

    await writer.query.set(key, { mergePatch: { b: { c: 3 } } });
    const second = (await patched.next()).value;
    const secondMeta = (await meta.next()).value;
    assert.deepEqual(second.data, { a: 1, b: { c: 3 } });
    assert.equal(secondMeta.data, undefined);
    assert.equal(secondMeta.dataVersion, second.dataVersion);
    assert.ok(second.dataVersion > first.dataVersion);
    await patched.return();
    await meta.return();

    const quiet = reader.subscribe(key, { push: 'patch', echo: false })[Symbol.asyncIterator]();
    assert.deepEqual((await quiet.next()).value.data, { a: 1, b: { c: 3 } });
    await reader.query.set(key, { data: { own: true } });
    await writer.query.set(key, { data: { other: true } });
    assert.deepEqual((await quiet.next()).value.data, { other: true });
    await quiet.return();
    await Promise.all([writer.close(), reader.close()]);
  });

  test('setOptions moves the subscription to another key', async () => {
    const client = await Client.connect(daemon.socketPath);
    await client.registerFetcher(['page'], async ({ key }) => `page ${key[1]}`);
    const subscription = client.subscribe(['page', 1], { staleTime: 60000 });
    assert.equal((await subscription.nextState(5000)).fetchStatus, 'fetching');
    assert.equal((await subscription.nextState(5000)).data, 'page 1');
    const moved = await subscription.setOptions({ key: ['page', 2] });
    assert.deepEqual([moved.key, moved.fetchStatus], [['page', 2], 'fetching']);
    assert.deepEqual((await subscription.nextState(5000)).key, ['page', 2]);
    const settled = await subscription.nextState(5000);
    assert.deepEqual([settled.key, settled.data], [['page', 2], 'page 2']);
    const refetched = await subscription.refetch();
    assert.deepEqual([refetched.data, refetched.dataUpdateCount], ['page 2', 2]);
    await subscription.unsubscribe();
    assert.equal((await client.server.stats()).subscriptions, 0);
    await client.close();
  });

  test('invalidate by prefix refetches the active matches only', async () => {
    const counts = {};
    const client = await Client.connect(daemon.socketPath);
    await client.registerFetcher(['inv'], async ({ key }) => {
      counts[key[1]] = (counts[key[1]] ?? 0) + 1;
      return `${key[1]} #${counts[key[1]]}`;
    });
    await client.query.set(['other'], { data: 'untouched' });
    await client.query.fetch(['inv', 'inactive']);
    const subscription = client.subscribe(['inv', 'active']);
    assert.equal((await subscription.nextState(5000)).fetchStatus, 'fetching');
    assert.equal((await subscription.nextState(5000)).data, 'active #1');
    assert.equal(await client.queries.invalidate(['inv']), 2);
    const refetching = await subscription.nextState(5000);
    assert.deepEqual([refetching.isInvalidated, refetching.fetchStatus], [true, 'fetching']);
    const refetched = await subscription.nextState(5000);
    assert.deepEqual([refetched.data, refetched.isInvalidated, refetched.fetchStatus], ['active #2', false, 'idle']);
    const inactive = await client.query.state(['inv', 'inactive']);
    assert.deepEqual([inactive.data, inactive.isInvalidated], ['inactive #1', true]);
    assert.equal((await client.query.state(['other'])).isInvalidated, false);
    assert.deepEqual(counts, { inactive: 1, active: 2 });
    const listed = await client.queries.list({ key: ['inv'] });
    assert.deepEqual(listed.map((s) => [s.key, s.observers]), [[['inv', 'active'], 1], [['inv', 'inactive'], 0]]);
    await subscription.unsubscribe();
    await client.close();
  });
});
