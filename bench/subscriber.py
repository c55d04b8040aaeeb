#!/usr/bin/env python3
"""subscriber: holds N subscriptions on one connection, then closes it on SIGUSR1 (bench/stalls.sh).

Subscribes to the keys ["m", 0] .. ["m", N-1] (staleTime one hour, so nothing is refetched), WINDOW
requests in flight, prints "ready N" once every reply came, waits for SIGUSR1, closes the socket and
exits: the daemon then ends N subscriptions of a closed connection.

Usage: subscriber.py SOCKET N [WINDOW]
"""
import signal
import socket
import sys


def main() -> None:
    path, count = sys.argv[1], int(sys.argv[2])
    window = int(sys.argv[3]) if len(sys.argv) > 3 else 1000
    sock = socket.socket(socket.AF_UNIX, socket.SOCK_STREAM)
    sock.connect(path)
    received = 0
    pending = b""
    for start in range(0, count, window):
        end = min(start + window, count)
        lines = [
            '{"jsonrpc":"2.0","id":%d,"method":"query.subscribe","params":{"key":["m",%d],'
            '"options":{"staleTime":3600000}}}\n' % (i + 1, i)
            for i in range(start, end)
        ]
        sock.sendall("".join(lines).encode())
        while received < end:
            chunk = sock.recv(1 << 20)
            if not chunk:
                sys.exit("subscriber: the daemon closed the connection")
            pending += chunk
            if b'"error":{' in pending:
                sys.exit("subscriber: error reply: " + pending[:300].decode(errors="replace"))
            received += pending.count(b"\n")
            pending = pending[pending.rfind(b"\n") + 1 :]
    print("ready", received, flush=True)
    signal.sigwait([signal.SIGUSR1])
    sock.close()


if __name__ == "__main__":
    signal.pthread_sigmask(signal.SIG_BLOCK, [signal.SIGUSR1])
    main()
