"""The exceptions of queryd_client: one hierarchy rooted at QuerydError.

Two branches: QuerydConnectionError (the socket could not be opened, was lost, or the client was
closed) and RPCError (the daemon answered a request with a JSON-RPC error object; subclasses name the
queryd codes). HandlerError is what a fetcher or mutator raises to answer with a chosen error object.
"""

from __future__ import annotations

from typing import Any, Dict, Optional, Type


class QuerydError(Exception):
    """Base class of every exception this package raises."""


class QuerydConnectionError(QuerydError):
    """The connection to the daemon is not usable."""


class ConnectFailed(QuerydConnectionError):
    """The socket could not be connected (no daemon, wrong path, permission)."""

    def __init__(self, path: str, cause: BaseException) -> None:
        super().__init__(f"cannot connect to queryd at {path}: {cause}")
        self.path = path
        self.cause = cause


class ConnectionLost(QuerydConnectionError):
    """The connection closed while a request was waiting for its reply. ``code`` is
    ``"LINE_TOO_LONG"`` when a line from the daemon was over the client's limit, else None."""

    def __init__(self, message: str, code: Optional[str] = None) -> None:
        super().__init__(message)
        self.code = code


class ClientClosed(QuerydConnectionError):
    """The client was closed by its owner; no more calls are possible."""


class RPCError(QuerydError):
    """The daemon answered a request with an error object.

    Attributes: ``code`` (int), ``message`` (str), ``data`` (any JSON value or None) and ``method``
    (the method of the failed request).
    """

    def __init__(self, code: int, message: str, data: Any = None, method: Optional[str] = None) -> None:
        detail = f"{method}: " if method else ""
        suffix = f" {data!r}" if data is not None else ""
        super().__init__(f"{detail}{message} ({code}){suffix}")
        self.code = code
        self.message = message
        self.data = data
        self.method = method

    @staticmethod
    def from_wire(error: Any, method: Optional[str] = None) -> "RPCError":
        """Builds the most specific subclass for a wire error object."""
        if not isinstance(error, dict):
            return InternalError(-32603, "malformed error object", error, method)
        code = error.get("code")
        code = code if isinstance(code, int) else -32603
        message = error.get("message")
        message = message if isinstance(message, str) else ""
        cls = _BY_CODE.get(code, RPCError)
        return cls(code, message, error.get("data"), method)

    def to_wire(self) -> Dict[str, Any]:
        """This error as a JSON-RPC error object."""
        return _error_object(self.code, self.message, self.data)


class ParseError(RPCError):
    """-32700: the daemon could not parse a line."""


class InvalidRequest(RPCError):
    """-32600: the message was not a valid request."""


class MethodNotFound(RPCError):
    """-32601: the daemon does not serve this method (or its flag is off)."""


class InvalidParams(RPCError):
    """-32602: a parameter is missing, malformed or unknown; ``data["field"]`` names it."""


class InternalError(RPCError):
    """-32603: the daemon failed internally (or sent a malformed error object)."""


class FetchFailed(RPCError):
    """-32001: the fetch failed after its retries; ``data`` is the fetcher's last error object."""


class NoFetcher(RPCError):
    """-32002: the call's timeout expired while no fetcher served the key."""


class CancelledByServer(RPCError):
    """-32003: the fetch was cancelled, reset or removed, or the daemon is shutting down."""


class AttemptTimeout(RPCError):
    """-32004: a fetch or mutate attempt ran longer than its timeout."""


class UnknownID(RPCError):
    """-32005: an unknown subscription, fetcher or mutator id."""


class LimitExceeded(RPCError):
    """-32006: a limit was reached; ``data["limit"]`` names it (``max-connections``, ...)."""


#: Deprecated alias of LimitExceeded (-32006 is every limit, not only the connection count).
TooManyConnections = LimitExceeded


class MutationFailed(RPCError):
    """-32007: the mutation failed after its retries; ``data`` is the mutator's last error object."""


class PermissionDenied(RPCError):
    """-32008: the connection may not call this method."""


class VersionConflict(RPCError):
    """-32009: ``query.set`` with ``if_version`` found another version; ``data`` is
    ``{"key": [...], "version": current}`` (0 when the key is not cached)."""


class RequestCancelled(RPCError):
    """-32800: the request was cancelled with $/cancelRequest."""


_BY_CODE: Dict[int, Type[RPCError]] = {
    -32700: ParseError,
    -32600: InvalidRequest,
    -32601: MethodNotFound,
    -32602: InvalidParams,
    -32603: InternalError,
    -32001: FetchFailed,
    -32002: NoFetcher,
    -32003: CancelledByServer,
    -32004: AttemptTimeout,
    -32005: UnknownID,
    -32006: LimitExceeded,
    -32007: MutationFailed,
    -32008: PermissionDenied,
    -32009: VersionConflict,
    -32800: RequestCancelled,
}


class HandlerError(QuerydError):
    """Raised by a fetcher or mutator to answer its request with this error object.

    Any other exception is answered as ``{"code": -32000, "message": str(exc), "data": {"type": name}}``.
    """

    def __init__(self, message: str, code: int = 1, data: Any = None) -> None:
        super().__init__(message)
        self.code = code
        self.message = message
        self.data = data

    def to_wire(self) -> Dict[str, Any]:
        """This error as a JSON-RPC error object."""
        return _error_object(self.code, self.message, self.data)


def _error_object(code: int, message: str, data: Any) -> Dict[str, Any]:
    error: Dict[str, Any] = {"code": code, "message": message}
    if data is not None:
        error["data"] = data
    return error
