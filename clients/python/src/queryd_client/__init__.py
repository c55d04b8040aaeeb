"""queryd_client: talk to queryd (TanStack Query's cache as a daemon) from Python.

    import asyncio
    from queryd_client import Client

    async def main():
        async with Client.connect() as client:
            await client.register_fetcher(["todos"], lambda key: ["buy milk"])
            async for state in client.subscribe(["todos"]):
                print(state.status, state.data)

The asyncio ``Client`` is the main API; ``queryd_client.sync.Client`` wraps it for scripts.
Protocols: queryd protocol 2, and protocol 1 with an older daemon (see protocol/README.md).
"""

__version__ = "0.1.0"

from .client import Client  # noqa: E402
from .errors import (  # noqa: E402
    AttemptTimeout,
    CancelledByServer,
    ClientClosed,
    ConnectFailed,
    ConnectionLost,
    FetchFailed,
    HandlerError,
    InternalError,
    InvalidParams,
    InvalidRequest,
    LimitExceeded,
    MethodNotFound,
    MutationFailed,
    NoFetcher,
    ParseError,
    PermissionDenied,
    QuerydConnectionError,
    QuerydError,
    RequestCancelled,
    RPCError,
    TooManyConnections,
    UnknownID,
    VersionConflict,
)
from .handlers import Registration  # noqa: E402
from .keys import socket_path  # noqa: E402
from .state import MutationState, PageResult, QueryState  # noqa: E402
from .subscription import CacheWatch, CountSubscription, MutationSubscription, Subscription  # noqa: E402

__all__ = [
    "AttemptTimeout", "CacheWatch", "CancelledByServer", "Client", "CountSubscription", "ClientClosed", "ConnectFailed", "ConnectionLost",
    "FetchFailed", "HandlerError", "InternalError", "InvalidParams", "InvalidRequest", "LimitExceeded",
    "MethodNotFound", "MutationFailed", "MutationState", "MutationSubscription", "NoFetcher", "PageResult",
    "ParseError", "PermissionDenied", "QueryState", "QuerydConnectionError", "QuerydError", "Registration",
    "RequestCancelled", "RPCError", "Subscription", "TooManyConnections", "UnknownID", "VersionConflict", "socket_path",
]
