// Issue 14's Node defects, each against the real daemon: close during `for await`, `set`'s
// updatedAt, `signal` on every waiting call, unknown registration options, the line-length
// limit, socket errors named as they are, and one error class per documented code.

import assert from 'node:assert/strict';
import { createServer } from 'node:net';
import { after, before, describe, test } from 'node:test';
import * as queryd from '../src/index.js';
import { Client, ConnectFailed, ConnectionLost, LINE_TOO_LONG, PageResult, RPCError } from '../src/index.js';
import { Daemon, eventually, gate } from '../test-support/daemon.js';

const pending = async (client, count) => (await client.server.stats()).pendingRequests === count;

describe('issue 14 defects (Node)', () => {
  let daemon;
  before(async () => { daemon = await Daemon.start(); });
  after(async () => {
    assert.equal(await daemon.stop(), 0, daemon.logTail());
    await daemon.dispose();
  });

  test('close() during a for-await loop ends the loop normally', async () => {
    const client = await Client.connect(daemon.socketPath);
    await client.query.set(['loop'], { data: 1 });
    const seen = [];
    const loop = (async () => {
      for await (const state of client.subscribe(['loop'])) seen.push(state.data);
      return 'ended';
    })();
    await eventually(async () => seen.length === 1, 'the first state');
    await client.close();
    assert.equal(await loop, 'ended');
    assert.deepEqual(seen, [1]);
  });

  test('query.set honours updatedAt (third argument or options)', async () => {
    const client = await Client.connect(daemon.socketPath);
    try {
      assert.equal((await client.query.set(['dated'], { data: 1 }, 1600000000000)).dataUpdatedAt, 1600000000000);
      const patched = await client.query.set(['dated'], { mergePatch: { a: 1 } }, { updatedAt: 1600000001000 });
      assert.deepEqual([patched.data, patched.dataUpdatedAt], [{ a: 1 }, 1600000001000]);
    } finally {
      await client.close();
    }
  });

  test('signal aborts query.refetch, sub.refetch, mutation.run and page calls', async () => {
    const server = await Client.connect(daemon.socketPath);
    const user = await Client.connect(daemon.socketPath);
    const release = gate();
    let blocking = false;
    try {
      await server.registerFetcher(['slow'], async ({ pageParam }) => {
        if (blocking) await release.promise;
        return pageParam === undefined ? 'data' : new PageResult([pageParam], { nextPageParam: pageParam + 1 });
      });
      let mutating = false;
      await server.registerMutator(['slow'], async () => { mutating = true; return release.promise; });
      await user.query.fetch(['slow', 'q']);
      await user.query.fetch(['slow', 'pages'], { initialPageParam: 0 });
      const subscription = user.subscribe(['slow', 'q']);
      await subscription.nextState(5000);
      blocking = true;
      const waiting = () => pending(server, 1);
      const calls = {
        'query.refetch': [(signal) => user.query.refetch(['slow', 'q'], { signal }), waiting],
        'sub.refetch': [(signal) => subscription.refetch({ signal }), waiting],
        'mutation.run': [(signal) => user.mutation.run(['slow', 'm'], { n: 1 }, { signal }), async () => mutating],
        'query.fetchNextPage': [(signal) => user.query.fetchNextPage(['slow', 'pages'], { signal }), waiting],
      };
      for (const [name, [start, started]] of Object.entries(calls)) {
        const controller = new AbortController();
        const outcome = start(controller.signal).then(() => 'resolved', (error) => error);
        await eventually(started, `${name} to wait in the daemon`);
        controller.abort(new Error(`aborted ${name}`));
        assert.equal((await outcome).message, `aborted ${name}`, name);
        await eventually(() => pending(server, 0), `${name} to be cancelled in the daemon`);
      }
      await subscription.unsubscribe();
    } finally {
      release.open();
      await Promise.all([server.close(), user.close()]);
    }
  });

  test('registerFetcher and registerMutator refuse unknown options', async () => {
    const client = await Client.connect(daemon.socketPath);
    try {
      assert.throws(() => client.registerFetcher(['x'], async () => 1, { staleTime: 1000 }), {
        name: 'TypeError', message: /registerFetcher: unknown option staleTime/,
      });
      assert.throws(() => client.registerMutator(['x'], async () => 1, { retry: 1, exact: true }), {
        name: 'TypeError', message: /registerMutator: unknown option retry /,
      });
      assert.equal((await client.server.stats()).fetchers, 0);
    } finally {
      await client.close();
    }
  });

  test('a line longer than maxLineBytes ends the connection and the read is not re-sent', async () => {
    const writer = await Client.connect(daemon.socketPath);
    const reader = await Client.connect(daemon.socketPath, { maxLineBytes: 2000, backoffMs: [10, 20] });
    try {
      await writer.query.set(['big'], { data: 'x'.repeat(5000) });
      await assert.rejects(reader.query.get(['big']), (error) => {
        assert.ok(error instanceof ConnectionLost);
        assert.equal(error.code, LINE_TOO_LONG);
        assert.match(error.message, /longer than the limit \(2000 bytes\)/);
        return true;
      });
      await reader.server.ping();
      assert.equal(reader.reconnects, 1);
    } finally {
      await Promise.all([writer.close(), reader.close()]);
    }
  });
});

describe('socket errors are named', () => {
  test('no socket file: ENOENT; nobody listening: ECONNREFUSED', async () => {
    const missing = `/tmp/qd-js-missing-${process.pid}.sock`;
    await assert.rejects(Client.connect(missing), (error) => {
      assert.ok(error instanceof ConnectFailed);
      assert.equal(error.code, 'ENOENT');
      assert.match(error.message, new RegExp(`${missing}.*ENOENT`));
      return true;
    });
    const daemon = await Daemon.start();
    await daemon.kill(); // SIGKILL leaves the socket file with nobody listening
    await assert.rejects(Client.connect(daemon.socketPath), { name: 'ConnectFailed', code: 'ECONNREFUSED' });
    await daemon.dispose();
  });

  test('a peer resetting the connection is reported with the error and the path', async () => {
    const path = `/tmp/qd-js-reset-${process.pid}.sock`;
    const server = createServer((socket) => {
      let greeted = false;
      socket.on('data', (chunk) => {
        if (greeted) return socket.destroy();
        greeted = true;
        const { id } = JSON.parse(chunk.toString().split('\n')[0]);
        socket.write(`${JSON.stringify({ jsonrpc: '2.0', id, result: { protocol: 2 } })}\n`);
      });
    });
    await new Promise((listening) => server.listen(path, listening));
    try {
      const client = await Client.connect(path, { reconnect: false });
      const error = await client.query.set(['x'], { data: 'y'.repeat(8_000_000) }).catch((caught) => caught);
      assert.ok(error instanceof ConnectionLost);
      assert.ok(['ECONNRESET', 'EPIPE'].includes(error.code), error.message);
      assert.match(error.message, new RegExp(`${path} failed: (ECONNRESET|EPIPE)`));
      await client.close();
    } finally {
      server.close();
    }
  });
});

test('every documented code has one error class with the shared name', () => {
  const expected = {
    '-32700': 'ParseError', '-32600': 'InvalidRequest', '-32601': 'MethodNotFound', '-32602': 'InvalidParams',
    '-32603': 'InternalError', '-32001': 'FetchFailed', '-32002': 'NoFetcher', '-32003': 'CancelledByServer',
    '-32004': 'AttemptTimeout', '-32005': 'UnknownID', '-32006': 'LimitExceeded', '-32007': 'MutationFailed',
    '-32008': 'PermissionDenied', '-32800': 'RequestCancelled',
  };
  for (const [code, name] of Object.entries(expected)) {
    const error = RPCError.fromWire({ code: Number(code), message: 'm' }, 'x.y');
    assert.equal(error.name, name);
    assert.equal(error.constructor, queryd[name]);
  }
  assert.equal(queryd.TooManyConnections, queryd.LimitExceeded);
  assert.equal(RPCError.fromWire({ code: -1, message: 'm' }).constructor, RPCError);
});
