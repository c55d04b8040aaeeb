"""Cross-language test driver: waits for observers and writes data through the Python client.

    python_control.py SOCKET observers KEY N   -> waits until the query KEY has N observers
    python_control.py SOCKET set KEY DATA      -> query.set
"""

import asyncio
import json
import sys

from queryd_client import Client


async def main(path: str, command: str, key: list, argument: str) -> None:
    async with Client.connect(path) as client:
        if command == "observers":
            wanted = int(argument)
            while True:
                listed = await client.call("queries.list", {"filter": {"key": key, "exact": True}})
                if listed and listed[0]["observers"] >= wanted:
                    return
                await asyncio.sleep(0.01)
        elif command == "set":
            await client.call("query.set", {"key": key, "data": json.loads(argument)})
        else:
            raise SystemExit(f"unknown command {command}")


if __name__ == "__main__":
    asyncio.run(main(sys.argv[1], sys.argv[2], json.loads(sys.argv[3]), sys.argv[4]))
