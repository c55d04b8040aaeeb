"""What ``Client.connect`` returns: an awaitable that is also an async context manager, so both
``client = await Client.connect()`` and ``async with Client.connect() as client:`` work."""

from __future__ import annotations

from typing import Any, Dict, Optional

from .keys import socket_path


class Connecting:
    """What ``Client.connect`` returns: awaitable (``await Client.connect()``) and an async context
    manager (``async with Client.connect() as client:``) that closes the client on exit."""

    def __init__(self, factory: Any, path: Optional[str], options: Dict[str, Any]) -> None:
        self._factory = factory
        self._path = path
        self._options = options
        self._client: Any = None

    def __await__(self):
        return self._open().__await__()

    async def _open(self) -> Any:
        client = self._factory(socket_path(self._path), **self._options)
        await client._start()
        self._client = client
        return client

    async def __aenter__(self) -> Any:
        return await self._open()

    async def __aexit__(self, *exc_info: Any) -> None:
        if self._client is not None:
            await self._client.close()
