#!/usr/bin/env bash
# Cross-language test. Part 1: a Python fetcher serves a Swift subscriber and a Node subscriber at the
# same time; both must print exactly the same sequence of states. Part 2: a daemon restart with a
# Python fetcher and Swift and Node subscribers (all three libraries reconnect, register and
# subscribe again): both subscribers must see the data served before and after the restart.
# Run from anywhere: bash clients/cross-language/run.sh
set -euo pipefail

ROOT=$(cd "$(dirname "$0")/../.." && pwd)
HERE="$ROOT/clients/cross-language"
if [[ -z "${QUERYD_BIN:-}" ]]; then
    (cd "$ROOT" && swift build --product queryd >&2)
    QUERYD_BIN="$ROOT/.build/debug/queryd"
fi
if [[ -z "${SWIFT_EXAMPLE:-}" ]]; then
    (cd "$ROOT" && swift build --product QuerydClientExample >&2)
    SWIFT_EXAMPLE="$ROOT/.build/debug/QuerydClientExample"
fi
export PYTHONPATH="$ROOT/clients/python/src${PYTHONPATH:+:$PYTHONPATH}"

WORK=$(mktemp -d /tmp/qd-xlang.XXXXXX)
SOCK="$WORK/q.sock"
PIDS=()
cleanup() {
    for pid in "${PIDS[@]}"; do kill "$pid" 2>/dev/null || true; done
    wait 2>/dev/null || true
    rm -rf "$WORK"
}
trap cleanup EXIT

# Waits (at most 10 s) until FILE has a line containing PATTERN (fixed string).
wait_for() {
    local file=$1 pattern=$2 deadline=$((SECONDS + 10))
    until grep -qF -- "$pattern" "$file" 2>/dev/null; do
        if ((SECONDS >= deadline)); then
            echo "timed out waiting for $pattern in $file:" >&2
            cat "$file" >&2
            exit 1
        fi
        sleep 0.01
    done
}

KEY='["greeting","xlang"]'
FINAL='{"step":3,"text":"set by python"}'

start_daemon() {
    "$QUERYD_BIN" serve --socket "$SOCK" --log-level warning 2>> "$WORK/daemon.log" &
    DAEMON_PID=$!
    PIDS+=("$DAEMON_PID")
    for _ in $(seq 500); do [[ -S "$SOCK" ]] && break; sleep 0.01; done
}
start_daemon

# 1. Both subscribers subscribe before any fetcher exists: the query waits, paused.
"$SWIFT_EXAMPLE" subscriber --socket "$SOCK" --key "$KEY" --until-data "$FINAL" > "$WORK/swift.out" &
PIDS+=($!)
SWIFT_PID=$!
node "$HERE/node_subscriber.js" "$SOCK" "$KEY" "$FINAL" > "$WORK/node.out" &
PIDS+=($!)
NODE_PID=$!
python3 "$HERE/python_control.py" "$SOCK" observers "$KEY" 2
wait_for "$WORK/swift.out" '"paused"'
wait_for "$WORK/node.out" '"paused"'

# 2. The Python fetcher registers and serves the fetch: fetching, then success.
python3 "$HERE/python_fetcher.py" "$SOCK" > "$WORK/fetcher.out" &
PIDS+=($!)
wait_for "$WORK/swift.out" '"served":1'
wait_for "$WORK/node.out" '"served":1'

# 3. Two writes through the Python client.
python3 "$HERE/python_control.py" "$SOCK" set "$KEY" '{"step":2,"text":"set by python"}'
wait_for "$WORK/swift.out" '"step":2'
wait_for "$WORK/node.out" '"step":2'
python3 "$HERE/python_control.py" "$SOCK" set "$KEY" "$FINAL"
wait "$SWIFT_PID"
wait "$NODE_PID"

# Each line is {data?, fetchStatus, status, version}. Both subscribers must have seen the identical
# sequence; it must start paused, and its data must go: served by Python, step 2, step 3, each once.
status=0
if ! cmp -s "$WORK/swift.out" "$WORK/node.out"; then
    echo "FAIL: the subscribers saw different states" >&2
    diff "$WORK/swift.out" "$WORK/node.out" >&2 || true
    status=1
fi
first=$(head -n 1 "$WORK/swift.out")
if [[ "$first" != '{"fetchStatus":"paused","status":"pending","version":'* ]]; then
    echo "FAIL: the first state is not paused/pending: $first" >&2
    status=1
fi
data_sequence=$(grep -o '"data":{[^}]*}' "$WORK/swift.out" | uniq | tr '\n' ' ')
expected_data='"data":{"served":1,"text":"hello, xlang"} "data":{"step":2,"text":"set by python"} '
expected_data+='"data":{"step":3,"text":"set by python"} '
if [[ "$data_sequence" != "$expected_data" ]]; then
    echo "FAIL: unexpected data sequence: $data_sequence" >&2
    status=1
fi
if ((status == 0)); then
    echo "PASS: Python fetcher; Swift and Node subscribers saw the same $(wc -l < "$WORK/swift.out") states:"
    cat "$WORK/swift.out"; echo
else
    echo "--- swift ---" >&2; cat "$WORK/swift.out" >&2
    echo "--- node ---" >&2; cat "$WORK/node.out" >&2
    exit $status
fi

# Part 2: a daemon restart. The restart fetcher answers with how often it reconnected, so the data
# before the restart is {"fetcherReconnects":0,...} and after it {"fetcherReconnects":1,...}.
RKEY='["restart","xlang"]'
BEFORE='{"fetcherReconnects":0,"text":"hello, xlang"}'
AFTER='{"fetcherReconnects":1,"text":"hello, xlang"}'
python3 "$HERE/python_fetcher.py" "$SOCK" restart > "$WORK/rfetcher.out" &
PIDS+=($!)
wait_for "$WORK/rfetcher.out" ready
"$SWIFT_EXAMPLE" subscriber --socket "$SOCK" --key "$RKEY" --until-data "$AFTER" > "$WORK/rswift.out" 2> "$WORK/rswift.err" &
PIDS+=($!)
SWIFT_PID=$!
node "$HERE/node_restart_subscriber.mjs" "$SOCK" "$RKEY" "$AFTER" > "$WORK/rnode.out" 2> "$WORK/rnode.err" &
PIDS+=($!)
NODE_PID=$!
wait_for "$WORK/rswift.out" "$BEFORE"
wait_for "$WORK/rnode.out" "$BEFORE"
kill -TERM "$DAEMON_PID"
wait "$DAEMON_PID" || true
start_daemon
wait "$SWIFT_PID"
wait "$NODE_PID"
for side in rswift rnode; do
    sequence=$(grep -o '"data":{[^}]*}' "$WORK/$side.out" | uniq | tr '\n' ' ')
    if [[ "$sequence" != "\"data\":$BEFORE \"data\":$AFTER " ]]; then
        echo "FAIL: $side saw the data sequence: $sequence" >&2
        cat "$WORK/$side.out" "$WORK/$side.err" >&2
        status=1
    fi
done
if ! grep -q 'connection: reconnecting' "$WORK/rnode.err"; then
    echo "FAIL: the Node subscriber did not report the connection loss" >&2
    status=1
fi
if ((status == 0)); then
    echo "PASS: daemon restart; the Python fetcher re-registered and the Swift and Node subscribers re-subscribed:"
    cat "$WORK/rnode.out"
fi
exit $status
