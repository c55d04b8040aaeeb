"""Fetchers and mutators: the registrations a client keeps, and how one server request is served.

A Registration remembers what was registered (prefix, options, the Python function) so the client
can register it again after a reconnect; its wire id changes then. The function is called with
only the keyword arguments it declares, so ``async def fetch(key)`` and
``async def fetch(key, page_param=None, direction=None, meta=None, attempt=1, progress=None)`` both
work; ``progress(data)`` streams the data so far to the daemon (``fetch.progress``). Plain
(non-async) functions run in the default executor so they cannot block the event loop.
"""

from __future__ import annotations

import asyncio
import functools
import inspect
from typing import Any, Awaitable, Callable, Dict, List, Optional, Set

from .errors import HandlerError, RPCError
from .state import PageResult

#: The code an exception other than HandlerError is answered with: JSON-RPC's first
#: implementation-defined server error, the same in every queryd client.
HANDLER_ERROR_CODE = -32000

Handler = Callable[..., Any]


class Registration:
    """A fetcher or mutator registered by this client (kept across reconnects).

    ``id`` is the daemon's current id for it (None while disconnected).
    """

    def __init__(
        self,
        kind: str,
        params: Dict[str, Any],
        handler: Handler,
        unregister: Callable[["Registration"], Awaitable[None]],
    ) -> None:
        self.kind = kind
        self.params = params
        self.handler = handler
        self.id: Optional[int] = None
        self._unregister = unregister
        self._accepted = _accepted_keywords(handler)
        self._is_async = _is_async_callable(handler)

    @property
    def key(self) -> List[Any]:
        """The key prefix served."""
        return self.params["key"]

    async def unregister(self) -> None:
        """Stops serving (``fetcher.unregister`` / ``mutator.unregister``)."""
        await self._unregister(self)

    async def call(self, positional: List[Any], keywords: Dict[str, Any]) -> Any:
        """Runs the handler with the keywords it accepts and returns its (awaited) result."""
        chosen = {k: v for k, v in keywords.items() if self._accepted is None or k in self._accepted}
        if self._is_async:
            return await self.handler(*positional, **chosen)
        loop = asyncio.get_running_loop()
        result = await loop.run_in_executor(None, functools.partial(self.handler, *positional, **chosen))
        if inspect.isawaitable(result):
            result = await result
        return result


def _accepted_keywords(handler: Handler) -> Optional[Set[str]]:
    try:
        parameters = inspect.signature(handler).parameters.values()
    except (TypeError, ValueError):
        return None
    if any(p.kind is inspect.Parameter.VAR_KEYWORD for p in parameters):
        return None
    return {p.name for p in parameters if p.kind in (p.POSITIONAL_OR_KEYWORD, p.KEYWORD_ONLY)}


def _is_async_callable(handler: Handler) -> bool:
    if inspect.iscoroutinefunction(handler):
        return True
    call = getattr(handler, "__call__", None)
    return call is not None and inspect.iscoroutinefunction(call)


def error_object(error: BaseException) -> Dict[str, Any]:
    """The wire error object a handler's exception is answered with."""
    if isinstance(error, (HandlerError, RPCError)):
        return error.to_wire()
    name = type(error).__name__
    return {"code": HANDLER_ERROR_CODE, "message": str(error) or name, "data": {"type": name}}


async def serve_fetch(
    registration: Registration, params: Dict[str, Any], progress: Callable[[Any], None]
) -> Dict[str, Any]:
    """Runs a fetcher for one ``fetch`` request and returns the answer object (``{"data": ...}``)."""
    keywords = {
        "page_param": params.get("pageParam"),
        "direction": params.get("direction"),
        "meta": params.get("meta"),
        "attempt": params.get("attempt", 1),
        "progress": progress,
    }
    result = await registration.call([params.get("key")], keywords)
    if isinstance(result, PageResult):
        return result.to_wire()
    return {"data": result}


async def serve_mutate(
    registration: Registration, params: Dict[str, Any], progress: Callable[[Any], None]
) -> Dict[str, Any]:
    """Runs a mutator for one ``mutate`` request and returns the answer object (``{"data": ...}``);
    ``progress`` is unused (mutations do not stream)."""
    keywords = {"attempt": params.get("attempt", 1)}
    result = await registration.call([params.get("key"), params.get("variables")], keywords)
    return {"data": result}
