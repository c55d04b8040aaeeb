#!/usr/bin/env python3
"""mutinvalidate: one mutation whose `invalidate` filter matches every query under ["m"] (bench/stalls.sh).

Registers a mutator for ["t"] on one connection, runs `mutation.run` of ["t"] with
`invalidate: [{"key": ["m"]}]` on another, answers the `mutate` request with `{"data": 1}`, waits for
the mutation's answer and prints {"ms": <time from the run to its answer>}.

Usage: mutinvalidate.py SOCKET
"""
import json
import socket
import sys
import time


class Lines:
    """The JSON lines read from one connection."""

    def __init__(self, path: str) -> None:
        self.sock = socket.socket(socket.AF_UNIX, socket.SOCK_STREAM)
        self.sock.connect(path)
        self.pending = b""

    def send(self, message: dict) -> None:
        self.sock.sendall((json.dumps(message) + "\n").encode())

    def next(self) -> dict:
        while b"\n" not in self.pending:
            chunk = self.sock.recv(1 << 16)
            if not chunk:
                sys.exit("mutinvalidate: the daemon closed the connection")
            self.pending += chunk
        line, self.pending = self.pending.split(b"\n", 1)
        message = json.loads(line)
        if "error" in message:
            sys.exit("mutinvalidate: error: " + line.decode(errors="replace")[:300])
        return message


def main() -> None:
    mutator, client = Lines(sys.argv[1]), Lines(sys.argv[1])
    mutator.send({"jsonrpc": "2.0", "id": 1, "method": "mutator.register", "params": {"key": ["t"]}})
    mutator.next()
    started = time.monotonic()
    options = {"invalidate": [{"key": ["m"]}]}
    client.send({"jsonrpc": "2.0", "id": 1, "method": "mutation.run", "params": {"key": ["t"], "options": options}})
    request = mutator.next()
    mutator.send({"jsonrpc": "2.0", "id": request["id"], "result": {"data": 1}})
    client.next()
    print(json.dumps({"ms": round((time.monotonic() - started) * 1000, 1)}, separators=(",", ":")))


if __name__ == "__main__":
    main()
