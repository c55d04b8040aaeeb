#!/usr/bin/env python3
"""cluster-client.py: the clients of bench/cluster.sh, over the nodes' Unix sockets.

  latency SUB_SOCK WRITER_SOCK N    N times: a write on the writer's node, then a timed
                                    `queries.invalidate` there until the subscriber's node pushes
                                    `isInvalidated: true`; prints {"p50_us", "p99_us", "max_us", "n"}
  herd CALLERS SOCK...              one fetcher per node; CALLERS `query.fetch` of one cold key spread
                                    over the nodes (10 connections each, pipelined); the fetcher that
                                    is called answers after 50 ms; prints {"fetcher_calls", "ms", "answered"}
"""
import json
import os
import selectors
import socket
import sys
import time


class Line:
    """One newline-delimited JSON-RPC connection."""

    def __init__(self, path):
        self.sock = socket.socket(socket.AF_UNIX, socket.SOCK_STREAM)
        self.sock.connect(path)
        self.buffer = b""
        self.next_id = 0

    def send(self, method, params):
        self.next_id += 1
        self.sock.sendall(json.dumps({"jsonrpc": "2.0", "id": self.next_id, "method": method, "params": params}).encode() + b"\n")
        return self.next_id

    def read(self, timeout=10):
        while b"\n" not in self.buffer:
            self.sock.settimeout(timeout)
            chunk = self.sock.recv(1 << 16)
            if not chunk:
                raise SystemExit("connection closed")
            self.buffer += chunk
        line, self.buffer = self.buffer.split(b"\n", 1)
        return json.loads(line)

    def lines(self):
        """Every complete line buffered so far, after one non-blocking read."""
        self.sock.setblocking(False)
        try:
            chunk = self.sock.recv(1 << 20)
            if chunk:
                self.buffer += chunk
        except BlockingIOError:
            pass
        self.sock.setblocking(True)
        out = []
        while b"\n" in self.buffer:
            line, self.buffer = self.buffer.split(b"\n", 1)
            out.append(json.loads(line))
        return out

    def call(self, method, params):
        wanted = self.send(method, params)
        while True:
            message = self.read()
            if message.get("id") == wanted and "method" not in message:
                if "error" in message:
                    raise SystemExit(f"{method}: {message['error']}")
                return message["result"]


def wait_push(sub, predicate):
    while True:
        message = sub.read()
        if message.get("method") == "query.changed" and predicate(message["params"]["state"]):
            return


def latency(sub_path, writer_path, n):
    sub, writer = Line(sub_path), Line(writer_path)
    key = ["bench", "latency", os.getpid()]
    writer.call("query.set", {"key": key, "data": 0})
    deadline = time.time() + 10
    while (sub.call("query.state", {"key": key}) or {}).get("data") != 0:
        if time.time() > deadline:
            raise SystemExit("the write never reached the subscriber's node")
        time.sleep(0.01)
    sub.call("query.subscribe", {"key": key, "options": {"staleTime": "Infinity"}})
    samples = []
    for i in range(1, n + 1):
        writer.call("query.set", {"key": key, "data": i})
        wait_push(sub, lambda s: s.get("data") == i and not s["isInvalidated"])
        start = time.perf_counter()
        writer.send("queries.invalidate", {"filter": {"key": key, "exact": True}, "refetchType": "none"})
        wait_push(sub, lambda s: s["isInvalidated"])
        samples.append((time.perf_counter() - start) * 1e6)
        writer.read()
    samples.sort()
    pick = lambda q: samples[min(len(samples) - 1, int(q * len(samples)))]
    print(json.dumps({"n": n, "p50_us": round(pick(0.5)), "p99_us": round(pick(0.99)), "max_us": round(samples[-1])}, separators=(",", ":")))


def herd(callers, paths):
    key = ["bench", "herd", os.getpid(), time.time()]
    fetchers = [Line(p) for p in paths]
    for f in fetchers:
        f.call("fetcher.register", {"key": ["bench", "herd"]})
    connections = [Line(p) for p in paths for _ in range(10)]
    sent = [0] * len(connections)
    start = time.perf_counter()
    for i in range(callers):
        index = i % len(connections)
        connections[index].send("query.fetch", {"key": key})
        sent[index] += 1
    selector = selectors.DefaultSelector()
    for f in fetchers:
        selector.register(f.sock, selectors.EVENT_READ, ("fetcher", f))
    for c in connections:
        selector.register(c.sock, selectors.EVENT_READ, ("caller", c))
    calls, answered, pending = 0, 0, []
    deadline = time.time() + 60
    while answered < callers and time.time() < deadline:
        for who, request_id, at in list(pending):
            if time.perf_counter() >= at:
                who.sock.sendall(json.dumps({"jsonrpc": "2.0", "id": request_id, "result": {"data": "herd"}}).encode() + b"\n")
                pending.remove((who, request_id, at))
        for event, _ in selector.select(timeout=0.005):
            kind, line = event.data
            for message in line.lines():
                if kind == "fetcher" and message.get("method") == "fetch":
                    calls += 1
                    pending.append((line, message["id"], time.perf_counter() + 0.05))
                elif kind == "caller" and "id" in message and "method" not in message:
                    if message.get("result", {}).get("data") == "herd":
                        answered += 1
    print(json.dumps({"callers": callers, "nodes": len(paths), "fetcher_calls": calls, "answered": answered,
                      "ms": round((time.perf_counter() - start) * 1000, 1)}, separators=(",", ":")))


if __name__ == "__main__":
    if sys.argv[1] == "latency":
        latency(sys.argv[2], sys.argv[3], int(sys.argv[4]))
    elif sys.argv[1] == "herd":
        herd(int(sys.argv[2]), sys.argv[3:])
    else:
        raise SystemExit(__doc__)
