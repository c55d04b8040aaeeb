"""Subscriptions as async iterators: ``async for state in client.subscribe(key): ...``.

A subscription yields the state from the subscribe reply first, then every ``query.changed`` in
the order the daemon wrote them (the daemon orders them; see protocol/README.md#ordering-guarantees).
Leaving the loop (``break``, an exception) unsubscribes; closing the client ends the loop normally.
After a reconnect the client subscribes again with the same key and options and the stream
continues with the new daemon's state. With ``push="patch"`` (protocol 2) the pushes are rebuilt
into full states before they are yielded (see patching.py); with ``push="meta"`` states carry no data.
"""

from __future__ import annotations

import asyncio
from typing import TYPE_CHECKING, Any, AsyncIterator, Dict, List, Optional

from .errors import QuerydError
from .keys import as_key, wire_options
from .patching import PatchTracker
from .state import MutationState, QueryState

if TYPE_CHECKING:
    from .client import Client

_END = object()


class _Stream:
    """A queue of pushed values with start/stop, shared by query, mutation and count subscriptions."""

    method = ""
    #: The member that names the stream in the reply, its pushes and its unsubscribe call.
    id_member = "subscription"
    #: The id space the daemon's pushes name this stream in (the subscribe method, or ``"count"``).
    @property
    def push_key(self) -> str:
        return self.method

    def __init__(self, client: "Client") -> None:
        self._client = client
        self._queue: "asyncio.Queue[Any]" = asyncio.Queue()
        self.id: Optional[int] = None
        self._started = False
        self._ended = False

    def __aiter__(self) -> AsyncIterator[Any]:
        return self._iterate()

    async def __aenter__(self) -> "_Stream":
        await self.start()
        return self

    async def __aexit__(self, *exc_info: Any) -> None:
        await self.unsubscribe()

    async def start(self) -> "_Stream":
        """Subscribes (once); the iterator calls this itself."""
        if not self._started:
            self._started = True
            await self._client._attach(self)
        return self

    async def next(self, timeout: Optional[float] = None) -> Any:
        """The next value, waiting at most ``timeout`` seconds (asyncio.TimeoutError)."""
        await self.start()
        item = await asyncio.wait_for(self._queue.get(), timeout)
        if item is _END:
            self._queue.put_nowait(_END)
            raise StopAsyncIteration
        if isinstance(item, BaseException):
            raise item
        return await self._materialize(item)

    async def _materialize(self, item: Any) -> Any:
        """Turns a queued item into the value yielded (subclasses rebuild patched states)."""
        return item

    async def _iterate(self) -> AsyncIterator[Any]:
        try:
            while True:
                try:
                    yield await self.next()
                except StopAsyncIteration:
                    return
        finally:
            await self.unsubscribe()

    async def unsubscribe(self) -> None:
        """Stops the subscription; iteration ends."""
        if self._ended:
            return
        self._ended = True
        self._queue.put_nowait(_END)
        await self._client._detach(self)

    # Called by the client.
    def _push(self, item: Any) -> None:
        if not self._ended:
            self._queue.put_nowait(item)

    def _fail(self, error: QuerydError) -> None:
        if not self._ended:
            self._ended = True
            self._queue.put_nowait(error)
            self._queue.put_nowait(_END)

    def _finish(self) -> None:
        """Ends the iteration normally (the client was closed by its owner)."""
        if not self._ended:
            self._ended = True
            self._queue.put_nowait(_END)

    def _deliver_push(self, params: Dict[str, Any]) -> None:
        raise NotImplementedError

    def _subscribe_params(self) -> Dict[str, Any]:
        raise NotImplementedError

    def _accept_reply(self, result: Any) -> None:
        raise NotImplementedError


class _Raw:
    """A ``query.changed`` params object (or a reply's state) queued in patch mode, rebuilt when taken."""

    def __init__(self, params: Dict[str, Any]) -> None:
        self.params = params


class Subscription(_Stream):
    """One query subscription (TanStack's observer). Yields QueryState values."""

    method = "query.subscribe"

    def __init__(self, client: "Client", key: Any, options: Dict[str, Any]) -> None:
        super().__init__(client)
        self.key: List[Any] = as_key(key)
        self.options: Dict[str, Any] = wire_options(options)
        #: The newest state received (None before the subscribe reply).
        self.state: Optional[QueryState] = None
        self._patches = PatchTracker()

    @property
    def _patch_mode(self) -> bool:
        return self.options.get("push") == "patch"

    def _subscribe_params(self) -> Dict[str, Any]:
        params: Dict[str, Any] = {"key": self.key}
        if self.options:
            params["options"] = self.options
        return params

    def _accept_reply(self, result: Any) -> None:
        self.id = result["subscription"]
        self._deliver(result["state"])

    def _deliver(self, state: Any) -> None:
        """A state from a reply (subscribe, setOptions): full, a fresh base in patch mode."""
        if self._patch_mode:
            self._push(_Raw({"state": state, "resync": True}))
        else:
            self.state = QueryState(state)
            self._push(self.state)

    def _deliver_push(self, params: Dict[str, Any]) -> None:
        if self._patch_mode:
            self._push(_Raw(params))
        elif isinstance(params.get("state"), dict):
            self.state = QueryState(params["state"])
            self._push(self.state)

    async def _materialize(self, item: Any) -> Any:
        if not isinstance(item, _Raw) or not isinstance(item.params.get("state"), dict):
            return item
        state, wanted = self._patches.rebuild(item.params)
        if state is None:
            read = await self._client.query.state(self.key)
            state = self._patches.reread(item.params["state"], read, wanted)
        self.state = QueryState(state)
        return self.state

    async def set_options(self, key: Any = None, **options: Any) -> QueryState:
        """``query.setOptions``: replaces the options (and moves to ``key`` when given)."""
        params: Dict[str, Any] = {}
        if key is not None:
            self.key = as_key(key)
            params["key"] = self.key
        self.options = wire_options(options)
        if self.options:
            params["options"] = self.options
        state = await self._client._subscription_call(self, "query.setOptions", params, deliver=True)
        return QueryState(state)

    async def refetch(self, cancel_refetch: Optional[bool] = None) -> QueryState:
        """``query.refetch`` with this subscription's key and options."""
        return await self._paged("query.refetch", cancel_refetch)

    async def fetch_next_page(self, cancel_refetch: Optional[bool] = None) -> QueryState:
        """``query.fetchNextPage`` for this (infinite) subscription."""
        return await self._paged("query.fetchNextPage", cancel_refetch)

    async def fetch_previous_page(self, cancel_refetch: Optional[bool] = None) -> QueryState:
        """``query.fetchPreviousPage`` for this (infinite) subscription."""
        return await self._paged("query.fetchPreviousPage", cancel_refetch)

    async def _paged(self, method: str, cancel_refetch: Optional[bool]) -> QueryState:
        params: Dict[str, Any] = {} if cancel_refetch is None else {"cancelRefetch": cancel_refetch}
        return QueryState(await self._client._subscription_call(self, method, params))


class MutationSubscription(_Stream):
    """Observes mutations (``mutation.subscribe``). Yields MutationState values: first the
    mutations that exist when subscribing, then each ``mutation.changed``."""

    method = "mutation.subscribe"

    def __init__(self, client: "Client", filter: Optional[Dict[str, Any]]) -> None:
        super().__init__(client)
        self.filter = filter

    def _subscribe_params(self) -> Dict[str, Any]:
        return {} if self.filter is None else {"filter": self.filter}

    def _accept_reply(self, result: Any) -> None:
        self.id = result["subscription"]
        for mutation in result.get("mutations", []):
            self._deliver(mutation)

    def _deliver(self, mutation: Any) -> None:
        self._push(MutationState(mutation))

    def _deliver_push(self, params: Dict[str, Any]) -> None:
        if "mutation" in params:
            self._deliver(params["mutation"])


class CacheWatch(_Stream):
    """Watches the whole cache (``cache.watch``): yields the snapshot dict first (``watch``,
    ``queries``, ``fetchers``, ``mutators``, ``mutations``; again after a reconnect, when the
    events start over), then each ``cache.changed``'s list of events (dicts with a ``type``)."""

    method = "cache.watch"
    #: The member of the reply, the pushes and ``cache.unwatch`` that names the watch.
    id_member = "watch"

    def __init__(self, client: "Client", filter: Optional[Dict[str, Any]], data: bool) -> None:
        super().__init__(client)
        self.filter = filter
        self.data = data

    def _subscribe_params(self) -> Dict[str, Any]:
        params: Dict[str, Any] = {}
        if self.filter is not None:
            params["filter"] = self.filter
        if self.data:
            params["data"] = True
        return params

    def _accept_reply(self, result: Any) -> None:
        self.id = result["watch"]
        self._push(result)

    def _deliver_push(self, params: Dict[str, Any]) -> None:
        if isinstance(params.get("events"), list):
            self._push(params["events"])


class CountSubscription(_Stream):
    """Watches a count (``queries.count`` / ``mutations.count`` with ``subscribe: true``; TanStack's
    useIsFetching / useIsMutating). Yields ints: the count when subscribing, then each
    ``count.changed`` (at most one per daemon loop turn, with the latest count)."""

    def __init__(self, client: "Client", method: str, filter: Optional[Dict[str, Any]]) -> None:
        super().__init__(client)
        self.method = method
        self.filter = filter
        #: The newest count received (None before the reply).
        self.count: Optional[int] = None

    @property
    def push_key(self) -> str:
        return "count"

    def _subscribe_params(self) -> Dict[str, Any]:
        params: Dict[str, Any] = {"subscribe": True}
        if self.filter is not None:
            params["filter"] = self.filter
        return params

    def _accept_reply(self, result: Any) -> None:
        self.id = result["subscription"]
        self._deliver(result["count"])

    def _deliver(self, count: int) -> None:
        self.count = count
        self._push(count)

    def _deliver_push(self, params: Dict[str, Any]) -> None:
        if isinstance(params.get("count"), int):
            self._deliver(params["count"])
