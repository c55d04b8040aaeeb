// One socket to the daemon: framing, request ids, and the one reader that routes every message.
//
// Each line the daemon writes is one JSON-RPC message (or a batch array). Replies settle the
// waiting request's promise; notifications and server-to-client requests (`fetch`, `mutate`) go
// to the callbacks the owner gave. Aborting a request's signal sends `$/cancelRequest`.

import { createConnection } from 'node:net';
import { ConnectFailed, ConnectionLost, RPCError } from './errors.js';

/** A JSON-RPC peer over one Unix socket. */
export class Connection {
  #socket;
  #nextId = 1;
  #waiting = new Map();
  #buffer = '';
  #closed = false;
  #closedPromise;
  #resolveClosed;
  #handlers;

  constructor(socket, handlers = {}) {
    this.#socket = socket;
    this.#handlers = handlers;
    this.#closedPromise = new Promise((resolve) => { this.#resolveClosed = resolve; });
    socket.setEncoding('utf8');
    socket.on('data', (chunk) => this.#receive(chunk));
    socket.on('error', () => {});
    socket.on('close', () => this.#finish(new ConnectionLost('the daemon closed the connection')));
  }

  /** Connects to the Unix socket at `path`; rejects with ConnectFailed. */
  static open(path, handlers) {
    return new Promise((resolve, reject) => {
      const socket = createConnection({ path });
      const failed = (error) => reject(new ConnectFailed(path, error));
      socket.once('error', failed);
      socket.once('connect', () => {
        socket.off('error', failed);
        resolve(new Connection(socket, handlers));
      });
    });
  }

  /** Whether the connection has ended. */
  get isClosed() { return this.#closed; }

  /** Resolves once the connection has ended. */
  waitClosed() { return this.#closedPromise; }

  /**
   * Sends a request and resolves with its result; rejects with an RPCError or ConnectionLost.
   * `onResult` runs as soon as the reply is read, before any later line is handled (to bind ids);
   * aborting `signal` sends `$/cancelRequest` and rejects with the signal's reason.
   */
  request(method, params, { onResult, signal } = {}) {
    if (this.#closed) return Promise.reject(new ConnectionLost(`${method}: the connection is closed`));
    if (signal?.aborted) return Promise.reject(signal.reason);
    const id = this.#nextId++;
    return new Promise((resolve, reject) => {
      const abort = () => {
        if (this.#waiting.delete(id)) this.notify('$/cancelRequest', { id });
        reject(signal.reason);
      };
      signal?.addEventListener('abort', abort, { once: true });
      const settle = (fn) => (value) => { signal?.removeEventListener('abort', abort); fn(value); };
      this.#waiting.set(id, { method, onResult, resolve: settle(resolve), reject: settle(reject) });
      const message = { jsonrpc: '2.0', id, method };
      if (params !== undefined) message.params = params;
      this.#write(message);
    });
  }

  /** Sends a notification; dropped when the connection is closed. */
  notify(method, params) {
    const message = { jsonrpc: '2.0', method };
    if (params !== undefined) message.params = params;
    this.#write(message);
  }

  /** Answers a server-to-client request with a result. */
  respond(id, result) { this.#write({ jsonrpc: '2.0', id, result }); }

  /** Answers a server-to-client request with an error object. */
  respondError(id, error) { this.#write({ jsonrpc: '2.0', id, error }); }

  /** Closes the socket; waiting requests reject with ConnectionLost. */
  close() {
    this.#finish(new ConnectionLost('the connection was closed by the client'));
    return this.#closedPromise;
  }

  #write(message) {
    if (!this.#closed) this.#socket.write(`${JSON.stringify(message)}\n`);
  }

  #receive(chunk) {
    this.#buffer += chunk;
    let newline;
    while ((newline = this.#buffer.indexOf('\n')) >= 0) {
      const line = this.#buffer.slice(0, newline);
      this.#buffer = this.#buffer.slice(newline + 1);
      if (this.#closed) return;
      if (line.trim() !== '') this.#dispatchLine(line);
    }
  }

  #dispatchLine(line) {
    let message;
    try {
      message = JSON.parse(line);
    } catch {
      return;
    }
    for (const item of Array.isArray(message) ? message : [message]) {
      if (item !== null && typeof item === 'object') this.#dispatch(item);
    }
  }

  #dispatch(message) {
    if (typeof message.method === 'string') {
      if ('id' in message) {
        if (this.#handlers.onRequest) this.#handlers.onRequest(this, message.id, message.method, message.params);
        else this.respondError(message.id, { code: -32601, message: 'Method not found' });
      } else {
        this.#handlers.onNotification?.(this, message.method, message.params);
      }
      return;
    }
    const entry = this.#waiting.get(message.id);
    if (entry === undefined) return;
    this.#waiting.delete(message.id);
    if ('error' in message) {
      entry.reject(RPCError.fromWire(message.error, entry.method));
      return;
    }
    entry.onResult?.(message.result);
    entry.resolve(message.result);
  }

  #finish(error) {
    if (this.#closed) return;
    this.#closed = true;
    const waiting = [...this.#waiting.values()];
    this.#waiting.clear();
    for (const entry of waiting) entry.reject(new ConnectionLost(`${entry.method}: ${error.message}`));
    this.#socket.destroy();
    this.#resolveClosed();
    this.#handlers.onClose?.(this);
  }
}
