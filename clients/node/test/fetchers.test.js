// Fetchers against the real daemon: registration and serving, dedupe seen from two clients,
// error propagation and cancellation in both directions.

import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import {
  Client, FetchFailed, HandlerError, InvalidParams, MethodNotFound, UnknownID,
} from '../src/index.js';
import { Daemon, eventually, gate } from '../test-support/daemon.js';

describe('fetchers', () => {
  let daemon;
  before(async () => { daemon = await Daemon.start(); });
  after(async () => {
    assert.equal(await daemon.stop(), 0, daemon.logTail());
    await daemon.dispose();
  });

  test('registration and serving', async () => {
    const calls = [];
    const server = await Client.connect(daemon.socketPath);
    const user = await Client.connect(daemon.socketPath);
    const registration = await server.registerFetcher(['todos'], async ({ key, meta, attempt }) => {
      calls.push([key, meta, attempt]);
      return { id: key[1], title: `todo ${key[1]}` };
    });
    assert.ok(Number.isInteger(registration.id) && registration.id > 0);
    const state = await user.query.fetch(['todos', 7], { meta: { tenant: 'acme' } });
    assert.deepEqual([state.status, state.fetchStatus, state.data], ['success', 'idle', { id: 7, title: 'todo 7' }]);
    assert.equal(state.dataUpdatedAt, 1700000000000);
    assert.deepEqual(calls, [[['todos', 7], { tenant: 'acme' }, 1]]);
    assert.deepEqual(await user.query.get(['todos', 7]), { id: 7, title: 'todo 7' });
    assert.equal(await user.query.get(['todos', 8]), undefined);
    assert.deepEqual((await user.query.ensure(['todos', 7])).data, { id: 7, title: 'todo 7' });
    assert.equal(calls.length, 1);
    const patched = await user.query.set(['todos', 7], { mergePatch: { title: 'renamed' } });
    assert.deepEqual([patched.data, patched.dataUpdateCount], [{ id: 7, title: 'renamed' }, 2]);
    assert.equal(await user.query.state(['todos', 'absent']), null);
    await registration.unregister();
    assert.equal((await user.server.stats()).fetchers, 0);
    await Promise.all([server.close(), user.close()]);
  });

  test('dedupe seen from two clients', async () => {
    const started = gate();
    const release = gate();
    const calls = [];
    const server = await Client.connect(daemon.socketPath);
    const first = await Client.connect(daemon.socketPath);
    const second = await Client.connect(daemon.socketPath);
    await server.registerFetcher(['dedupe'], async ({ key }) => {
      calls.push(key);
      started.open();
      await release.promise;
      return { n: 42 };
    });
    const one = first.query.fetch(['dedupe']);
    await started.promise;
    const two = second.query.fetch(['dedupe']);
    await eventually(async () => (await server.server.stats()).pendingRequests === 2, 'two waiting fetches');
    release.open();
    const [a, b] = await Promise.all([one, two]);
    assert.deepEqual(calls, [['dedupe']]);
    assert.deepEqual(a, b);
    assert.deepEqual(a.data, { n: 42 });
    await Promise.all([server.close(), first.close(), second.close()]);
  });

  test('errors carry code, message, data and method', async () => {
    const client = await Client.connect(daemon.socketPath);
    await client.registerFetcher(['fail'], async ({ key }) => {
      if (key[1] === 'handler') throw new HandlerError('Not found', { code: 404, data: { id: 7 } });
      throw new TypeError('bad input');
    });
    await assert.rejects(client.query.fetch(['fail', 'handler']), (error) => {
      assert.ok(error instanceof FetchFailed);
      assert.deepEqual([error.code, error.rpcMessage, error.method], [-32001, 'Fetch failed', 'query.fetch']);
      assert.deepEqual(error.data, { code: 404, message: 'Not found', data: { id: 7 } });
      return true;
    });
    await assert.rejects(client.query.fetch(['fail', 'exception']), (error) => {
      assert.deepEqual(error.data, { code: -32000, message: 'bad input', data: { type: 'TypeError' } });
      return true;
    });
    await assert.rejects(client.query.fetch(['fail', 'x'], { staleTime: '1s' }), (error) => {
      assert.ok(error instanceof InvalidParams);
      assert.equal(error.data.field, 'options.staleTime');
      return true;
    });
    await assert.rejects(client.call('query.unsubscribe', { subscription: 999 }), (error) => {
      assert.ok(error instanceof UnknownID);
      assert.deepEqual(error.data, { subscription: 999 });
      return true;
    });
    await assert.rejects(client.call('no.such.method'), MethodNotFound);
    await client.close();
  });

  test('aborting a call sends $/cancelRequest', async () => {
    const client = await Client.connect(daemon.socketPath);
    const observer = await Client.connect(daemon.socketPath);
    const pending = async (n) => (await observer.server.stats()).pendingRequests === n;
    const controller = new AbortController();
    const waiting = client.query.fetch(['nobody', 'serves'], {}, { signal: controller.signal });
    await eventually(() => pending(1), 'the waiting fetch');
    controller.abort();
    await assert.rejects(waiting, { name: 'AbortError' });
    await eventually(() => pending(0), 'the daemon to drop the request');
    await client.queries.remove(['nobody']);
    await Promise.all([client.close(), observer.close()]);
  });

  test('a cancellable fetcher sees its signal abort', async () => {
    const client = await Client.connect(daemon.socketPath);
    const aborted = gate();
    const started = gate();
    await client.registerFetcher(['hang'], ({ signal }) => {
      started.open();
      return new Promise((_, reject) => signal.addEventListener('abort', () => {
        aborted.open();
        reject(signal.reason);
      }));
    }, { cancellable: true });
    await client.query.prefetch(['hang']);
    await started.promise;
    await client.query.cancel(['hang']);
    await aborted.promise;
    const state = await client.query.state(['hang']);
    assert.deepEqual([state.status, state.fetchStatus], ['pending', 'idle']);
    await client.close();
  });

  test('a fetcher registered after a waiting subscriber serves it', async () => {
    const server = await Client.connect(daemon.socketPath);
    const reader = await Client.connect(daemon.socketPath);
    const subscription = reader.subscribe(['late']);
    assert.equal((await subscription.nextState(5000)).fetchStatus, 'paused');
    await server.registerFetcher(['late'], async () => 'served');
    let state = await subscription.nextState(5000);
    while (state.fetchStatus !== 'idle') state = await subscription.nextState(5000);
    assert.deepEqual([state.status, state.data], ['success', 'served']);
    await subscription.unsubscribe();
    await Promise.all([server.close(), reader.close()]);
  });

  test('capabilities come from server.hello', async () => {
    const client = await Client.connect(daemon.socketPath);
    assert.equal(client.serverInfo.protocol, 2);
    const state = await client.query.set(['epoch-check'], { data: 1 });
    assert.ok(client.epoch && client.serverInfo.node);
    assert.equal(state.epoch, client.epoch);
    assert.ok(client.capabilities.has('query.fetch') && client.capabilities.has('feature:manual-clock'));
    await client.close();
  });

  test('retry shapes, retryOnMount and networkMode reach the daemon', async () => {
    const attempts = [];
    const server = await Client.connect(daemon.socketPath);
    const user = await Client.connect(daemon.socketPath);
    await server.registerFetcher(['flaky'], async ({ attempt }) => {
      attempts.push(attempt);
      throw new HandlerError(attempt === 1 ? 'busy' : 'bug', { code: attempt === 1 ? 503 : 500 });
    });
    const call = user.query.fetch(['flaky'], { retry: [503], retryDelay: { base: 10, factor: 2, max: 10 } });
    await eventually(async () => (await user.query.state(['flaky']))?.failureCount === 1, 'the first failure');
    await user.clock.advance(10);
    await assert.rejects(call, (error) => {
      assert.deepEqual(error.data, { code: 500, message: 'bug' });
      return true;
    });
    assert.deepEqual(attempts, [1, 2]);
    await assert.rejects(user.query.fetch(['flaky'], { retryOnMount: 'no' }), InvalidParams);
    await user.setOnline(false);
    await server.registerFetcher(['local'], async () => 'from disk');
    const local = await user.query.fetch(['local'], { networkMode: 'always' });
    assert.deepEqual([local.data, local.fetchStatus], ['from disk', 'idle']);
    await user.setOnline(true);
    await server.close();
    await user.close();
  });

  test('queries.setDefaults, queries.getDefaults and mutations.setDefaults', async () => {
    const server = await Client.connect(daemon.socketPath);
    const user = await Client.connect(daemon.socketPath);
    const attempts = [];
    await server.registerFetcher(['defaulted'], async ({ attempt }) => {
      attempts.push(attempt);
      throw new HandlerError('down', { code: 503 });
    });
    await user.queries.setDefaults(['defaulted'], { retry: 1, retryDelay: 10 });
    await user.mutations.setDefaults(['defaulted'], { retry: 2 });
    assert.deepEqual(await user.queries.getDefaults(['defaulted', 1]), {
      queries: [{ key: ['defaulted'], options: { retry: 1, retryDelay: 10 } }],
      mutations: [{ key: ['defaulted'], options: { retry: 2 } }],
    });
    const call = user.query.fetch(['defaulted', 1]);
    await eventually(async () => (await user.query.state(['defaulted', 1]))?.failureCount === 1, 'the first failure');
    await user.clock.advance(10);
    await assert.rejects(call, FetchFailed);
    assert.deepEqual(attempts, [1, 2]);
    await user.queries.setDefaults(['defaulted'], {});
    await user.mutations.setDefaults(['defaulted'], {});
    assert.deepEqual(await user.queries.getDefaults(), { queries: [], mutations: [] });
    await server.close();
    await user.close();
  });
});
