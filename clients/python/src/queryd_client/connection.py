"""One socket to the daemon: framing, request ids, and the single reader task that routes messages.

Every line the daemon writes is one JSON-RPC message (or a batch array). The reader task sends
replies to the waiting request, and hands notifications and server-to-client requests (``fetch``,
``mutate``) to the callbacks the owner gave. Cancelling a waiting ``request`` sends
``$/cancelRequest`` so the daemon stops waiting too. A ``$/closing`` notification (protocol 2: the
daemon is about to close this connection for a limit) becomes the reason of the connection loss.
"""

from __future__ import annotations

import asyncio
import itertools
import json
from typing import Any, Callable, Dict, Optional, Tuple

from .errors import ConnectFailed, ConnectionLost, RPCError

#: The longest line accepted from the daemon (its own default limit is 16 MiB).
LINE_LIMIT = 64 * 1024 * 1024
#: The ``code`` of the ConnectionLost raised when a line is over the limit (such a call is not re-sent).
LINE_TOO_LONG = "LINE_TOO_LONG"

RequestHandler = Callable[["Connection", Any, str, Any], None]
NotificationHandler = Callable[["Connection", str, Any], None]
ResultHook = Callable[[Any], None]


def encode(message: Any) -> bytes:
    """One compact JSON line."""
    return json.dumps(message, separators=(",", ":"), ensure_ascii=False, allow_nan=False).encode() + b"\n"


class Connection:
    """A JSON-RPC peer over one asyncio stream pair."""

    def __init__(
        self,
        reader: asyncio.StreamReader,
        writer: asyncio.StreamWriter,
        on_request: Optional[RequestHandler] = None,
        on_notification: Optional[NotificationHandler] = None,
        on_close: Optional[Callable[["Connection"], None]] = None,
    ) -> None:
        #: Why the connection ended (set when it has): the daemon's ``$/closing`` reason when it sent one.
        self.close_reason: Optional[str] = None
        #: The longest line accepted from the daemon.
        self.max_line_bytes = LINE_LIMIT
        self._closing_notice: Optional[str] = None
        self._reader = reader
        self._writer = writer
        self._on_request = on_request
        self._on_notification = on_notification
        self._on_close = on_close
        self._ids = itertools.count(1)
        self._waiting: Dict[int, Tuple[asyncio.Future, str, Optional[ResultHook]]] = {}
        self._drain_lock = asyncio.Lock()
        self._closed = asyncio.get_running_loop().create_future()
        self._task = asyncio.ensure_future(self._read_loop())

    @classmethod
    async def open(cls, path: str, *, max_line_bytes: int = LINE_LIMIT, **callbacks: Any) -> "Connection":
        """Connects to the Unix socket at ``path``; raises ConnectFailed. A line from the daemon longer
        than ``max_line_bytes`` ends the connection (ConnectionLost naming the limit)."""
        try:
            reader, writer = await asyncio.open_unix_connection(path, limit=max_line_bytes)
        except OSError as error:
            raise ConnectFailed(path, error) from error
        conn = cls(reader, writer, **callbacks)
        conn.max_line_bytes = max_line_bytes
        return conn

    @property
    def is_closed(self) -> bool:
        """Whether the connection has ended."""
        return self._closed.done()

    async def wait_closed(self) -> None:
        """Returns once the connection has ended (by either side)."""
        await asyncio.shield(self._closed)

    # -- sending ---------------------------------------------------------------------------------

    async def request(self, method: str, params: Any = None, on_result: Optional[ResultHook] = None) -> Any:
        """Sends a request and returns its result; raises RPCError or ConnectionLost.

        ``on_result`` runs inside the reader as soon as the reply is read, before any later line is
        handled: the place to bind an id (a subscription's, a fetcher's) that the next lines use.
        """
        if self.is_closed:
            raise ConnectionLost(f"{method}: the connection is closed")
        request_id = next(self._ids)
        future = asyncio.get_running_loop().create_future()
        self._waiting[request_id] = (future, method, on_result)
        message: Dict[str, Any] = {"jsonrpc": "2.0", "id": request_id, "method": method}
        if params is not None:
            message["params"] = params
        try:
            await self._send(encode(message))
            return await future
        except asyncio.CancelledError:
            if self._waiting.pop(request_id, None) is not None:
                self.notify("$/cancelRequest", {"id": request_id})
            raise
        finally:
            self._waiting.pop(request_id, None)

    def notify(self, method: str, params: Any = None) -> None:
        """Sends a notification (no reply); silently dropped when the connection is closed."""
        message: Dict[str, Any] = {"jsonrpc": "2.0", "method": method}
        if params is not None:
            message["params"] = params
        self._write(encode(message))

    def respond(self, request_id: Any, result: Any) -> None:
        """Answers a server-to-client request with a result."""
        self._write(encode({"jsonrpc": "2.0", "id": request_id, "result": result}))

    def respond_error(self, request_id: Any, error: Dict[str, Any]) -> None:
        """Answers a server-to-client request with an error object."""
        self._write(encode({"jsonrpc": "2.0", "id": request_id, "error": error}))

    def _write(self, line: bytes) -> None:
        if not self.is_closed and not self._writer.is_closing():
            self._writer.write(line)

    async def _send(self, line: bytes) -> None:
        if self._writer.is_closing():
            raise ConnectionLost("the connection is closed")
        self._writer.write(line)
        # Python 3.9's drain() refuses concurrent waiters, hence the lock.
        async with self._drain_lock:
            try:
                await self._writer.drain()
            except (ConnectionError, OSError) as error:
                raise ConnectionLost(str(error)) from error

    async def close(self) -> None:
        """Closes the socket; waiting requests fail with ConnectionLost."""
        self._finish(ConnectionLost("the connection was closed by the client"))
        self._task.cancel()
        try:
            await self._task
        except asyncio.CancelledError:
            pass
        try:
            await self._writer.wait_closed()
        except (ConnectionError, OSError):
            pass

    # -- receiving -------------------------------------------------------------------------------

    async def _read_loop(self) -> None:
        reason = "the daemon closed the connection"
        code: Optional[str] = None
        try:
            while True:
                line = await self._reader.readline()
                if not line:
                    break
                if not line.endswith(b"\n"):
                    break
                self._dispatch_line(line)
        except ValueError:
            reason = f"a line from the daemon is longer than the limit ({self.max_line_bytes} bytes)"
            code = LINE_TOO_LONG
        except (ConnectionError, OSError, asyncio.IncompleteReadError) as error:
            reason = f"the connection failed: {error}"
        finally:
            if self._closing_notice is not None:
                reason = f"the daemon closed the connection: {self._closing_notice}"
            self._finish(ConnectionLost(reason, code))

    def _dispatch_line(self, line: bytes) -> None:
        if not line.strip():
            return
        try:
            message = json.loads(line)
        except ValueError:
            return
        for item in message if isinstance(message, list) else [message]:
            if isinstance(item, dict):
                self._dispatch(item)

    def _dispatch(self, message: Dict[str, Any]) -> None:
        method = message.get("method")
        if isinstance(method, str):
            if "id" in message:
                if self._on_request is not None:
                    self._on_request(self, message["id"], method, message.get("params"))
                else:
                    self.respond_error(message["id"], {"code": -32601, "message": "Method not found"})
            elif method == "$/closing":
                self._closing_notice = _closing_text(message.get("params"))
            elif self._on_notification is not None:
                self._on_notification(self, method, message.get("params"))
            return
        entry = self._waiting.pop(message.get("id"), None) if isinstance(message.get("id"), int) else None
        if entry is None:
            return
        future, name, on_result = entry
        if future.done():
            return
        if "error" in message:
            future.set_exception(RPCError.from_wire(message["error"], name))
            return
        result = message.get("result")
        if on_result is not None:
            on_result(result)
        future.set_result(result)

    def _finish(self, error: ConnectionLost) -> None:
        if self._closed.done():
            return
        waiting, self._waiting = self._waiting, {}
        for future, name, _ in waiting.values():
            if not future.done():
                future.set_exception(ConnectionLost(f"{name}: {error}", error.code))
        self.close_reason = str(error)
        self._writer.close()
        self._closed.set_result(None)
        if self._on_close is not None:
            self._on_close(self)


def _closing_text(params: Any) -> str:
    """``$/closing {reason, limit}`` as one phrase."""
    if not isinstance(params, dict):
        return "closing"
    reason = params.get("reason") if isinstance(params.get("reason"), str) else "closing"
    limit = params.get("limit")
    return f"{reason} (limit {limit})" if isinstance(limit, str) else reason
