// `client.cache.watch()` against the real daemon: the snapshot, then the whole cache's events in
// order, narrowed by key, until unsubscribed.

import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { Client } from '../src/index.js';
import { Daemon } from '../test-support/daemon.js';

const describeEvents = (events) => events.map((event) => [event.type, (event.state ?? event).key]);

describe('cache.watch', () => {
  let daemon;
  before(async () => { daemon = await Daemon.start(); });
  after(async () => {
    assert.equal(await daemon.stop(), 0, daemon.logTail());
    await daemon.dispose();
  });

  test('the snapshot, then events in order', async () => {
    const watcher = await Client.connect(daemon.socketPath);
    const writer = await Client.connect(daemon.socketPath);
    try {
      await writer.query.set(['before'], { data: 1 });
      const watch = watcher.cache.watch(undefined, { data: true });
      const snapshot = await watch.nextState(5000);
      assert.deepEqual(snapshot.queries.map((query) => query.key), [['before']]);
      assert.equal(snapshot.queries[0].data, 1);
      await writer.query.set(['a'], { data: 1 });
      assert.deepEqual(describeEvents(await watch.nextState(5000)), [['query.added', ['a']]]);
      await writer.queries.remove(['a']);
      assert.deepEqual(describeEvents(await watch.nextState(5000)), [['query.removed', ['a']]]);
      await watch.unsubscribe();
    } finally {
      await watcher.close();
      await writer.close();
    }
  });

  test('a key narrows the queries', async () => {
    const watcher = await Client.connect(daemon.socketPath);
    const writer = await Client.connect(daemon.socketPath);
    try {
      const watch = watcher.cache.watch(['t']);
      assert.deepEqual((await watch.nextState(5000)).queries, []);
      await writer.query.set(['u'], { data: 1 });
      await writer.query.set(['t', 1], { data: 2 });
      const events = await watch.nextState(5000);
      assert.deepEqual(describeEvents(events), [['query.added', ['t', 1]]]);
      assert.equal('data' in events[0].state, false);
      await watch.unsubscribe();
    } finally {
      await watcher.close();
      await writer.close();
    }
  });
});
