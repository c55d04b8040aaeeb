"""The asyncio client: one connection to the daemon, kept alive across daemon restarts.

``Client`` owns the current Connection, the fetchers and mutators registered through it, and its
subscriptions. When the connection drops it reconnects with a growing delay (50 ms doubling to
1 s), registers every fetcher and mutator again and re-subscribes every subscription before any
waiting call goes on. Requests that were in flight when it dropped fail with ConnectionLost.
"""

from __future__ import annotations

import asyncio
from typing import Any, Dict, List, Optional, Set, Tuple

from . import __version__
from .connecting import Connecting
from .connection import Connection
from .errors import ClientClosed, ConnectionLost, QuerydConnectionError, RPCError, UnknownID
from .handlers import Handler, Registration, error_object, serve_fetch, serve_mutate
from .keys import as_key, wire_options
from .namespaces import ClockAPI, MutationAPI, MutationsAPI, QueriesAPI, QueryAPI, ServerAPI
from .subscription import Subscription, _Stream

_SERVED = {"fetch": ("fetcher", serve_fetch), "mutate": ("mutator", serve_mutate)}
_PUSHED = {"query.changed": ("query.subscribe", "state"), "mutation.changed": ("mutation.subscribe", "mutation")}
_UNSUBSCRIBE = {"query.subscribe": "query.unsubscribe", "mutation.subscribe": "mutation.unsubscribe"}


class Client:
    """An asyncio client of queryd. Create it with ``await Client.connect(path=None)``."""

    def __init__(self, path: str, *, reconnect: bool = True, name: str = "queryd-python") -> None:
        #: The socket path in use.
        self.path = path
        #: The daemon's ``server.hello`` answer on the current connection.
        self.server_info: Dict[str, Any] = {}
        #: How many times the client reconnected.
        self.reconnects = 0
        self._reconnect = reconnect
        self._name = name
        self._conn: Optional[Connection] = None
        self._connected = asyncio.Event()
        self._closing = False
        self._failed = False
        self._closed = asyncio.get_running_loop().create_future()
        self._reopen_task: Optional[asyncio.Task] = None
        self._registrations: List[Registration] = []
        self._by_wire: Dict[Tuple[str, int], Registration] = {}
        self._streams: List[_Stream] = []
        self._stream_ids: Dict[Tuple[str, int], _Stream] = {}
        self._serving: Dict[Tuple[int, Any], asyncio.Task] = {}
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

    @classmethod
    def connect(
        cls, path: Optional[str] = None, *, reconnect: bool = True, name: str = "queryd-python"
    ) -> Connecting:
        """Connects to the daemon (path resolved as the daemon does) and says ``server.hello``.

        Raises ConnectFailed when nobody listens. ``reconnect=False`` makes a lost connection final.
        """
        return Connecting(cls, path, {"reconnect": reconnect, "name": name})

    @property
    def capabilities(self) -> frozenset:
        """The capability names the daemon announced (method names and ``feature:*``)."""
        return frozenset(self.server_info.get("capabilities", []))

    @property
    def is_connected(self) -> bool:
        """Whether a connection is up right now."""
        return self._connected.is_set() and self._conn is not None and not self._conn.is_closed

    async def __aenter__(self) -> "Client":
        return self

    async def __aexit__(self, *exc_info: Any) -> None:
        await self.close()

    # -- lifecycle -------------------------------------------------------------------------------

    async def _start(self) -> None:
        conn = await self._open_connection()
        try:
            await self._greet(conn)
        except BaseException:
            await conn.close()
            raise
        self._conn = conn
        self._connected.set()

    async def _open_connection(self) -> Connection:
        return await Connection.open(
            self.path, on_request=self._on_request, on_notification=self._on_notification, on_close=self._on_close
        )

    async def _greet(self, conn: Connection) -> None:
        self.server_info = await conn.request(
            "server.hello", {"client": {"name": self._name, "version": __version__}}
        )

    async def close(self) -> None:
        """Closes the connection; subscriptions end, handlers are cancelled, calls raise ClientClosed."""
        if self._closing:
            return
        self._closing = True
        self._connected.set()
        if self._reopen_task is not None:
            self._reopen_task.cancel()
        for stream in list(self._streams):
            stream._fail(ClientClosed("the client was closed"))
        if self._conn is not None:
            await self._conn.close()
        if not self._closed.done():
            self._closed.set_result(None)

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
                stream._fail(ConnectionLost("the connection to queryd was lost"))
            return
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
        delay = 0.05
        while not self._closing:
            try:
                conn = await self._open_connection()
            except QuerydConnectionError:
                await asyncio.sleep(delay)
                delay = min(delay * 2, 1.0)
                continue
            self._conn = conn
            try:
                await self._greet(conn)
                await self._restore(conn)
            except QuerydConnectionError:
                continue
            self.reconnects += 1
            self._connected.set()
            return

    async def _restore(self, conn: Connection) -> None:
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

        Cancelling the awaiting task sends ``$/cancelRequest``.
        """
        conn = await self._connection()
        return await conn.request(method, params)

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

    async def _serve(self, conn: Connection, request_id: Any, serve: Any, registration: Registration, params: Any):
        try:
            answer = await serve(registration, params)
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
            conn.respond_error(request_id, {"code": 1, "message": f"the result is not JSON: {error}"})

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
        stream = self._stream_ids.get((pushed[0], params.get("subscription")))
        if stream is not None and pushed[1] in params:
            stream._deliver(params[pushed[1]])

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
            self._stream_ids[(stream.method, stream.id)] = stream

        await conn.request(stream.method, stream._subscribe_params(), on_result=bind)

    async def _detach(self, stream: _Stream) -> None:
        if stream in self._streams:
            self._streams.remove(stream)
        wire_id, stream.id = stream.id, None
        if wire_id is None:
            return
        self._stream_ids.pop((stream.method, wire_id), None)
        if self.is_connected:
            try:
                await self.call(_UNSUBSCRIBE[stream.method], {"subscription": wire_id})
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
