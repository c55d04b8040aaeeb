// One socket to the daemon: framing, request ids, and the one reader that routes every message.
//
// Each line the daemon writes is one JSON-RPC message (or a batch array); a line longer than
// `maxLineBytes` ends the connection, as in the Python and Swift clients. Replies settle the
// waiting request's promise; notifications and server-to-client requests (`fetch`, `mutate`) go
// to the callbacks the owner gave. Aborting a request's signal sends `$/cancelRequest`. How the
// connection ended is kept in `closeReason`: the socket error (ECONNRESET, EPIPE, ... with the
// path), the daemon's `$/closing` notice (protocol 2), or an orderly close.

import { createConnection } from 'node:net';
import { ConnectFailed, ConnectionLost, RPCError } from './errors.js';

/** The longest line accepted from the daemon by default (its own default limit is 16 MiB). */
export const LINE_LIMIT = 64 * 1024 * 1024;
/** The `code` of the ConnectionLost raised when a line is over the limit (such a call is not re-sent). */
export const LINE_TOO_LONG = 'LINE_TOO_LONG';

/** A JSON-RPC peer over one Unix socket. */
export class Connection {
  #socket;
  #path;
  #maxLineBytes;
  #nextId = 1;
  #waiting = new Map();
  #pending = [];       // the Buffers of a line not complete yet
  #pendingBytes = 0;
  #closed = false;
  #socketError = null;
  #closingNotice = null;
  #closedPromise;
  #resolveClosed;
  #handlers;

  constructor(socket, handlers = {}, { path = '', maxLineBytes = LINE_LIMIT } = {}) {
    this.#socket = socket;
    this.#handlers = handlers;
    this.#path = path;
    this.#maxLineBytes = maxLineBytes;
    /** Why the connection ended (set once it has). */
    this.closeReason = null;
    this.#closedPromise = new Promise((resolve) => { this.#resolveClosed = resolve; });
    socket.on('data', (chunk) => this.#receive(chunk));
    socket.on('error', (error) => { this.#socketError ??= error; });
    socket.on('close', () => this.#finish(this.#lossFromPeer()));
  }

  /** Connects to the Unix socket at `path`; rejects with ConnectFailed (its `code` says why). */
  static open(path, handlers, options = {}) {
    return new Promise((resolve, reject) => {
      const socket = createConnection({ path });
      const failed = (error) => reject(new ConnectFailed(path, error));
      socket.once('error', failed);
      socket.once('connect', () => {
        socket.off('error', failed);
        resolve(new Connection(socket, handlers, { ...options, path }));
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
    if (this.#closed) {
      return Promise.reject(new ConnectionLost(`${method}: the connection is closed (${this.closeReason})`));
    }
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

  #lossFromPeer() {
    if (this.#closingNotice !== null) return new ConnectionLost(`the daemon closed the connection: ${this.#closingNotice}`);
    const error = this.#socketError;
    if (error === null) return new ConnectionLost('the daemon closed the connection');
    return new ConnectionLost(`the connection to ${this.#path} failed: ${error.code ?? error.message}`, {
      code: error.code, cause: error,
    });
  }

  #receive(chunk) {
    let start = 0;
    let newline;
    while (!this.#closed && (newline = chunk.indexOf(10, start)) >= 0) {
      const part = chunk.subarray(start, newline);
      start = newline + 1;
      if (!this.#fits(part.length)) return;
      const bytes = this.#pending.length === 0 ? part : Buffer.concat([...this.#pending, part]);
      this.#pending = [];
      this.#pendingBytes = 0;
      const line = bytes.toString('utf8');
      if (line.trim() !== '') this.#dispatchLine(line);
    }
    if (this.#closed || start === chunk.length) return;
    const rest = chunk.subarray(start);
    if (!this.#fits(rest.length)) return;
    this.#pending.push(rest);
    this.#pendingBytes += rest.length;
  }

  // Whether `more` bytes still fit the line being read; ends the connection when they do not.
  #fits(more) {
    if (this.#pendingBytes + more <= this.#maxLineBytes) return true;
    const message = `a line from the daemon is longer than the limit (${this.#maxLineBytes} bytes)`;
    this.#finish(new ConnectionLost(message, { code: LINE_TOO_LONG }));
    return false;
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
        else this.respondError(message.id, { code: -32601, message: 'Method not found', data: { method: message.method } });
      } else if (message.method === '$/closing') {
        this.#closingNotice = closingText(message.params);
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
    this.closeReason = error.message;
    const waiting = [...this.#waiting.values()];
    this.#waiting.clear();
    for (const entry of waiting) {
      entry.reject(new ConnectionLost(`${entry.method}: ${error.message}`, { code: error.code, cause: error.cause }));
    }
    this.#socket.destroy();
    this.#resolveClosed();
    this.#handlers.onClose?.(this);
  }
}

// `$/closing {reason, limit}` as one phrase.
function closingText(params) {
  const reason = typeof params?.reason === 'string' ? params.reason : 'closing';
  return typeof params?.limit === 'string' ? `${reason} (limit ${params.limit})` : reason;
}
