"""Cross-language test: a Python fetcher serving ["greeting", name] keys with the queryd_client library."""

import asyncio
import sys

from queryd_client import Client


async def main(path: str) -> None:
    served = 0

    def fetch(key):
        nonlocal served
        served += 1
        return {"text": f"hello, {key[1]}", "served": served}

    async with Client.connect(path) as client:
        await client.register_fetcher(["greeting"], fetch)
        print("ready", flush=True)
        await client.serve_forever()


if __name__ == "__main__":
    asyncio.run(main(sys.argv[1]))
