#!/usr/bin/env python3
"""waiter: N fetches paused for want of a fetcher, then a fetcher for them (bench/stalls.sh).

Prefetches the keys ["w", 0] .. ["w", N-1] on one connection (WINDOW requests in flight; no fetcher
serves ["w"], so every fetch pauses) and prints "ready N". On the first SIGUSR1 a second connection
registers a fetcher for ["w"], reads the N `fetch` requests that follow (answering none) and prints
"started N"; on the second it closes that connection with the N attempts in flight and exits.

Usage: waiter.py SOCKET N [WINDOW]
"""
import signal
import socket
import sys


def read_lines(sock: socket.socket, wanted: int, needle: bytes) -> None:
    """Reads until `wanted` lines containing `needle` arrived; exits on an error reply."""
    seen = 0
    pending = b""
    while seen < wanted:
        chunk = sock.recv(1 << 20)
        if not chunk:
            sys.exit("waiter: the daemon closed the connection")
        pending += chunk
        if b'"error":{' in pending:
            sys.exit("waiter: error reply: " + pending[:300].decode(errors="replace"))
        complete = pending[: pending.rfind(b"\n") + 1]
        seen += complete.count(needle)
        pending = pending[len(complete) :]


def main() -> None:
    path, count = sys.argv[1], int(sys.argv[2])
    window = int(sys.argv[3]) if len(sys.argv) > 3 else 1000
    client = socket.socket(socket.AF_UNIX, socket.SOCK_STREAM)
    client.connect(path)
    for start in range(0, count, window):
        end = min(start + window, count)
        lines = [
            '{"jsonrpc":"2.0","id":%d,"method":"query.prefetch","params":{"key":["w",%d]}}\n' % (i + 1, i)
            for i in range(start, end)
        ]
        client.sendall("".join(lines).encode())
        read_lines(client, end - start, b'"result"')
    print("ready", count, flush=True)
    signal.sigwait([signal.SIGUSR1])
    fetcher = socket.socket(socket.AF_UNIX, socket.SOCK_STREAM)
    fetcher.connect(path)
    fetcher.sendall(b'{"jsonrpc":"2.0","id":1,"method":"fetcher.register","params":{"key":["w"]}}\n')
    read_lines(fetcher, count + 1, b"\n")
    print("started", count, flush=True)
    signal.sigwait([signal.SIGUSR1])
    fetcher.close()
    client.close()


if __name__ == "__main__":
    signal.pthread_sigmask(signal.SIG_BLOCK, [signal.SIGUSR1])
    main()
