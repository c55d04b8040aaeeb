"""Cross-language test: a Python fetcher with the queryd_client library, kept across daemon restarts.

    python_fetcher.py SOCKET             serves ["greeting", name]: {"text", "served": n (1, 2, ...)}
    python_fetcher.py SOCKET restart     serves ["restart", name]: {"text", "fetcherReconnects": n}, n the
                                         times this fetcher reconnected (0 before a daemon restart, 1 after)
"""

import asyncio
import sys

from queryd_client import Client


async def main(path: str, mode: str) -> None:
    served = 0

    async with Client.connect(path, backoff=(0.02, 0.2)) as client:

        def greet(key):
            nonlocal served
            served += 1
            return {"text": f"hello, {key[1]}", "served": served}

        def after_restart(key):
            return {"text": f"hello, {key[1]}", "fetcherReconnects": client.reconnects}

        prefix, fetch = (["restart"], after_restart) if mode == "restart" else (["greeting"], greet)
        await client.register_fetcher(prefix, fetch)
        print("ready", flush=True)
        await client.serve_forever()


if __name__ == "__main__":
    asyncio.run(main(sys.argv[1], sys.argv[2] if len(sys.argv) > 2 else "greeting"))
