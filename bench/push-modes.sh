#!/usr/bin/env bash
# push-modes.sh: bytes per `query.changed` push in each push mode (protocol 2's options.push: "state",
# "meta", "patch") for an 88 KB value, in three changes a subscriber is pushed:
#   stale flip      the data turns stale (manual clock moved past staleTime): only isStale changes
#   same data       a refetch whose fetcher answers the data the query already has (two pushes:
#                   fetching, then success)
#   one member      query.set with a one-member merge patch
# Three subscriptions (one per mode, each on its own connection) watch the same key; each change is
# made ROUNDS times and the bytes of the push lines (newline included) each subscriber reads are
# averaged per push. Prints one Markdown table. Byte counts do not depend on the machine or the build.
#
# Environment (all optional):
#   ROUNDS=5                    changes of each kind
#   MEMBERS=1000                members of the value (77-byte strings: 88,001 bytes in all)
#   QUERYD_BIN, BUILD_TIMEOUT   as in cache-hit.sh (QUERYD_BIN=.build/debug/queryd is as good here)
#   BENCH_TIMEOUT=600           the whole script's time limit, in seconds
set -euo pipefail
NAME=push-modes
BENCH_TIMEOUT=${BENCH_TIMEOUT:-600}
PIN=${PIN:-0}
# shellcheck source=bench/lib.sh
source "$(dirname "${BASH_SOURCE[0]}")/lib.sh"
ROUNDS=${ROUNDS:-5}
MEMBERS=${MEMBERS:-1000}

bench_init
command -v python3 >/dev/null || fail "python3 is needed"
build_queryd
QUERYD_ARGS="$QUERYD_ARGS --manual-clock" start_queryd

python3 - "$QUERYD_SOCK" "$ROUNDS" "$MEMBERS" <<'PY'
import json, socket, sys

path, rounds, members = sys.argv[1], int(sys.argv[2]), int(sys.argv[3])
KEY = ["bench", "push-modes"]
MODES = ["state", "meta", "patch"]

class Client:
    def __init__(self):
        self.sock = socket.socket(socket.AF_UNIX, socket.SOCK_STREAM)
        self.sock.connect(path)
        self.buf = b""
        self.next_id = 0
        self.pushed = 0   # bytes of query.changed lines read
        self.pushes = 0
        self.requests = []  # server->client requests read

    def line(self):
        while b"\n" not in self.buf:
            chunk = self.sock.recv(1 << 20)
            if not chunk:
                raise SystemExit("queryd closed the connection")
            self.buf += chunk
        raw, self.buf = self.buf.split(b"\n", 1)
        return raw

    def call(self, method, params):
        self.next_id += 1
        rid = self.next_id
        self.sock.sendall(json.dumps({"jsonrpc": "2.0", "id": rid, "method": method, "params": params}).encode() + b"\n")
        while True:
            raw = self.line()
            message = json.loads(raw)
            if message.get("method") == "query.changed":
                self.pushed += len(raw) + 1
                self.pushes += 1
            elif "method" in message and "id" in message:
                self.requests.append(message)
            elif message.get("id") == rid:
                if "error" in message:
                    raise SystemExit(f"{method}: {message['error']}")
                return message["result"]

    def respond(self, rid, result):
        self.sock.sendall(json.dumps({"jsonrpc": "2.0", "id": rid, "result": result}).encode() + b"\n")

    def fetch_request(self):
        while not self.requests:
            message = json.loads(self.line())
            if "method" in message and "id" in message:
                self.requests.append(message)
        return self.requests.pop(0)

value = {f"m{i:04d}": f"{i:04d}" + "x" * 73 for i in range(members)}
writer = Client()
fetcher = Client()
fetcher.call("fetcher.register", {"key": KEY})
writer.call("query.set", {"key": KEY, "data": value})
size = len(json.dumps(value, separators=(",", ":")))
subscribers = {}
for mode in MODES:
    client = Client()
    client.call("query.subscribe", {"key": KEY, "options": {"push": mode, "staleTime": 1000, "refetchOnFocus": False}})
    subscribers[mode] = client

def settle():
    """Waits until every subscriber has read what was pushed so far (a ping answered after it)."""
    for client in subscribers.values():
        client.call("server.ping", {})

def measure(before, change):
    """Runs `before` (not counted) then `change` ROUNDS times; bytes per counted push and pushes, by mode."""
    totals = {mode: [0, 0] for mode in MODES}
    for n in range(rounds):
        before(n)
        settle()
        for client in subscribers.values():
            client.pushed = client.pushes = 0
        change(n)
        settle()
        for mode, client in subscribers.items():
            totals[mode][0] += client.pushed
            totals[mode][1] += client.pushes
    return {mode: (t[0] / t[1] if t[1] else 0, t[1]) for mode, t in totals.items()}

def fresh_again(n):
    writer.call("query.set", {"key": KEY, "data": value})

def stale_flip(n):
    writer.call("clock.advance", {"ms": 1000})

def nothing(n):
    pass

def same_data(n):
    # The refetch's reply waits for the fetch; the writer does not wait for it.
    writer.sock.sendall(json.dumps({"jsonrpc": "2.0", "id": "r", "method": "query.refetch", "params": {"key": KEY}}).encode() + b"\n")
    request = fetcher.fetch_request()
    fetcher.respond(request["id"], {"data": value})
    fetcher.call("server.ping", {})

def one_member(n):
    writer.call("query.set", {"key": KEY, "mergePatch": {"m0500": f"changed {n}"}})

rows = [
    ("stale flip (only isStale changes)", measure(fresh_again, stale_flip)),
    ("refetch, same data (fetching, then success)", measure(nothing, same_data)),
    ("one-member merge patch", measure(nothing, one_member)),
]

print(f"#### Bytes per push by push mode ({size:,}-byte value, {rounds} changes of each kind)")
print()
print("| change | pushes each | state | meta | patch |")
print("|---|---:|---:|---:|---:|")
for title, result in rows:
    counts = {p for _, p in result.values()}
    cells = " | ".join(f"{result[m][0]:,.0f}" for m in MODES)
    print(f"| {title} | {'/'.join(str(c) for c in sorted(counts))} | {cells} |")
PY
