"""What keeps a client going when the daemon is away: the reconnect backoff (exponential with full
jitter), waiting for a daemon that is starting, the connection-state listeners, and the calls that
are safe to send again when the connection dropped before their reply.
"""

from __future__ import annotations

import asyncio
import random
import time
from typing import Any, Awaitable, Callable, List, Optional

from .errors import ConnectFailed

#: Methods re-sent on the new connection when the old one dropped before their reply: they read, or
#: fetch through the daemon's dedupe, so sending them twice cannot change the cache twice.
IDEMPOTENT = frozenset({"query.get", "query.state", "query.fetch", "query.ensure"})

#: The connection states a client reports, in the order they can happen.
STATES = ("connecting", "connected", "reconnecting", "closed")

StateListener = Callable[[str, Optional[str]], None]


class Backoff:
    """Delays between reconnect attempts: ``initial`` doubling up to ``maximum``, each one drawn
    uniformly from ``[delay / 2, delay]`` (jitter) so clients of a restarted daemon do not all come
    back at the same instant."""

    def __init__(self, initial: float = 0.05, maximum: float = 2.0, rng: Optional[random.Random] = None) -> None:
        self.initial = initial
        self.maximum = maximum
        self._rng = rng or random.Random()
        self._delay = initial

    def next(self) -> float:
        """The next delay in seconds."""
        delay = self._delay
        self._delay = min(self._delay * 2, self.maximum)
        return delay / 2 + self._rng.random() * delay / 2

    def reset(self) -> None:
        """Starts over at ``initial`` (after a successful connect)."""
        self._delay = self.initial


class StateListeners:
    """The callbacks given to ``Client.on_connection_state``."""

    def __init__(self) -> None:
        self._listeners: List[StateListener] = []
        #: The current state (one of STATES).
        self.state = "connecting"

    def add(self, listener: StateListener) -> Callable[[], None]:
        self._listeners.append(listener)
        return lambda: self._listeners.remove(listener) if listener in self._listeners else None

    def change(self, state: str, reason: Optional[str] = None) -> None:
        if state == self.state:
            return
        self.state = state
        for listener in list(self._listeners):
            listener(state, reason)


async def open_waiting(open_once: Callable[[], Awaitable[Any]], wait: float, backoff: Backoff) -> Any:
    """Calls ``open_once`` until it succeeds, retrying a ConnectFailed for ``wait`` seconds: a daemon
    that is starting has not created (or not yet listens on) its socket."""
    deadline = time.monotonic() + wait
    while True:
        try:
            return await open_once()
        except ConnectFailed:
            remaining = deadline - time.monotonic()
            if remaining <= 0:
                raise
            await asyncio.sleep(min(backoff.next(), remaining))

