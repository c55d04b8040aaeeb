"""A blocking wrapper for scripts: ``queryd_client.sync.Client`` runs the asyncio client on a
private event loop thread and offers the same API without ``await``.

    from queryd_client.sync import Client

    with Client() as client:
        client.query.set(["greeting"], "hello")
        print(client.query.get(["greeting"]))
        for state in client.subscribe(["todos"]):
            print(state.status, state.data)

Fetcher and mutator functions may be plain functions (they run in a worker thread) or coroutines.
``timeout`` bounds each call, never the wait for the next pushed state; leaving a ``for`` loop over
a subscription (``break``, an exception) unsubscribes.
"""

from __future__ import annotations

import asyncio
import inspect
import threading
from typing import Any, AsyncIterator, Callable, Generator, Iterator, Optional, Tuple

from .client import Client as AsyncClient
from .handlers import Handler
from .subscription import _Stream


class Client:
    """A blocking client. ``timeout`` (seconds, None = no limit) bounds every call."""

    def __init__(
        self,
        path: Optional[str] = None,
        *,
        reconnect: bool = True,
        timeout: Optional[float] = None,
        connect_wait: float = 0.0,
        backoff: Tuple[float, float] = (0.05, 2.0),
    ) -> None:
        self._timeout = timeout
        self._loop = asyncio.new_event_loop()
        self._thread = threading.Thread(target=self._loop.run_forever, name="queryd-client", daemon=True)
        self._thread.start()
        options = {"reconnect": reconnect, "connect_wait": connect_wait, "backoff": backoff}
        try:
            connecting = _invoke(AsyncClient.connect, (path,), options)
            bound = None if timeout is None else timeout + connect_wait
            self._client: AsyncClient = self._run(connecting, timeout=bound)
        except BaseException:
            self._stop_loop()
            raise
        self.query = _Blocking(self, self._client.query)
        self.queries = _Blocking(self, self._client.queries)
        self.mutation = _Blocking(self, self._client.mutation)
        self.mutations = _Blocking(self, self._client.mutations)
        self.server = _Blocking(self, self._client.server)
        self.clock = _Blocking(self, self._client.clock)

    def __enter__(self) -> "Client":
        return self

    def __exit__(self, *exc_info: Any) -> None:
        self.close()

    @property
    def capabilities(self) -> frozenset:
        """The capability names the daemon announced."""
        return self._client.capabilities

    @property
    def protocol(self) -> int:
        """The protocol negotiated on the current connection."""
        return self._client.protocol

    @property
    def connection_state(self) -> str:
        """``connecting``, ``connected``, ``reconnecting`` or ``closed``."""
        return self._client.connection_state

    def on_connection_state(self, listener: Callable[[str, Optional[str]], None]) -> Callable[[], None]:
        """As the asyncio client's: ``listener(state, reason)`` runs on the client's loop thread."""
        return self._client.on_connection_state(listener)

    def set_focused(self, focused: bool) -> None:
        """``client.setFocused`` (see the asyncio client)."""
        self._run(self._client.set_focused(focused))

    def set_online(self, online: bool) -> None:
        """``network.setOnline`` (see the asyncio client)."""
        self._run(self._client.set_online(online))

    def emit(self, name: str) -> int:
        """``events.emit``: how many queries were refetched."""
        return self._run(self._client.emit(name))

    def call(self, method: str, params: Any = None) -> Any:
        """Sends any method and returns its result (raises an RPCError subclass on error)."""
        return self._run(self._client.call(method, params))

    def register_fetcher(self, prefix: Any, fetch: Handler, **options: Any) -> Any:
        """As the asyncio client's ``register_fetcher``; returns the Registration."""
        return self._run(self._client.register_fetcher(prefix, fetch, **options))

    def register_mutator(self, prefix: Any, mutate: Handler, **options: Any) -> Any:
        """As the asyncio client's ``register_mutator``; returns the Registration."""
        return self._run(self._client.register_mutator(prefix, mutate, **options))

    def unregister(self, registration: Any) -> None:
        """Stops a fetcher or mutator registered through this client."""
        self._run(registration.unregister())

    def subscribe(self, key: Any, **options: Any) -> "SyncSubscription":
        """A blocking iterator of the subscription's states (current first, then each change)."""
        return SyncSubscription(self, self._run(_invoke(self._client.subscribe, (key,), options)))

    def serve_forever(self) -> None:
        """Blocks until ``close()`` is called from another thread (or the process is interrupted)."""
        asyncio.run_coroutine_threadsafe(self._client.serve_forever(), self._loop).result()

    def close(self) -> None:
        """Closes the client and stops its thread."""
        if self._loop.is_running():
            self._run(self._client.close())
            self._stop_loop()

    def _stop_loop(self) -> None:
        self._loop.call_soon_threadsafe(self._loop.stop)
        self._thread.join()
        self._loop.close()

    def _run(self, coroutine: Any, timeout: Any = "default") -> Any:
        future = asyncio.run_coroutine_threadsafe(coroutine, self._loop)
        try:
            return future.result(self._timeout if timeout == "default" else timeout)
        except BaseException:
            future.cancel()
            raise


async def _invoke(function: Callable[..., Any], args: Any, kwargs: Any) -> Any:
    """Calls ``function`` on the loop thread (asyncio objects must be made there) and awaits it."""
    result = function(*args, **kwargs)
    if inspect.isawaitable(result):
        result = await result
    return result


class _Blocking:
    """Wraps an asyncio namespace: each coroutine method becomes a blocking one."""

    def __init__(self, owner: Client, namespace: Any) -> None:
        self._owner = owner
        self._namespace = namespace

    def __getattr__(self, name: str) -> Callable[..., Any]:
        method = getattr(self._namespace, name)

        def blocking(*args: Any, **kwargs: Any) -> Any:
            result = self._owner._run(_invoke(method, args, kwargs))
            if isinstance(result, _Stream):
                return SyncSubscription(self._owner, result)
            if inspect.isasyncgen(result):
                return _pages(self._owner, result)
            return result

        blocking.__doc__ = method.__doc__
        return blocking


def _pages(owner: Client, pages: AsyncIterator[Any]) -> Iterator[Any]:
    """A blocking iterator over an async generator (``queries.pages``); each step bounded by the timeout."""
    while True:
        try:
            yield owner._run(_invoke(pages.__anext__, (), {}))
        except StopAsyncIteration:
            return


class SyncSubscription:
    """A blocking iterator over an asyncio subscription; ``close()``, leaving a ``with`` or leaving a
    ``for`` loop ends it. Waiting for the next state is not bounded by the client's ``timeout``."""

    def __init__(self, owner: Client, stream: _Stream) -> None:
        self._owner = owner
        self._stream = stream

    def __iter__(self) -> Generator[Any, None, None]:
        # A generator, so that a `for` loop left early closes it (at once, in CPython) and unsubscribes.
        try:
            while True:
                try:
                    yield self.next()
                except StopIteration:
                    return
        finally:
            self.close()

    def __next__(self) -> Any:
        return self.next()

    def next(self, timeout: Optional[float] = None) -> Any:
        """The next state, waiting at most ``timeout`` seconds (TimeoutError)."""
        try:
            return self._owner._run(self._stream.next(timeout), timeout=None)
        except StopAsyncIteration:
            raise StopIteration from None

    def __enter__(self) -> "SyncSubscription":
        self._owner._run(self._stream.start())
        return self

    def __exit__(self, *exc_info: Any) -> None:
        self.close()

    def __getattr__(self, name: str) -> Any:
        attribute = getattr(self._stream, name)
        if not callable(attribute):
            return attribute

        def blocking(*args: Any, **kwargs: Any) -> Any:
            return self._owner._run(attribute(*args, **kwargs))

        return blocking

    def close(self) -> None:
        """Unsubscribes (nothing to do once the client is closed)."""
        if self._owner._loop.is_running():
            self._owner._run(self._stream.unsubscribe())
