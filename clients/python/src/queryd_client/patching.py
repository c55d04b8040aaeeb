"""Protocol 2 push modes on the client side: rebuilding full states from ``patch`` pushes.

With ``push="patch"`` the daemon sends a full state first, then pushes that carry either the full
data, a JSON Merge Patch (RFC 7396) from the data last sent (``{baseVersion, version, patch}``), or
nothing when the data is unchanged. A PatchTracker keeps ``(dataVersion, data)`` for one
subscription and turns each push back into a state with ``data``; when its base does not match, it
says so and the subscription re-reads the data with ``query.state``.
"""

from __future__ import annotations

import copy
from typing import Any, Dict, Optional, Tuple

_NO_DATA: Any = object()


def merge_patch(target: Any, patch: Any) -> Any:
    """RFC 7396: applies ``patch`` to ``target`` and returns the result (``target`` is not changed)."""
    if not isinstance(patch, dict):
        return copy.deepcopy(patch)
    result: Dict[str, Any] = dict(target) if isinstance(target, dict) else {}
    for name, value in patch.items():
        if value is None:
            result.pop(name, None)
        else:
            result[name] = merge_patch(result.get(name), value)
    return result


class PatchTracker:
    """The data last delivered to one subscription and the ``dataVersion`` it belongs to."""

    def __init__(self) -> None:
        self.data_version: Optional[int] = None
        self.data: Any = _NO_DATA

    def reset(self) -> None:
        """Forgets the base (a ``resync``, an epoch change): the next state must be full."""
        self.data_version = None
        self.data = _NO_DATA

    def accept_full(self, state: Dict[str, Any]) -> Dict[str, Any]:
        """A state that carries its own data (or says there is none): it becomes the new base."""
        if "data" in state:
            self.data_version = state.get("dataVersion")
            self.data = state["data"]
        elif "dataVersion" not in state:
            self.reset()
        return state

    def rebuild(self, params: Dict[str, Any]) -> Tuple[Optional[Dict[str, Any]], Optional[int]]:
        """The full state for one ``query.changed``, or ``(None, version)`` when the data must be re-read
        (the base is not the one the daemon patched or referred to); ``version`` is the wanted dataVersion."""
        state = params["state"]
        if params.get("resync"):
            self.reset()
        if "data" in state:
            return self.accept_full(state), None
        patch = params.get("patch")
        if isinstance(patch, dict):
            if self.data is _NO_DATA or patch.get("baseVersion") != self.data_version:
                return None, patch.get("version")
            self.data = merge_patch(self.data, patch.get("patch"))
            self.data_version = patch.get("version")
            return {**state, "data": self.data}, None
        wanted = state.get("dataVersion")
        if wanted is None:
            self.reset()
            return state, None
        if wanted != self.data_version or self.data is _NO_DATA:
            return None, wanted
        return {**state, "data": self.data}, None

    def reread(self, state: Dict[str, Any], read: Optional[Dict[str, Any]], version: Optional[int]) -> Dict[str, Any]:
        """Completes ``state`` with the data of a ``query.state`` re-read (``read``, None when uncached)."""
        if read is None or "data" not in read:
            self.reset()
            return state
        self.data = read["data"]
        self.data_version = read.get("dataVersion", version)
        return {**state, "data": self.data}
