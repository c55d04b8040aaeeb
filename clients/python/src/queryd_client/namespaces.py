"""The typed API, grouped by wire namespace: ``client.query``, ``client.queries``,
``client.mutation``, ``client.mutations``, ``client.server`` and ``client.clock``.

Each method maps to one wire method (see protocol/methods/); keyword options are snake_case
and converted to the wire's camelCase names.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any, AsyncIterator, Dict, List, Optional

from .keys import as_key, make_filter, wire_options
from .state import MutationState, QueryState
from .subscription import CacheWatch, CountSubscription, MutationSubscription

if TYPE_CHECKING:
    from .client import Client

_MISSING: Any = object()


def _with_options(key: Any, options: Dict[str, Any]) -> Dict[str, Any]:
    params: Dict[str, Any] = {"key": as_key(key)}
    converted = wire_options(options)
    if converted:
        params["options"] = converted
    return params


def _write_params(data: Any, merge_patch: Any, updated_at: Optional[int]) -> Dict[str, Any]:
    params: Dict[str, Any] = {}
    if data is not _MISSING:
        params["data"] = data
    if merge_patch is not _MISSING:
        params["mergePatch"] = merge_patch
    if updated_at is not None:
        params["updatedAt"] = updated_at
    return params


def _state(result: Any) -> Optional[QueryState]:
    return None if result is None else QueryState(result)


class _Namespace:
    def __init__(self, client: "Client") -> None:
        self._client = client


class QueryAPI(_Namespace):
    """One query by key: ``query.*``."""

    async def fetch(self, key: Any, **options: Any) -> QueryState:
        """Fresh data (fetches unless fresh for ``stale_time``); raises FetchFailed, NoFetcher, ..."""
        return QueryState(await self._client.call("query.fetch", _with_options(key, options)))

    async def ensure(self, key: Any, **options: Any) -> QueryState:
        """Cached data of any age; fetches only when there is none."""
        return QueryState(await self._client.call("query.ensure", _with_options(key, options)))

    async def prefetch(self, key: Any, **options: Any) -> None:
        """Starts a background fetch when stale; returns at once."""
        await self._client.call("query.prefetch", _with_options(key, options))

    async def get(self, key: Any, default: Any = None) -> Any:
        """The cached data (never fetches), or ``default`` when there is none."""
        result = await self._client.call("query.get", {"key": as_key(key)})
        return default if result is None else result["data"]

    async def state(self, key: Any) -> Optional[QueryState]:
        """The full state, or None when the query is not cached."""
        return _state(await self._client.call("query.state", {"key": as_key(key)}))

    async def set(
        self,
        key: Any,
        data: Any = _MISSING,
        *,
        merge_patch: Any = _MISSING,
        updated_at: Optional[int] = None,
        if_version: Optional[int] = None,
    ) -> QueryState:
        """Writes ``data`` (or applies an RFC 7396 ``merge_patch``) and returns the new state. With
        ``if_version`` only while the query's version is that one (0: not cached), else VersionConflict."""
        params = _write_params(data, merge_patch, updated_at)
        params["key"] = as_key(key)
        if if_version is not None:
            params["ifVersion"] = if_version
        return QueryState(await self._client.call("query.set", params))

    async def refetch(self, key: Any, cancel_refetch: Optional[bool] = None) -> Optional[QueryState]:
        """Fetches now; the settled state (a failure shows as ``status == "error"``), or None."""
        return _state(await self._client.call("query.refetch", self._paging(key, cancel_refetch)))

    async def cancel(self, key: Any, revert: Optional[bool] = None) -> None:
        """Cancels the fetch in flight (reverting the state unless ``revert=False``)."""
        params: Dict[str, Any] = {"key": as_key(key)}
        if revert is not None:
            params["revert"] = revert
        await self._client.call("query.cancel", params)

    async def fetch_next_page(self, key: Any, cancel_refetch: Optional[bool] = None) -> QueryState:
        """Infinite query: fetches the page after the last one; the settled state."""
        return QueryState(await self._client.call("query.fetchNextPage", self._paging(key, cancel_refetch)))

    async def fetch_previous_page(self, key: Any, cancel_refetch: Optional[bool] = None) -> QueryState:
        """Infinite query: fetches the page before the first one; the settled state."""
        return QueryState(await self._client.call("query.fetchPreviousPage", self._paging(key, cancel_refetch)))

    @staticmethod
    def _paging(key: Any, cancel_refetch: Optional[bool]) -> Dict[str, Any]:
        params: Dict[str, Any] = {"key": as_key(key)}
        if cancel_refetch is not None:
            params["cancelRefetch"] = cancel_refetch
        return params


class QueriesAPI(_Namespace):
    """Many queries by filter: ``queries.*``. Filter fields are keywords; none means every query."""

    async def invalidate(
        self,
        key: Any = None,
        *,
        exact: Optional[bool] = None,
        type: Optional[str] = None,
        stale: Optional[bool] = None,
        fetch_status: Optional[str] = None,
        refetch_type: Optional[str] = None,
        cancel_refetch: Optional[bool] = None,
    ) -> int:
        """Marks the matches stale and refetches the active ones; returns how many matched.
        ``cancel_refetch=False`` joins fetches in flight instead of replacing them."""
        params = self._params(key, exact, type, stale, fetch_status)
        if refetch_type is not None:
            params["refetchType"] = refetch_type
        if cancel_refetch is not None:
            params["cancelRefetch"] = cancel_refetch
        return (await self._client.call("queries.invalidate", params))["matched"]

    async def refetch(self, key: Any = None, *, cancel_refetch: Optional[bool] = None, **fields: Any) -> int:
        """Refetches the matches; returns how many matched (``cancel_refetch=False`` joins fetches in flight)."""
        params = self._params(key, **fields)
        if cancel_refetch is not None:
            params["cancelRefetch"] = cancel_refetch
        return (await self._client.call("queries.refetch", params))["matched"]

    async def cancel(self, key: Any = None, **fields: Any) -> int:
        """Cancels the matches' fetches (with revert); returns how many matched."""
        return (await self._client.call("queries.cancel", self._params(key, **fields)))["matched"]

    async def remove(self, key: Any = None, **fields: Any) -> int:
        """Removes the matches from the cache; returns how many matched."""
        return (await self._client.call("queries.remove", self._params(key, **fields)))["matched"]

    async def reset(self, key: Any = None, *, cancel_refetch: Optional[bool] = None, **fields: Any) -> int:
        """Resets the matches to their initial state; returns how many matched."""
        params = self._params(key, **fields)
        if cancel_refetch is not None:
            params["cancelRefetch"] = cancel_refetch
        return (await self._client.call("queries.reset", params))["matched"]

    async def set_data(
        self,
        key: Any = None,
        data: Any = _MISSING,
        *,
        merge_patch: Any = _MISSING,
        updated_at: Optional[int] = None,
        **fields: Any,
    ) -> int:
        """``queries.setData`` (setQueriesData): writes ``data`` (or ``merge_patch``) to every cached
        match, all or nothing; returns how many were written."""
        params = _write_params(data, merge_patch, updated_at)
        params["filter"] = self._params(key, **fields).get("filter", {})
        return (await self._client.call("queries.setData", params))["matched"]

    async def count(self, key: Any = None, **fields: Any) -> int:
        """How many queries match (``fetch_status="fetching"`` is useIsFetching)."""
        return (await self._client.call("queries.count", self._params(key, **fields)))["count"]

    def watch_count(self, key: Any = None, **fields: Any) -> CountSubscription:
        """An async iterator of the match count: now, then each change (``count.changed``)."""
        return CountSubscription(self._client, "queries.count", self._params(key, **fields).get("filter"))

    async def set_defaults(self, key: Any, **options: Any) -> None:
        """``queries.setDefaults``: query options (snake_case keywords, as ``query.fetch`` takes them)
        for every key under the prefix ``key``; the longest matching prefix wins. No options removes
        the entry."""
        await self._client.call("queries.setDefaults", {"key": as_key(key), "options": wire_options(options)})

    async def get_defaults(self, key: Any = None) -> Dict[str, Any]:
        """``queries.getDefaults``: ``{"queries": [{key, options}], "mutations": [...]}``, every entry,
        or with ``key`` those applying to it (shortest prefix first)."""
        return await self._client.call("queries.getDefaults", {} if key is None else {"key": as_key(key)})

    async def list(self, key: Any = None, **fields: Any) -> List[QueryState]:
        """The matches' states, each with ``observers``."""
        return [QueryState(s) for s in await self._client.call("queries.list", self._params(key, **fields))]

    async def pages(
        self, key: Any = None, *, limit: Optional[int] = None, **fields: Any
    ) -> AsyncIterator[List[QueryState]]:
        """The matches page by page (``queries.list`` with ``cursor``/``nextCursor``, protocol 2; a
        protocol-1 daemon answers everything as one page). ``limit`` caps a page (daemon default 100)."""
        params = self._params(key, **fields)
        if self._client.protocol < 2:
            yield await self.list(key, **fields)
            return
        params["cursor"] = None
        if limit is not None:
            params["limit"] = limit
        while True:
            page = await self._client.call("queries.list", params)
            if isinstance(page, list):  # a daemon that ignores cursor answers everything at once
                yield [QueryState(s) for s in page]
                return
            yield [QueryState(s) for s in page["queries"]]
            if not isinstance(page.get("nextCursor"), str):
                return
            params["cursor"] = page["nextCursor"]

    @staticmethod
    def _params(
        key: Any, exact: Any = None, type: Any = None, stale: Any = None, fetch_status: Any = None
    ) -> Dict[str, Any]:
        found = make_filter(key, exact, type, stale, fetch_status)
        return {} if found is None else {"filter": found}


class MutationAPI(_Namespace):
    """``mutation.run``: run a mutation through the mutator registered for its key."""

    async def run(self, key: Any, variables: Any = None, **options: Any) -> Any:
        """Runs the mutation and returns its data; raises MutationFailed after the retries.

        Options: ``retry``, ``retry_delay``, ``optimistic=[{"key", "data" | "merge_patch"}]``,
        ``invalidate=[filter]``, ``set_data=[{"key", "from_result"}]``, ``scope``.
        """
        params: Dict[str, Any] = {"key": as_key(key)}
        if variables is not None:
            params["variables"] = variables
        converted = wire_options(options)
        if converted:
            params["options"] = converted
        return (await self._client.call("mutation.run", params))["data"]


class MutationsAPI(_Namespace):
    """The mutation cache: ``mutations.list``, ``mutations.clear`` and ``mutation.subscribe``."""

    async def set_defaults(self, key: Any, **options: Any) -> None:
        """``mutations.setDefaults``: ``mutation.run`` options (snake_case keywords) for every mutation
        key under the prefix ``key``; the longest matching prefix wins. No options removes the entry."""
        await self._client.call("mutations.setDefaults", {"key": as_key(key), "options": wire_options(options)})

    async def list(self, filter: Optional[Dict[str, Any]] = None) -> List[MutationState]:
        """The mutations the daemon knows (matching ``filter``)."""
        params = {} if filter is None else {"filter": filter}
        return [MutationState(m) for m in await self._client.call("mutations.list", params)]

    async def pages(
        self, filter: Optional[Dict[str, Any]] = None, *, limit: Optional[int] = None
    ) -> AsyncIterator[List[MutationState]]:
        """The mutations page by page, in submission order (``mutations.list`` with
        ``cursor``/``nextCursor``, protocol 2). ``limit`` caps a page (daemon default 100)."""
        params: Dict[str, Any] = {"cursor": None}
        if filter is not None:
            params["filter"] = filter
        if limit is not None:
            params["limit"] = limit
        while True:
            page = await self._client.call("mutations.list", params)
            yield [MutationState(m) for m in page["mutations"]]
            if not isinstance(page.get("nextCursor"), str):
                return
            params["cursor"] = page["nextCursor"]

    async def clear(self) -> int:
        """Forgets settled mutations and cancels paused ones; returns how many left the cache."""
        return (await self._client.call("mutations.clear", {}))["cleared"]

    def subscribe(self, filter: Optional[Dict[str, Any]] = None) -> MutationSubscription:
        """An async iterator of MutationState: the current mutations, then every change."""
        return MutationSubscription(self._client, filter)

    async def count(self, filter: Optional[Dict[str, Any]] = None) -> int:
        """How many mutations match (``{"status": "pending"}`` is useIsMutating)."""
        params = {} if filter is None else {"filter": filter}
        return (await self._client.call("mutations.count", params))["count"]

    def watch_count(self, filter: Optional[Dict[str, Any]] = None) -> CountSubscription:
        """An async iterator of the match count: now, then each change (``count.changed``)."""
        return CountSubscription(self._client, "mutations.count", filter)


class CacheAPI(_Namespace):
    """The whole cache: ``cache.watch``, and snapshots with ``cache.dehydrate`` and ``cache.hydrate``
    (protocol 2)."""

    def watch(self, key: Any = None, *, data: bool = False) -> CacheWatch:
        """An async iterator over the whole cache (``cache.watch``): the snapshot, then each
        ``cache.changed``'s events; ``key`` narrows the queries to a prefix, ``data`` shows their data."""
        return CacheWatch(self._client, None if key is None else {"key": as_key(key)}, data)

    async def dehydrate(
        self, filter: Optional[Dict[str, Any]] = None, *, include_pending: bool = False
    ) -> Dict[str, Any]:
        """A versioned snapshot ``{"version", "queries", "mutations"}``: the successful queries
        ``filter`` matches (and pending ones with ``include_pending``) and the paused mutations."""
        params: Dict[str, Any] = {}
        if filter is not None:
            params["filter"] = filter
        if include_pending:
            params["includePending"] = True
        return await self._client.call("cache.dehydrate", params)

    async def hydrate(self, snapshot: Dict[str, Any]) -> Dict[str, int]:
        """Merges a snapshot in (newer ``dataUpdatedAt`` wins); ``{"queries": n, "mutations": m}`` written."""
        return await self._client.call("cache.hydrate", {"snapshot": snapshot})


class ServerAPI(_Namespace):
    """``server.*``: identity, liveness, counters."""

    async def hello(self, client: Any = None) -> Dict[str, Any]:
        """``{"server", "version", "protocol", "capabilities"}``."""
        return await self._client.call("server.hello", {} if client is None else {"client": client})

    async def ping(self) -> None:
        """Round trip; returns once the daemon answered."""
        await self._client.call("server.ping", {})

    async def stats(self) -> Dict[str, Any]:
        """Daemon counters (connections, queries, subscriptions, fetchers, ...)."""
        return await self._client.call("server.stats", {})


class ClockAPI(_Namespace):
    """``clock.*``: the virtual clock of a daemon started with ``--manual-clock``."""

    async def advance(self, ms: int) -> int:
        """Moves the clock ``ms`` milliseconds forward, firing due timers; returns the new time."""
        return (await self._client.call("clock.advance", {"ms": ms}))["now"]

    async def now(self) -> int:
        """The virtual time in milliseconds since the epoch."""
        return (await self._client.call("clock.now", {}))["now"]
