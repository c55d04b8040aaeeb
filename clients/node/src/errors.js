// The errors of the client: one hierarchy rooted at QuerydError.
//
// Two branches: QuerydConnectionError (cannot connect, connection lost, client closed) and RPCError
// (the daemon answered with an error object; subclasses name queryd's codes). HandlerError is what a
// fetcher or mutator throws to answer with a chosen error object.

/** Base class of every error this package throws. */
export class QuerydError extends Error {
  constructor(message, options) {
    super(message, options);
    this.name = new.target.name;
  }
}

/** The connection to the daemon is not usable. */
export class QuerydConnectionError extends QuerydError {}

/**
 * The socket could not be connected: `code` is the system error (`ENOENT`: no socket file,
 * `ECONNREFUSED`: nobody listens, `EACCES`: permission), `path` the socket path.
 */
export class ConnectFailed extends QuerydConnectionError {
  constructor(path, cause) {
    super(`cannot connect to queryd at ${path}: ${cause.message}`, { cause });
    this.path = path;
    this.code = cause.code;
  }
}

/**
 * The connection closed while a request was waiting for its reply. `code` is the socket error
 * (`EPIPE`, `ECONNRESET`, ...) when one ended it, undefined for an orderly close.
 */
export class ConnectionLost extends QuerydConnectionError {
  constructor(message, { code, cause } = {}) {
    super(message, cause === undefined ? undefined : { cause });
    this.code = code;
  }
}

/** The client was closed by its owner. */
export class ClientClosed extends QuerydConnectionError {}

/** The daemon answered a request with an error object: `code`, `message` (the wire's), `data`, `method`. */
export class RPCError extends QuerydError {
  constructor(code, message, data, method) {
    super(`${method ? `${method}: ` : ''}${message} (${code})${data === undefined ? '' : ` ${JSON.stringify(data)}`}`);
    this.code = code;
    this.rpcMessage = message;
    this.data = data;
    this.method = method;
  }

  /** The most specific subclass for a wire error object. */
  static fromWire(error, method) {
    if (error === null || typeof error !== 'object') return new InternalError(-32603, 'malformed error object', error, method);
    const code = Number.isInteger(error.code) ? error.code : -32603;
    const Kind = BY_CODE.get(code) ?? RPCError;
    return new Kind(code, typeof error.message === 'string' ? error.message : '', error.data, method);
  }

  /** This error as a JSON-RPC error object. */
  toWire() {
    return errorObject(this.code, this.rpcMessage, this.data);
  }
}

/** -32700: the daemon could not parse a line. */
export class ParseError extends RPCError {}
/** -32600: not a valid request. */
export class InvalidRequest extends RPCError {}
/** -32601: the daemon does not serve this method (or its flag is off). */
export class MethodNotFound extends RPCError {}
/** -32602: a parameter is missing, malformed or unknown; `data.field` names it. */
export class InvalidParams extends RPCError {}
/** -32603: the daemon failed internally (or sent a malformed error object). */
export class InternalError extends RPCError {}
/** -32001: the fetch failed after its retries; `data` is the fetcher's last error object. */
export class FetchFailed extends RPCError {}
/** -32002: the call's timeout expired while no fetcher served the key. */
export class NoFetcher extends RPCError {}
/** -32003: cancelled, reset, removed, or the daemon is shutting down (`data.reason`). */
export class CancelledByServer extends RPCError {}
/** -32004: a fetch or mutate attempt ran longer than its timeout. */
export class AttemptTimeout extends RPCError {}
/** -32005: an unknown subscription, fetcher or mutator id. */
export class UnknownID extends RPCError {}
/** -32006: a limit was reached; `data.limit` names it (`max-connections`, `max-outbound-bytes`, ...). */
export class LimitExceeded extends RPCError {}
/** @deprecated -32006 is every limit: use LimitExceeded (this is the same class). */
export const TooManyConnections = LimitExceeded;
/** -32007: the mutation failed after its retries; `data` is the mutator's last error object. */
export class MutationFailed extends RPCError {}
/** -32009: `query.set` with `ifVersion` found another version; `data` is `{key, version}` (current). */
export class VersionConflict extends RPCError {}
/** -32008: the connection may not call this method. */
export class PermissionDenied extends RPCError {}
/** -32800: the request was cancelled with $/cancelRequest. */
export class RequestCancelled extends RPCError {}

const BY_CODE = new Map([
  [-32700, ParseError], [-32600, InvalidRequest], [-32601, MethodNotFound], [-32602, InvalidParams],
  [-32603, InternalError], [-32001, FetchFailed], [-32002, NoFetcher], [-32003, CancelledByServer],
  [-32004, AttemptTimeout], [-32005, UnknownID], [-32006, LimitExceeded], [-32007, MutationFailed],
  [-32008, PermissionDenied], [-32009, VersionConflict], [-32800, RequestCancelled],
]);

/**
 * Thrown by a fetcher or mutator to answer with this error object. Any other error is answered
 * as `{code: -32000, message: error.message, data: {type: error.name}}`.
 */
export class HandlerError extends QuerydError {
  constructor(message, { code = 1, data } = {}) {
    super(message);
    this.code = code;
    this.data = data;
  }

  /** This error as a JSON-RPC error object. */
  toWire() {
    return errorObject(this.code, this.message, this.data);
  }
}

function errorObject(code, message, data) {
  return data === undefined ? { code, message } : { code, message, data };
}
