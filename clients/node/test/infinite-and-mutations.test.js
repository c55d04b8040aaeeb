// Infinite queries (pages) and mutations against the real daemon (wire: notes/wire-next.md).

import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { Client, HandlerError, MutationFailed, PageResult } from '../src/index.js';
import { Daemon } from '../test-support/daemon.js';

describe('infinite queries and mutations', () => {
  let daemon;
  before(async () => { daemon = await Daemon.start(); });
  after(async () => {
    assert.equal(await daemon.stop(), 0, daemon.logTail());
    await daemon.dispose();
  });

  test('pages forward and backward', async () => {
    const calls = [];
    const client = await Client.connect(daemon.socketPath);
    try {
      await client.registerFetcher(['feed'], async ({ pageParam, direction }) => {
        calls.push([pageParam, direction]);
        return new PageResult([`item ${pageParam}`], {
          nextPageParam: pageParam < 2 ? pageParam + 1 : null,
          previousPageParam: pageParam > 0 ? pageParam - 1 : null,
        });
      });
      const first = await client.query.fetch(['feed'], { initialPageParam: 1 });
      assert.deepEqual(first.data, { pages: [['item 1']], pageParams: [1] });
      assert.deepEqual([first.hasNextPage, first.hasPreviousPage], [true, true]);
      const second = await client.query.fetchNextPage(['feed']);
      assert.deepEqual(second.data, { pages: [['item 1'], ['item 2']], pageParams: [1, 2] });
      assert.equal(second.hasNextPage, false);
      const third = await client.query.fetchPreviousPage(['feed']);
      assert.deepEqual([third.data.pageParams, third.hasPreviousPage], [[0, 1, 2], false]);
      assert.deepEqual(calls, [[1, 'forward'], [2, 'forward'], [0, 'backward']]);
    } finally {
      await client.close();
    }
  });

  test('an infinite subscription fetches the next page with maxPages', async () => {
    const client = await Client.connect(daemon.socketPath);
    try {
      await client.registerFetcher(['scroll'], async ({ pageParam }) =>
        new PageResult(pageParam * 10, { nextPageParam: pageParam + 1 }));
      const subscription = client.subscribe(['scroll'], { infinite: { initialPageParam: 0, maxPages: 2 } });
      while ((await subscription.nextState(5000)).fetchStatus !== 'idle');
      await subscription.fetchNextPage();
      const state = await subscription.fetchNextPage();
      assert.deepEqual(state.data, { pages: [10, 20], pageParams: [1, 2] });
      await subscription.unsubscribe();
    } finally {
      await client.close();
    }
  });

  test('a mutation runs, invalidates, and reports failure', async () => {
    const received = [];
    const server = await Client.connect(daemon.socketPath);
    const user = await Client.connect(daemon.socketPath);
    try {
      await server.registerMutator(['todos'], async ({ key, variables }) => {
        received.push([key, variables]);
        if (variables.title === '') throw new HandlerError('title required', { code: 422, data: { field: 'title' } });
        return { id: 1, ...variables };
      });
      await user.query.set(['todos', 'list'], { data: [] });
      const data = await user.mutation.run(['todos', 'add'], { title: 'milk' }, { invalidate: [{ key: ['todos', 'list'] }] });
      assert.deepEqual(data, { id: 1, title: 'milk' });
      assert.deepEqual(received, [[['todos', 'add'], { title: 'milk' }]]);
      assert.equal((await user.query.state(['todos', 'list'])).isInvalidated, true);
      await assert.rejects(user.mutation.run(['todos', 'add'], { title: '' }), (error) => {
        assert.ok(error instanceof MutationFailed);
        assert.deepEqual([error.code, error.method], [-32007, 'mutation.run']);
        assert.deepEqual(error.data, { code: 422, message: 'title required', data: { field: 'title' } });
        return true;
      });
      const listed = await user.mutations.list();
      assert.deepEqual(listed.slice(-2).map((m) => m.status), ['success', 'error']);
    } finally {
      await Promise.all([server.close(), user.close()]);
    }
  });
});
