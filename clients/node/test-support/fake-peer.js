// A scripted stand-in for the daemon, for the cases the real daemon cannot produce on demand: a
// protocol-1 or protocol-2 hello, unknown members and messages, patch pushes with a chosen base,
// `$/closing`, paged `queries.list`. Each accepted connection runs the test's `script(peer)`.

import { randomBytes } from 'node:crypto';
import { rmSync } from 'node:fs';
import { createServer } from 'node:net';

export const HELLO_V2 = {
  server: 'queryd', version: '9.9.9', protocol: 2, capabilities: ['query.get', 'option:push'],
  node: 'n1', epoch: 'e1', futureMember: { ignored: true },
};

/** One accepted connection: read the client's messages, write lines back. */
export class PeerConnection {
  #socket;
  #lines = [];
  #waiters = [];
  #buffer = '';
  #ended = false;

  constructor(socket) {
    this.#socket = socket;
    socket.setEncoding('utf8');
    socket.on('data', (chunk) => {
      this.#buffer += chunk;
      let newline;
      while ((newline = this.#buffer.indexOf('\n')) >= 0) {
        this.#put(JSON.parse(this.#buffer.slice(0, newline)));
        this.#buffer = this.#buffer.slice(newline + 1);
      }
    });
    socket.on('close', () => { this.#ended = true; this.#put(null); });
    socket.on('error', () => {});
  }

  #put(message) {
    const waiter = this.#waiters.shift();
    if (waiter) waiter(message);
    else this.#lines.push(message);
  }

  /** The next message from the client; null once it closed. */
  recv() {
    if (this.#lines.length > 0) return Promise.resolve(this.#lines.shift());
    if (this.#ended) return Promise.resolve(null);
    return new Promise((resolve) => this.#waiters.push(resolve));
  }

  /** The next request, which must be `method`. */
  async expect(method) {
    const message = await this.recv();
    if (message?.method !== method) throw new Error(`expected ${method}, got ${JSON.stringify(message)}`);
    return message;
  }

  send(message) { if (!this.#ended) this.#socket.write(`${JSON.stringify({ jsonrpc: '2.0', ...message })}\n`); }

  reply(request, result) { this.send({ id: request.id, result }); }

  error(request, code, message, data) { this.send({ id: request.id, error: { code, message, data } }); }

  /** Answers the client's `server.hello` (protocol 2 by default); resolves with the request. */
  async hello(result = HELLO_V2) {
    const request = await this.expect('server.hello');
    this.reply(request, result);
    return request;
  }

  /** Answers every further request with `{}` until the client goes away. */
  async idle() {
    for (let message = await this.recv(); message !== null; message = await this.recv()) {
      if ('id' in message && 'method' in message) this.reply(message, {});
    }
  }

  close() { this.#socket.destroy(); }
}

/** A Unix socket server running `script` for each connection; a script's failure fails `stop()`. */
export class FakePeer {
  constructor(script) {
    this.script = script;
    this.path = `/tmp/qd-js-fake-${process.pid}-${randomBytes(4).toString('hex')}.sock`;
    this.connections = 0;
    this.failures = [];
    this.peers = [];
    this.server = createServer((socket) => {
      this.connections += 1;
      const peer = new PeerConnection(socket);
      this.peers.push(peer);
      Promise.resolve(this.script(peer)).catch((error) => this.failures.push(error)).finally(() => peer.close());
    });
  }

  static async start(script) {
    const fake = new FakePeer(script);
    await new Promise((listening) => fake.server.listen(fake.path, listening));
    return fake;
  }

  async stop() {
    for (const peer of this.peers) peer.close();
    await new Promise((closed) => this.server.close(closed));
    rmSync(this.path, { force: true });
    if (this.failures.length > 0) throw this.failures[0];
  }
}
