"""Query keys, socket paths and option names: the small conversions between Python and the wire.

Python callers write options in snake_case (``stale_time=1000``); the wire uses lowerCamelCase
(``staleTime``). Only option *names* are converted, never user values such as ``meta`` or ``data``.
"""

from __future__ import annotations

import json
import os
from typing import Any, Dict, List, Mapping, Optional

#: Options whose value is a list of objects (or one object) whose member names are converted too.
_STRUCTURED = {"infinite", "optimistic", "setData", "invalidate", "defaults"}


def as_key(key: Any) -> List[Any]:
    """Returns ``key`` as a JSON array (a list); tuples are accepted, strings are refused."""
    if isinstance(key, (list, tuple)):
        return list(key)
    raise TypeError(f"a query key is a list such as ['todos', 1], not {type(key).__name__}: {key!r}")


def key_text(key: List[Any]) -> str:
    """The canonical JSON text of a key (members sorted), usable as a dict key."""
    return json.dumps(key, sort_keys=True, separators=(",", ":"), ensure_ascii=False)


def camel(name: str) -> str:
    """``stale_time`` -> ``staleTime``; a name without underscores is returned unchanged."""
    head, *rest = name.split("_")
    return head + "".join(part[:1].upper() + part[1:] for part in rest)


def snake(name: str) -> str:
    """``staleTime`` -> ``stale_time``."""
    return "".join("_" + c.lower() if c.isupper() else c for c in name)


def wire_options(options: Mapping[str, Any]) -> Dict[str, Any]:
    """Converts keyword options to wire options.

    ``initial_page_param`` and ``max_pages`` given at the top level are folded into ``infinite``,
    as TanStack's ``useInfiniteQuery`` takes them.
    """
    result: Dict[str, Any] = {}
    infinite: Dict[str, Any] = {}
    for name, value in options.items():
        wire = camel(name)
        if wire in ("initialPageParam", "maxPages"):
            infinite[wire] = value
        elif wire in _STRUCTURED:
            result[wire] = _convert_members(value)
        else:
            result[wire] = value
    if infinite:
        merged = dict(result.get("infinite") or {})
        merged.update(infinite)
        result["infinite"] = merged
    return result


def _convert_members(value: Any) -> Any:
    if isinstance(value, dict):
        return {camel(k): v for k, v in value.items()}
    if isinstance(value, (list, tuple)):
        return [_convert_members(item) for item in value]
    return value


def make_filter(
    key: Any = None,
    exact: Optional[bool] = None,
    type: Optional[str] = None,
    stale: Optional[bool] = None,
    fetch_status: Optional[str] = None,
) -> Optional[Dict[str, Any]]:
    """A queries filter from keyword fields; ``None`` (every query) when nothing is given."""
    result: Dict[str, Any] = {}
    if key is not None:
        result["key"] = as_key(key)
    if exact is not None:
        result["exact"] = exact
    if type is not None:
        result["type"] = type
    if stale is not None:
        result["stale"] = stale
    if fetch_status is not None:
        result["fetchStatus"] = fetch_status
    return result or None


def socket_path(explicit: Optional[str] = None, environ: Optional[Mapping[str, str]] = None) -> str:
    """Resolves the socket path as the daemon does: ``explicit``, ``$QUERYD_SOCKET``,
    ``$XDG_RUNTIME_DIR/queryd.sock`` (absolute only), else ``/tmp/queryd-<uid>.sock``."""
    env = os.environ if environ is None else environ
    if explicit:
        return explicit
    configured = env.get("QUERYD_SOCKET")
    if configured:
        return configured
    runtime = env.get("XDG_RUNTIME_DIR")
    if runtime and runtime.startswith("/"):
        return runtime + ("queryd.sock" if runtime.endswith("/") else "/queryd.sock")
    return f"/tmp/queryd-{os.getuid()}.sock"
