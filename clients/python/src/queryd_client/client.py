"""The asyncio client: one connection to the daemon, kept alive across daemon restarts.

``Client`` owns the current Connection, the fetchers and mutators registered through it, and its
subscriptions. Connecting says ``server.hello`` with protocol negotiation (protocol 2, falling back
to 1 for an older daemon). When the connection drops it reconnects with a growing, jittered delay
(resilience.py), says hello again, registers every fetcher and mutator again, restores the focus and
online state it set and re-subscribes every subscription before any waiting call goes on. Reads in
flight when it dropped, or that a stopping daemon cancelled (``query.get/state/fetch/ensure``), are
sent again; other calls fail with ConnectionLost. ``on_connection_state`` reports connecting,
connected, reconnecting and closed.
"""

from __future__ import annotations

import asyncio
import threading
from typing import Any, Callable, Dict, List, Optional, Tuple

from . import __version__
from .connecting import Connecting
from .connection import LINE_LIMIT, LINE_TOO_LONG, Connection
from .errors import (
    CancelledByServer,
    ClientClosed,
    ConnectionLost,
    InvalidParams,
    QuerydConnectionError,
    QuerydError,
    RPCError,
    UnknownID,
)
from .handlers import HANDLER_ERROR_CODE, Handler, Registration, error_object, serve_fetch, serve_mutate
from .keys import as_key, wire_options
from .namespaces import CacheAPI, ClockAPI, MutationAPI, MutationsAPI, QueriesAPI, QueryAPI, ServerAPI
from .resilience import IDEMPOTENT, Backoff, StateListener, StateListeners, open_waiting
from .subscription import Subscription, _Stream

_SERVED = {"fetch": ("fetcher", serve_fetch), "mutate": ("mutator", serve_mutate)}
_PUSHED = {
    "query.changed": "query.subscribe",
    "mutation.changed": "mutation.subscribe",
    "count.changed": "count",
    "cache.changed": "cache.watch",
}
_UNSUBSCRIBE = {
    "query.subscribe": "query.unsubscribe",
    "mutation.subscribe": "mutation.unsubscribe",
    "count": "count.unsubscribe",
    "cache.watch": "cache.unwatch",
}
#: The member naming the stream in a push, where it is not ``subscription``.
_PUSH_ID_MEMBER = {"cache.changed": "watch"}
#: The protocols this client speaks, sent in every ``server.hello``.
PROTOCOLS = {"min": 1, "max": 2}
#: The hello members this client sends that a protocol-1 daemon does not know: it refuses the first
#: one it meets (``capabilities`` sorts first), where a protocol-2 daemon's refusal has ``supported``.
_HELLO_V2_MEMBERS = {"protocol", "capabilities"}


class Client:
    """An asyncio client of queryd. Create it with ``await Client.connect(path=None)``."""

    def __init__(
        self,
        path: str,
        *,
        reconnect: bool = True,
        name: str = "queryd-python",
        connect_wait: float = 0.0,
        backoff: Tuple[float, float] = (0.05, 2.0),
        max_line_bytes: int = LINE_LIMIT,
    ) -> None:
        #: The socket path in use.
        self.path = path
        #: The daemon's ``server.hello`` answer on the current connection.
        self.server_info: Dict[str, Any] = {}
        #: How many times the client reconnected.
        self.reconnects = 0
        self._reconnect = reconnect
        self._name = name
        self._connect_wait = connect_wait
        self._backoff = Backoff(*backoff)
        self._max_line_bytes = max_line_bytes
        self._states = StateListeners()
        self._conn: Optional[Connection] = None
        self._connected = asyncio.Event()
        self._closing = False
        self._failed = False
        self._closed = asyncio.get_running_loop().create_future()
        self._reopen_task: Optional["asyncio.Task[None]"] = None
        self._registrations: List[Registration] = []
        self._by_wire: Dict[Tuple[str, int], Registration] = {}
        self._streams: List[_Stream] = []
        self._stream_ids: Dict[Tuple[str, int], _Stream] = {}
        self._serving: Dict[Tuple[int, Any], "asyncio.Task[None]"] = {}
        # Focus and online state set through this client, restored on every new connection.
        self._lifecycle: Dict[str, Dict[str, Any]] = {}
        # Registrations awaiting their reply, and requests that named an id not bound yet: the
        # daemon may send a `fetch` for a paused query before the `fetcher.register` reply.
        self._registering = 0
        self._deferred: List[Tuple[Connection, Any, str, Any]] = []
        self.query = QueryAPI(self)
        self.queries = QueriesAPI(self)
        self.mutation = MutationAPI(self)
        self.mutations = MutationsAPI(self)
        self.server = ServerAPI(self)
        self.clock = ClockAPI(self)
        self.cache = CacheAPI(self)

    @classmethod
    def connect(
        cls,
        path: Optional[str] = None,
        *,
        reconnect: bool = True,
        name: str = "queryd-python",
        connect_wait: float = 0.0,
        backoff: Tuple[float, float] = (0.05, 2.0),
        max_line_bytes: int = LINE_LIMIT,
    ) -> Connecting:
        """Connects to the daemon (path resolved as the daemon does) and says ``server.hello``.

        Raises ConnectFailed when nobody listens, after retrying for ``connect_wait`` seconds (a
        daemon that is starting). ``reconnect=False`` makes a lost connection final; ``backoff`` is
        the (first, longest) delay in seconds between reconnect attempts, each jittered down to half.
        """
        options = {"reconnect": reconnect, "name": name, "connect_wait": connect_wait, "backoff": backoff}
        return Connecting(cls, path, {**options, "max_line_bytes": max_line_bytes})

    @property
    def capabilities(self) -> frozenset:
        """The capability names the daemon announced (method names, ``feature:*``, ``option:*``...)."""
        return frozenset(self.server_info.get("capabilities", []))

    @property
    def protocol(self) -> int:
        """The protocol negotiated on the current connection (1 with a protocol-1 daemon)."""
        return int(self.server_info.get("protocol", 1))

    @property
    def node(self) -> Optional[str]:
        """The daemon's node name (protocol 2; None when unknown)."""
        return self.server_info.get("node")

    @property
    def epoch(self) -> Optional[str]:
        """The daemon's cache generation (protocol 2; None when unknown)."""
        return self.server_info.get("epoch")

    @property
    def is_connected(self) -> bool:
        """Whether a connection is up right now."""
        return self._connected.is_set() and self._conn is not None and not self._conn.is_closed

    @property
    def connection_state(self) -> str:
        """``connecting``, ``connected``, ``reconnecting`` or ``closed``."""
        return self._states.state

    def on_connection_state(self, listener: StateListener) -> Callable[[], None]:
        """Calls ``listener(state, reason)`` on each change of ``connection_state``; ``reason`` says why
        a connection ended (the daemon's ``$/closing`` reason when it sent one). Returns a remover."""
        return self._states.add(listener)

    async def __aenter__(self) -> "Client":
        return self

    async def __aexit__(self, *exc_info: Any) -> None:
        await self.close()

    # -- lifecycle -------------------------------------------------------------------------------

    async def _start(self) -> None:
        conn = await open_waiting(self._open_connection, self._connect_wait, self._backoff)
        try:
            await self._greet(conn)
        except BaseException:
            await conn.close()
            raise
        self._conn = conn
        self._backoff.reset()
        self._connected.set()
        self._states.change("connected")

    async def _open_connection(self) -> Connection:
        return await Connection.open(
            self.path,
            max_line_bytes=self._max_line_bytes,
            on_request=self._on_request,
            on_notification=self._on_notification,
            on_close=self._on_close,
        )

    async def _greet(self, conn: Connection) -> None:
        """``server.hello`` with negotiation; a protocol-1 daemon refuses the new members without saying
        which protocols it supports, and is greeted again the protocol-1 way."""
        client = {"name": self._name, "version": __version__}
        hello = {"client": client, "protocol": PROTOCOLS, "capabilities": {"requests": sorted(_SERVED)}}
        try:
            info = await conn.request("server.hello", hello)
        except InvalidParams as error:
            data = error.data if isinstance(error.data, dict) else {}
            if data.get("field") not in _HELLO_V2_MEMBERS or "supported" in data:
                raise
            info = await conn.request("server.hello", {"client": client})
            info = {**info, "protocol": 1}
        # Every re-subscribed state is a fresh start (a new epoch or not): patch bases are reset then.
        self.server_info = info if isinstance(info, dict) else {}

    async def close(self) -> None:
        """Closes the connection; subscriptions end (iteration stops normally), handlers are
        cancelled, calls raise ClientClosed."""
        if self._closing:
            return
        self._closing = True
        self._connected.set()
        if self._reopen_task is not None:
            self._reopen_task.cancel()
        for stream in list(self._streams):
            stream._finish()
        if self._conn is not None:
            await self._conn.close()
        if not self._closed.done():
            self._closed.set_result(None)
        self._states.change("closed")

    async def serve_forever(self) -> None:
        """Waits until ``close()``: what a fetcher process does after registering."""
        await asyncio.shield(self._closed)

    async def wait_connected(self) -> None:
        """Waits until a connection is up (after a reconnect, once everything is restored)."""
        await self._connection()

    async def _connection(self) -> Connection:
        while True:
            if self._closing:
                raise ClientClosed("the client was closed")
            if self._failed:
                raise ConnectionLost("the connection to queryd was lost")
            conn = self._conn
            if self._connected.is_set() and conn is not None and not conn.is_closed:
                return conn
            await self._connected.wait()

    def _on_close(self, conn: Connection) -> None:
        if conn is not self._conn:
            return
        self._connected.clear()
        self._forget(conn)
        if self._closing:
            return
        if not self._reconnect:
            self._failed = True
            self._connected.set()
            for stream in list(self._streams):
                stream._fail(ConnectionLost(f"the connection to queryd was lost: {conn.close_reason}"))
            self._states.change("closed", conn.close_reason)
            return
        self._states.change("reconnecting", conn.close_reason)
        if self._reopen_task is None or self._reopen_task.done():
            self._reopen_task = asyncio.ensure_future(self._reopen())

    def _forget(self, conn: Connection) -> None:
        """Drops everything bound to a dead connection's ids."""
        for registration in self._registrations:
            registration.id = None
        self._by_wire.clear()
        for stream in self._streams:
            stream.id = None
        self._stream_ids.clear()
        for (conn_id, request_id), task in list(self._serving.items()):
            if conn_id == id(conn):
                task.cancel()

    async def _reopen(self) -> None:
        while not self._closing:
            try:
                conn = await self._open_connection()
            except QuerydConnectionError:
                await asyncio.sleep(self._backoff.next())
                continue
            self._conn = conn
            try:
                await self._greet(conn)
                await self._restore(conn)
            except QuerydError:
                # A refused hello is retried like a failed connect: the daemon may be restarting.
                await conn.close()
                await asyncio.sleep(self._backoff.next())
                continue
            self._backoff.reset()
            self.reconnects += 1
            self._connected.set()
            self._states.change("connected")
            return

    async def _restore(self, conn: Connection) -> None:
        for method, params in list(self._lifecycle.items()):
            try:
                await conn.request(method, params)
            except RPCError:
                pass  # a daemon without the method: nothing to restore
        for registration in list(self._registrations):
            try:
                await self._register(conn, registration)
            except RPCError:
                registration.id = None
        for stream in list(self._streams):
            try:
                await self._subscribe(conn, stream)
            except RPCError as error:
                stream._fail(error)

    # -- generic calls ---------------------------------------------------------------------------

    async def call(self, method: str, params: Any = None) -> Any:
        """Sends any method and returns its result; raises an RPCError subclass on an error reply.

        Cancelling the awaiting task sends ``$/cancelRequest``. A read (``query.get``, ``query.state``,
        ``query.fetch``, ``query.ensure``) whose connection dropped before the reply is sent again
        once reconnected (unless its reply was over ``max_line_bytes``), and so is one the daemon
        answered with -32003 ``shutdown``; any other call raises ConnectionLost (CancelledByServer) then.
        """
        while True:
            conn = await self._connection()
            try:
                return await conn.request(method, params)
            except ConnectionLost as error:
                resend = method in IDEMPOTENT and error.code != LINE_TOO_LONG
                if not resend or not self._reconnect or self._closing:
                    raise
            except CancelledByServer as error:
                stopping = isinstance(error.data, dict) and error.data.get("reason") == "shutdown"
                if not (stopping and method in IDEMPOTENT and self._reconnect):
                    raise
                await conn.wait_closed()  # the daemon is stopping: ask the next one

    # -- lifecycle triggers ----------------------------------------------------------------------

    async def set_focused(self, focused: bool) -> None:
        """``client.setFocused``: this connection's focus (TanStack's ``focusManager.setFocused``);
        regaining it refetches the stale queries this client subscribes to. Kept across reconnects."""
        await self._lifecycle_call("client.setFocused", {"focused": focused}, focused)

    async def set_online(self, online: bool) -> None:
        """``network.setOnline``: the daemon's online state (TanStack's ``onlineManager.setOnline``);
        offline pauses fetches, back online resumes them. Restored on reconnect while offline."""
        await self._lifecycle_call("network.setOnline", {"online": online}, online)

    async def emit(self, name: str) -> int:
        """``events.emit``: refetches every query whose subscriptions list ``name`` in ``refetch_on``;
        returns how many queries it refetched."""
        return (await self.call("events.emit", {"name": name}))["matched"]

    async def _lifecycle_call(self, method: str, params: Dict[str, Any], default: bool) -> None:
        await self.call(method, params)
        if default:
            self._lifecycle.pop(method, None)
        else:
            self._lifecycle[method] = params

    # -- fetchers and mutators -------------------------------------------------------------------

    async def register_fetcher(
        self,
        prefix: Any,
        fetch: Handler,
        *,
        exact: bool = False,
        cancellable: bool = False,
        defaults: Optional[Dict[str, Any]] = None,
        **default_options: Any,
    ) -> Registration:
        """Serves ``fetch`` requests for keys under ``prefix`` with ``fetch``.

        ``fetch(key, page_param=None, direction=None, meta=None, attempt=1)`` (declare only the
        keywords you use) returns the data, or a PageResult for an infinite query; raising
        HandlerError(message, code, data) answers with that error. With ``cancellable=True`` a
        fetch nobody wants any more is cancelled (the task gets CancelledError).
        """
        params: Dict[str, Any] = {"key": as_key(prefix)}
        if exact:
            params["exact"] = True
        if cancellable:
            params["cancellable"] = True
        options = wire_options({**(defaults or {}), **default_options})
        if options:
            params["defaults"] = options
        return await self._add(Registration("fetcher", params, fetch, self._remove))

    async def register_mutator(self, prefix: Any, mutate: Handler, *, exact: bool = False) -> Registration:
        """Serves ``mutate`` requests for keys under ``prefix``: ``mutate(key, variables)`` returns the data."""
        params: Dict[str, Any] = {"key": as_key(prefix)}
        if exact:
            params["exact"] = True
        return await self._add(Registration("mutator", params, mutate, self._remove))

    async def _add(self, registration: Registration) -> Registration:
        await self._register(await self._connection(), registration)
        return registration

    async def _register(self, conn: Connection, registration: Registration) -> None:
        kind = registration.kind

        def bind(result: Any) -> None:
            registration.id = result[kind]
            self._by_wire[(kind, registration.id)] = registration
            if registration not in self._registrations:
                self._registrations.append(registration)
            self._replay_deferred(unbound_final=False)

        self._registering += 1
        try:
            await conn.request(f"{kind}.register", registration.params, on_result=bind)
        finally:
            self._registering -= 1
            self._replay_deferred(unbound_final=self._registering == 0)

    def _replay_deferred(self, unbound_final: bool) -> None:
        deferred, self._deferred = self._deferred, []
        for conn, request_id, method, params in deferred:
            if conn.is_closed:
                continue
            kind = _SERVED[method][0]
            if (kind, params.get(kind)) in self._by_wire or unbound_final:
                self._on_request(conn, request_id, method, params)
            else:
                self._deferred.append((conn, request_id, method, params))

    async def _remove(self, registration: Registration) -> None:
        if registration in self._registrations:
            self._registrations.remove(registration)
        wire_id, registration.id = registration.id, None
        if wire_id is None:
            return
        self._by_wire.pop((registration.kind, wire_id), None)
        if self.is_connected:
            await self.call(f"{registration.kind}.unregister", {registration.kind: wire_id})

    def _on_request(self, conn: Connection, request_id: Any, method: str, params: Any) -> None:
        served = _SERVED.get(method)
        if served is None or not isinstance(params, dict):
            conn.respond_error(request_id, {"code": -32601, "message": "Method not found", "data": {"method": method}})
            return
        kind, serve = served
        registration = self._by_wire.get((kind, params.get(kind)))
        if registration is None and self._registering > 0:
            self._deferred.append((conn, request_id, method, params))
            return
        if registration is None:
            conn.respond_error(request_id, {"code": -32005, "message": f"Unknown {kind}"})
            return
        task = asyncio.ensure_future(self._serve(conn, request_id, serve, registration, params))
        self._serving[(id(conn), request_id)] = task

    async def _serve(
        self, conn: Connection, request_id: Any, serve: Any, registration: Registration, params: Any
    ) -> None:
        loop = asyncio.get_running_loop()
        loop_thread = threading.get_ident()

        def progress(data: Any) -> None:
            # A plain handler runs in a worker thread: its chunks go through the loop, in order.
            if threading.get_ident() == loop_thread:
                conn.notify("fetch.progress", {"id": request_id, "data": data})
            else:
                asyncio.run_coroutine_threadsafe(_notify(conn, request_id, data), loop).result()

        try:
            answer = await serve(registration, params, progress)
        except asyncio.CancelledError:
            return
        except Exception as error:  # every handler failure is answered as an error object
            conn.respond_error(request_id, error_object(error))
            return
        finally:
            self._serving.pop((id(conn), request_id), None)
        try:
            conn.respond(request_id, answer)
        except (TypeError, ValueError) as error:
            conn.respond_error(request_id, {"code": HANDLER_ERROR_CODE, "message": f"the result is not JSON: {error}"})

    # -- subscriptions ---------------------------------------------------------------------------

    def subscribe(self, key: Any, **options: Any) -> Subscription:
        """A subscription to ``key``: ``async for state in client.subscribe(["todos"]): ...``.

        Yields the current state first, then every change. Leaving the loop unsubscribes.
        """
        return Subscription(self, key, options)

    def _on_notification(self, conn: Connection, method: str, params: Any) -> None:
        if not isinstance(params, dict):
            return
        if method == "$/cancelRequest":
            task = self._serving.pop((id(conn), params.get("id")), None)
            if task is not None:
                task.cancel()
            return
        pushed = _PUSHED.get(method)
        if pushed is None:
            return
        stream = self._stream_ids.get((pushed, params.get(_PUSH_ID_MEMBER.get(method, "subscription"))))
        if stream is not None:
            stream._deliver_push(params)

    async def _attach(self, stream: _Stream) -> None:
        self._streams.append(stream)
        try:
            await self._subscribe(await self._connection(), stream)
        except BaseException:
            self._streams.remove(stream)
            stream._ended = True
            raise

    async def _subscribe(self, conn: Connection, stream: _Stream) -> None:
        def bind(result: Any) -> None:
            stream._accept_reply(result)
            self._stream_ids[(stream.push_key, stream.id)] = stream

        await conn.request(stream.method, stream._subscribe_params(), on_result=bind)

    async def _detach(self, stream: _Stream) -> None:
        if stream in self._streams:
            self._streams.remove(stream)
        wire_id, stream.id = stream.id, None
        if wire_id is None:
            return
        self._stream_ids.pop((stream.push_key, wire_id), None)
        if self.is_connected:
            try:
                await self.call(_UNSUBSCRIBE[stream.push_key], {stream.id_member: wire_id})
            except (UnknownID, QuerydConnectionError):
                pass

    async def _subscription_call(self, stream: _Stream, method: str, params: Dict[str, Any], deliver=False) -> Any:
        while True:
            conn = await self._connection()
            if stream.id is None:
                raise ClientClosed("the subscription has ended")
            hook = stream._deliver if deliver else None
            try:
                return await conn.request(method, {**params, "subscription": stream.id}, on_result=hook)
            except ConnectionLost:
                if not self._reconnect:
                    raise


async def _notify(conn: Connection, request_id: Any, data: Any) -> None:
    conn.notify("fetch.progress", {"id": request_id, "data": data})
