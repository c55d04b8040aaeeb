// The mutation cache and cache snapshots against the real daemon: mutation `meta`,
// `mutations.pages` / `mutations.clear`, `cache.dehydrate` / `cache.hydrate`.

import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { Client } from '../src/index.js';
import { Daemon } from '../test-support/daemon.js';

describe('mutation cache and snapshots', () => {
  let daemon;
  before(async () => { daemon = await Daemon.start(); });
  after(async () => {
    assert.equal(await daemon.stop(), 0, daemon.logTail());
    await daemon.dispose();
  });

  test('meta, pages and clear', async () => {
    const client = await Client.connect(daemon.socketPath);
    try {
      await client.registerMutator(['todos'], async ({ variables }) => variables);
      for (const index of [1, 2, 3]) await client.mutation.run(['todos', 'add'], index, { meta: { form: 'add' } });
      const pages = [];
      for await (const page of client.mutations.pages(undefined, { limit: 2 })) pages.push(page);
      assert.deepEqual(pages.map((page) => page.map((m) => m.variables)), [[1, 2], [3]]);
      assert.deepEqual(pages[0].map((m) => m.meta), [{ form: 'add' }, { form: 'add' }]);
      assert.equal(await client.mutations.clear(), 3);
      assert.deepEqual(await client.mutations.list(), []);
    } finally {
      await client.close();
    }
  });

  test('a snapshot moves between daemons', async () => {
    const source = await Client.connect(daemon.socketPath);
    let snapshot;
    try {
      await source.query.set(['user'], { data: { name: 'Ada' } });
      snapshot = await source.cache.dehydrate(undefined, { includePending: true });
    } finally {
      await source.close();
    }
    assert.equal(snapshot.version, 1);
    assert.deepEqual(snapshot.queries.map((entry) => entry.key), [['user']]);
    const target = await Daemon.start();
    const client = await Client.connect(target.socketPath);
    try {
      assert.deepEqual(await client.cache.hydrate(snapshot), { queries: 1, mutations: 0 });
      assert.deepEqual((await client.query.state(['user'])).data, { name: 'Ada' });
      assert.deepEqual(await client.cache.hydrate(snapshot), { queries: 0, mutations: 0 });
    } finally {
      await client.close();
      assert.equal(await target.stop(), 0, target.logTail());
      await target.dispose();
    }
  });
});
