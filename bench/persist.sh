#!/usr/bin/env bash
# persist.sh: what --persist costs the event loop and the writer. Prints one Markdown report.
#
# 1. Stalls: a daemon with --persist and --persist-flush-ms FLUSH_MS is filled with KEYS queries
#    (bench/fill, pipelined, 100-byte values); a pinger (loadgen, one connection, one ping in flight)
#    runs from the end of the fill until PING_SECONDS later, across the flush of all KEYS changes.
#    Reported: the ping p50/p99/max over that window (the flush must not stall the loop).
# 2. Restore: the daemon is stopped (SIGTERM writes the rest) and started again on the same file:
#    the time from the start until the first reply (a ping), and the RSS growth per
#    restored query, against the RSS growth per query of the fill over the wire.
# 3. --persist-sync (when the binary has it): query.set throughput with `interval` and `always`,
#    pipelined (window 256) and one at a time (window 1), on fresh daemons and files.
#
# Environment (all optional):
#   KEYS=100000 FLUSH_MS=3000 PING_SECONDS=6 SYNC_KEYS=100000 SYNC_ONE_KEYS=2000
#   QUERYD_BIN, QUERYD_ARGS, PIN, NICE, BUILD_TIMEOUT   as in cache-hit.sh
#   BENCH_TIMEOUT=900    the whole script's time limit, in seconds
set -euo pipefail
NAME=persist
BENCH_TIMEOUT=${BENCH_TIMEOUT:-900}
# shellcheck source=bench/lib.sh
source "$(dirname "${BASH_SOURCE[0]}")/lib.sh"
KEYS=${KEYS:-100000}
FLUSH_MS=${FLUSH_MS:-3000}
PING_SECONDS=${PING_SECONDS:-6}
SYNC_KEYS=${SYNC_KEYS:-100000}
SYNC_ONE_KEYS=${SYNC_ONE_KEYS:-2000}

bench_init
build_c fill loadgen
build_queryd

fill() { # fill COUNT WINDOW: bench/fill's JSON line
    timeout 600 "${CLIENT_PIN[@]}" "$HERE/out/fill" --socket "$QUERYD_SOCK" --count "$1" --window "$2" \
        --value-bytes 100 || fail "fill failed"
}

DB="$TMP/persist.db"
START=$(date -u +%Y-%m-%dT%H:%M:%SZ)

# 1. Stalls during the flush of KEYS changes.
start_queryd --persist "$DB" --persist-flush-ms "$FLUSH_MS"
rss0=$(settle_rss "$QUERYD_PID")
t0=$(date +%s%N)
filled=$(fill "$KEYS" 1024)
fill_ms=$((($(date +%s%N) - t0) / 1000000))
((fill_ms < FLUSH_MS)) || log "  the fill took ${fill_ms} ms, longer than FLUSH_MS; the flush overlapped it"
pings=$(timeout $((PING_SECONDS + 30)) "${CLIENT_PIN[@]}" "$HERE/out/loadgen" --socket "$QUERYD_SOCK" \
    --connections 1 --pipeline 1 --warmup 0 --seconds "$PING_SECONDS" \
    --request '{"jsonrpc":"2.0","id":%ID%,"method":"server.ping"}') || fail "loadgen failed"
rss1=$(settle_rss "$QUERYD_PID")
log "  fill: $filled; pings: $pings"
stop_queryd
wire_per=$(awk -v a="$rss0" -v b="$rss1" -v n="$KEYS" 'BEGIN { printf "%.0f", (b - a) / n }')

# 2. Restore.
start_queryd
empty_rss=$(settle_rss "$QUERYD_PID")
stop_queryd
t0=$(date +%s%N)
start_queryd --persist "$DB" --persist-flush-ms "$FLUSH_MS" --log-level info
timeout 60 "$HERE/out/loadgen" --socket "$QUERYD_SOCK" --once \
    --request '{"jsonrpc":"2.0","id":%ID%,"method":"server.ping"}' >/dev/null || fail "no reply after the restart"
restore_ms=$((($(date +%s%N) - t0) / 1000000))
restored_rss=$(settle_rss "$QUERYD_PID")
restored_line=$(grep -o 'restored [0-9]* of [0-9]* queries' "$TMP/queryd.log" || true)
stop_queryd
restore_per=$(awk -v a="$empty_rss" -v b="$restored_rss" -v n="$KEYS" 'BEGIN { printf "%.0f", (b - a) / n }')

# 3. --persist-sync.
sync_rows=""
if "$QUERYD_BIN" serve --help | grep -q -- --persist-sync; then
    for mode in interval always; do
        rm -f "$DB" "$DB-wal" "$DB-shm"
        start_queryd --persist "$DB" --persist-sync "$mode"
        many=$(fill "$SYNC_KEYS" 256)
        stop_queryd
        rm -f "$DB" "$DB-wal" "$DB-shm"
        start_queryd --persist "$DB" --persist-sync "$mode"
        one=$(fill "$SYNC_ONE_KEYS" 1)
        stop_queryd
        log "  --persist-sync $mode: window 256 $many; window 1 $one"
        sync_rows+="| \`--persist-sync $mode\` | $(field rate "$many") | $(field rate "$one") |"$'\n'
    done
fi

cat <<REPORT
### --persist: stalls, restore, sync ($START, $(nproc) CPUs, $PIN_NOTE, $PRIO_NOTE)

Binary: \`$QUERYD_BIN\`. $KEYS queries of 100-byte values, \`--persist-flush-ms $FLUSH_MS\`.

| Ping over the ${PING_SECONDS} s after the fill (flush of $KEYS changes inside) | p50 | p99 | max |
|---|---|---|---|
| server.ping, one in flight | $(field p50_us "$pings") µs | $(field p99_us "$pings") µs | $(field max_us "$pings") µs |

| Restore of $KEYS queries | |
|---|---|
| start until the first reply (a ping) | $restore_ms ms ($restored_line) |
| RSS per restored query | $restore_per B |
| RSS per query set over the wire | $wire_per B |
REPORT
if [[ -n "$sync_rows" ]]; then
    printf '\n| query.set, distinct keys | sets/s, window 256 | sets/s, window 1 |\n|---|---|---|\n%s' "$sync_rows"
fi
