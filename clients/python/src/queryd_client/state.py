"""Values the daemon returns: query and mutation states, and the page result a fetcher returns.

States stay plain dicts with the wire's camelCase members (so they print and serialise as JSON),
and also answer snake_case attribute access: ``state.is_success``, ``state.data_updated_at``.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from .keys import camel


class WireObject(dict):
    """A JSON object from the daemon with attribute access by snake_case name."""

    def __getattr__(self, name: str) -> Any:
        try:
            return self[camel(name)]
        except KeyError:
            if name == "data":
                return None
            raise AttributeError(name) from None


class QueryState(WireObject):
    """A query's state (see protocol/state.md). ``state.data`` is None when there is no data."""


class MutationState(WireObject):
    """A mutation's state: id, key, status, variables, data, error, failure_count, ..."""


@dataclass
class PageResult:
    """What a fetcher of an infinite query returns: one page and the params of its neighbours.

    ``None`` for a neighbour param means there is no such page.
    """

    data: Any
    next_page_param: Any = None
    previous_page_param: Any = None

    def to_wire(self) -> dict:
        """The fetch answer object."""
        answer = {"data": self.data}
        if self.next_page_param is not None:
            answer["nextPageParam"] = self.next_page_param
        if self.previous_page_param is not None:
            answer["previousPageParam"] = self.previous_page_param
        return answer
