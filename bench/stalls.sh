#!/usr/bin/env bash
# stalls.sh: how long the loop keeps a bystander waiting during big work. A second connection sends a
# ping every millisecond (`bench/pinger`: `server.ping`, or Redis `PING`) while
#   fill        one pipelined connection fills the cache with N queries (`bench/fill`: `query.set`,
#               key ["m",i], VALUE_BYTES-byte values); Redis beside it with `SET` of the same bytes
#   deep        the same fill with keys ["m",i,"v"]: N children of one trie node (queryd only)
#   gc          (queryd --manual-clock) N unused queries reach gcTime in one `clock.advance`
#   invalidate  `queries.invalidate` of the prefix ["m"] matching all N queries
#   mutation    a mutation whose `invalidate` filter matches all N queries (`bench/mutinvalidate.py`)
#   disconnect  a connection holding SUBSCRIPTIONS subscriptions (`bench/subscriber.py`) closes
#   waiting     a fetcher registers while WAITING fetches wait for one (`bench/waiter.py`), then its
#               connection closes with those WAITING attempts in flight (two lines)
#   persist     (queryd --persist) a fill of PERSIST_KEYS queries and the flush of their rows to SQLite
# and reports the worst and the 99.9th-percentile ping wait, the longest the server's threads ran on a CPU
# within one ping's wait (on a machine shared with other work, a long wait with little CPU is the
# scheduler's, not the server's), the fill rate, and the resident set before the fill, after it and after
# the mass gc. Prints one Markdown table.
#
# Environment (all optional):
#   KEYS=5000000          queries to fill (use e.g. 1000000 for a quick run)
#   VALUE_BYTES=100       bytes per value
#   WINDOW=1024           requests the fill keeps in flight (bench/fill's --window)
#   ROWS="fill deep gc invalidate mutation disconnect waiting persist"   which rows to run
#   SUBSCRIPTIONS=100000  subscriptions of the disconnect row
#   WAITING=200000        paused fetches of the waiting row
#   PERSIST_KEYS=100000   queries of the persist row
#   REDIS=1               run the Redis fill row (0: skip it)
#   QUERYD_BIN, QUERYD_ARGS, PIN, NICE, BUILD_TIMEOUT   as in cache-hit.sh
#   BENCH_TIMEOUT=1800    the whole script's time limit, in seconds
set -euo pipefail
NAME=stalls
BENCH_TIMEOUT=${BENCH_TIMEOUT:-1800}
# shellcheck source=bench/lib.sh
source "$(dirname "${BASH_SOURCE[0]}")/lib.sh"
KEYS=${KEYS:-5000000}
VALUE_BYTES=${VALUE_BYTES:-100}
WINDOW=${WINDOW:-1024}
ROWS=${ROWS:-fill deep gc invalidate mutation disconnect waiting persist}
SUBSCRIPTIONS=${SUBSCRIPTIONS:-100000}
WAITING=${WAITING:-200000}
PERSIST_KEYS=${PERSIST_KEYS:-100000}
REDIS=${REDIS:-1}

bench_init
build_c fill loadgen pinger
build_queryd
[[ "$REDIS" == 1 ]] && need_redis

call() { # call JSON-REQUEST: one request on a fresh connection, its reply line
    timeout 600 "$HERE/out/loadgen" --socket "$QUERYD_SOCK" --once --request "$1" || fail "request failed: $1"
}

# pinging SOCKET PROTOCOL SERVER-PID COMMAND...: runs COMMAND while the pinger pings SOCKET; sets PING
# (its JSON) and OUT (the command's stdout)
pinging() {
    local sock=$1 proto=$2 pid=$3
    shift 3
    "${CLIENT_PIN[@]}" "$HERE/out/pinger" --socket "$sock" --protocol "$proto" --server-pid "$pid" \
        >"$TMP/ping.json" &
    local pinger=$!
    sleep 0.3
    OUT=$("$@") || {
        kill -INT "$pinger"
        fail "failed: $* ($OUT)"
    }
    sleep 0.3
    kill -INT "$pinger"
    wait "$pinger" || fail "pinger failed"
    PING=$(cat "$TMP/ping.json")
}

mb() { awk -v b="$1" 'BEGIN { printf "%.0f", b / 1048576 }'; }
stalls_of() { sed -n 's/.*"stalls":\(\[.*\]\)}.*/\1/p' <<<"$1"; }

row() { # row WHAT SERVER RATE EXTRA
    printf '| %s | %s | %s | %s | %s | %s | %s | %s | %s |\n' "$1" "$2" "$(fmt 1 "$(field max_ms "$PING")")" \
        "$(fmt 2 "$(field p999_ms "$PING")")" "$(field over_10ms "$PING")" "$(fmt 1 "$(field max_busy_ms "$PING")")" \
        "$(fmt_int "$(field pings "$PING")")" "$3" "$4"
    log "  $1 / $2: $PING"
}

fill() { # fill SOCKET PROTOCOL [DEEP]
    timeout 1200 "${CLIENT_PIN[@]}" "$HERE/out/fill" --socket "$1" --protocol "$2" --count "$KEYS" \
        --value-bytes "$VALUE_BYTES" --window "$WINDOW" --deep "${3:-0}"
}

start_helper() { # start_helper NAME COUNT: runs bench/NAME.py on the socket, waits for its "ready"; sets HELPER
    "${CLIENT_PIN[@]}" python3 "$HERE/$1.py" "$QUERYD_SOCK" "$2" >"$TMP/$1.out" &
    HELPER=$!
    PIDS+=("$HELPER")
    for _ in $(seq 1200); do
        grep -qs ready "$TMP/$1.out" && return 0
        kill -0 "$HELPER" 2>/dev/null || fail "$1 failed"
        sleep 0.1
    done
    fail "$1 not ready"
}

close_subscriber() { # close_subscriber PID: makes bench/subscriber.py close its connection, then waits 1 s
    kill -USR1 "$1"
    while kill -0 "$1" 2>/dev/null; do sleep 0.05; done
    sleep 1
}

signal_waiter() { # signal_waiter PID LINE: sends bench/waiter.py SIGUSR1, then waits for LINE or its exit
    kill -USR1 "$1"
    while kill -0 "$1" 2>/dev/null && ! grep -qs "$2" "$TMP/waiter.out"; do sleep 0.05; done
    sleep 1
}

fill_and_flush() { # fill_and_flush SOCKET COUNT: fills COUNT queries, then waits 3 s for the write-behind
    timeout 1200 "${CLIENT_PIN[@]}" "$HERE/out/fill" --socket "$1" --protocol queryd --count "$2" \
        --value-bytes "$VALUE_BYTES" --window "$WINDOW"
    sleep 3
}

START=$(date -u +%Y-%m-%dT%H:%M:%SZ)
{
    echo "### Loop stalls under big work: $(fmt_int "$KEYS") queries, ${VALUE_BYTES}-byte values ($START)"
    echo
    machine_line
    echo "- a ping every ms on a second connection, each timed from its write to its reply; the fill keeps $WINDOW requests in flight"
    echo
    echo "| work | server | worst ping ms | p99.9 ms | pings over 10 ms | most server CPU in one wait, ms | pings | fill rate /s | notes (longest waits: [s, wait ms, server CPU ms]) |"
    echo "|---|---|---:|---:|---:|---:|---:|---:|---|"
} >"$TMP/table.md"

for r in $ROWS; do
    case $r in
    fill)
        wait_idle
        start_queryd
        rss0=$(settle_rss "$QUERYD_PID")
        pinging "$QUERYD_SOCK" queryd "$QUERYD_PID" fill "$QUERYD_SOCK" queryd
        rss1=$(settle_rss "$QUERYD_PID")
        row "fill to $(fmt_int "$KEYS")" queryd "$(fmt_int "$(field rate "$OUT")")" \
            "RSS $(mb "$rss0") → $(mb "$rss1") MB; $(stalls_of "$PING")" >>"$TMP/table.md"
        stop_queryd
        if [[ "$REDIS" == 1 ]]; then
            wait_idle
            start_redis
            pinging "$REDIS_SOCK" redis "$REDIS_PID" fill "$REDIS_SOCK" redis
            row "fill to $(fmt_int "$KEYS")" redis "$(fmt_int "$(field rate "$OUT")")" \
                "$(stalls_of "$PING")" >>"$TMP/table.md"
            stop_redis
        fi
        ;;
    deep)
        wait_idle
        start_queryd
        pinging "$QUERYD_SOCK" queryd "$QUERYD_PID" fill "$QUERYD_SOCK" queryd 1
        row "fill to $(fmt_int "$KEYS"), keys [\"m\",i,\"v\"]" queryd "$(fmt_int "$(field rate "$OUT")")" \
            "$(stalls_of "$PING")" >>"$TMP/table.md"
        stop_queryd
        ;;
    gc)
        wait_idle
        start_queryd --manual-clock
        rss0=$(settle_rss "$QUERYD_PID")
        OUT=$(fill "$QUERYD_SOCK" queryd) || fail "fill failed: $OUT"
        rss1=$(settle_rss "$QUERYD_PID")
        # the default gcTime is 5 minutes
        pinging "$QUERYD_SOCK" queryd "$QUERYD_PID" call '{"jsonrpc":"2.0","id":1,"method":"clock.advance","params":{"ms":300001}}'
        rss2=$(settle_rss "$QUERYD_PID")
        queries=$(field queries "$(call '{"jsonrpc":"2.0","id":1,"method":"server.stats"}')")
        row "$(fmt_int "$KEYS") queries reach gcTime together" queryd "—" \
            "$queries queries left; RSS $(mb "$rss0") MB at start, $(mb "$rss1") MB filled, $(mb "$rss2") MB after the gc ($(ratio "$rss2" "$rss0" 2)× start)" \
            >>"$TMP/table.md"
        stop_queryd
        ;;
    invalidate)
        wait_idle
        start_queryd
        OUT=$(fill "$QUERYD_SOCK" queryd) || fail "fill failed: $OUT"
        pinging "$QUERYD_SOCK" queryd "$QUERYD_PID" call '{"jsonrpc":"2.0","id":1,"method":"queries.invalidate","params":{"filter":{"key":["m"]}}}'
        row "\`queries.invalidate\` matching $(fmt_int "$KEYS")" queryd "—" "reply: $(cut -c1-80 <<<"$OUT")" \
            >>"$TMP/table.md"
        stop_queryd
        ;;
    mutation)
        wait_idle
        start_queryd
        OUT=$(fill "$QUERYD_SOCK" queryd) || fail "fill failed: $OUT"
        pinging "$QUERYD_SOCK" queryd "$QUERYD_PID" "${CLIENT_PIN[@]}" python3 "$HERE/mutinvalidate.py" "$QUERYD_SOCK"
        row "a mutation's \`invalidate\` matching $(fmt_int "$KEYS")" queryd "—" \
            "answered after $(field ms "$OUT") ms; $(stalls_of "$PING")" >>"$TMP/table.md"
        stop_queryd
        ;;
    disconnect)
        wait_idle
        start_queryd --max-subscriptions-per-connection "$SUBSCRIPTIONS"
        OUT=$(KEYS=$SUBSCRIPTIONS fill "$QUERYD_SOCK" queryd) || fail "fill failed: $OUT"
        start_helper subscriber "$SUBSCRIPTIONS"
        pinging "$QUERYD_SOCK" queryd "$QUERYD_PID" close_subscriber "$HELPER"
        left=$(field subscriptions "$(call '{"jsonrpc":"2.0","id":1,"method":"server.stats"}')")
        row "a connection with $(fmt_int "$SUBSCRIPTIONS") subscriptions closes" queryd "—" \
            "$left subscriptions left; $(stalls_of "$PING")" >>"$TMP/table.md"
        stop_queryd
        ;;
    waiting)
        wait_idle
        start_queryd
        start_helper waiter "$WAITING"
        pinging "$QUERYD_SOCK" queryd "$QUERYD_PID" signal_waiter "$HELPER" started
        grep -qs started "$TMP/waiter.out" || fail "waiter failed: $(cat "$TMP/waiter.out")"
        row "a fetcher registers while $(fmt_int "$WAITING") fetches wait for one" queryd "—" \
            "$(stalls_of "$PING")" >>"$TMP/table.md"
        pinging "$QUERYD_SOCK" queryd "$QUERYD_PID" signal_waiter "$HELPER" closed
        left=$(field inFlightFetches "$(call '{"jsonrpc":"2.0","id":1,"method":"server.stats"}')")
        row "its connection closes with $(fmt_int "$WAITING") attempts in flight" queryd "—" \
            "$left attempts left; $(stalls_of "$PING")" >>"$TMP/table.md"
        stop_queryd
        ;;
    persist)
        wait_idle
        start_queryd --persist "$TMP/stalls.db"
        pinging "$QUERYD_SOCK" queryd "$QUERYD_PID" fill_and_flush "$QUERYD_SOCK" "$PERSIST_KEYS"
        row "fill of $(fmt_int "$PERSIST_KEYS") with \`--persist\`, and its flush" queryd \
            "$(fmt_int "$(field rate "$OUT")")" "$(stalls_of "$PING")" >>"$TMP/table.md"
        stop_queryd
        ;;
    *) fail "unknown row $r (fill, deep, gc, invalidate, mutation, disconnect, waiting, persist)" ;;
    esac
done
cat "$TMP/table.md"
