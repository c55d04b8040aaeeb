#!/usr/bin/env bash
# cluster.sh: three `queryd serve --cluster` nodes on one redis-server (Unix sockets, one host).
# Measures (1) an invalidation on one node to the push on a subscriber of another (p50/p99/max),
# (2) the fleet herd: CALLERS `query.fetch` of one cold key over the 3 nodes (fetcher calls must be
# 1), and (3) cache-hit `query.get` throughput on a node with --cluster vs a daemon without it.
# Prints one Markdown section of medians; see bench/README.md.
#
# Environment (all optional):
#   ROUNDS=3 LATENCY_N=500 CALLERS=3000     rounds; invalidations timed per round; herd callers
#   SECONDS_PER_RUN=3 WARMUP=0.5 CONFIG=50x16   cache-hit runs (connections x in flight)
#   QUERYD_BIN, QUERYD_ARGS, PIN, NICE, IDLE_WAIT, IDLE_BUSY_PCT, BUILD_TIMEOUT   as in cache-hit.sh
#   BENCH_TIMEOUT=900                       the whole script's time limit, in seconds
set -euo pipefail
NAME=cluster
BENCH_TIMEOUT=${BENCH_TIMEOUT:-900}
# shellcheck source=bench/lib.sh
source "$(dirname "${BASH_SOURCE[0]}")/lib.sh"
ROUNDS=${ROUNDS:-3}
LATENCY_N=${LATENCY_N:-500}
CALLERS=${CALLERS:-3000}
SECONDS_PER_RUN=${SECONDS_PER_RUN:-3}
WARMUP=${WARMUP:-0.5}
CONFIG=${CONFIG:-50x16}
CLIENT="$HERE/cluster-client.py"

bench_init
build_c loadgen
build_queryd
start_redis
NODES=()
for i in 0 1 2; do
    sock="$TMP/node$i.sock"
    # shellcheck disable=SC2086 # QUERYD_ARGS is a list of words on purpose
    "${SERVER_PIN[@]}" "$QUERYD_BIN" serve --socket "$sock" --cluster "unix://$REDIS_SOCK" --node-id "n$i" \
        --max-connections 20000 $QUERYD_ARGS >"$TMP/node$i.log" 2>&1 &
    PIDS+=($!)
    wait_for_socket "$sock" "$!" "node $i"
    NODES+=("$sock")
done
start_queryd # the single-host daemon, for the cache-hit comparison
sleep 2      # every node has joined and heard the others

KEY='["bench","hit"]'
VALUE="\"$(head -c 1000 /dev/zero | tr '\0' 'x')\""
GET_REQ='{"jsonrpc":"2.0","id":%ID%,"method":"query.get","params":{"key":'"$KEY"'}}'
SET_REQ='{"jsonrpc":"2.0","id":%ID%,"method":"query.set","params":{"key":'"$KEY"',"data":'"$VALUE"'}}'

hit_rps() { # hit_rps SOCKET: query.get requests per second (a fresh query.set first)
    "$HERE/out/loadgen" --socket "$1" --once --request "$SET_REQ" >/dev/null
    local out
    out=$(timeout 60 "${CLIENT_PIN[@]}" "$HERE/out/loadgen" --socket "$1" --connections "${CONFIG%x*}" \
        --pipeline "${CONFIG#*x}" --seconds "$SECONDS_PER_RUN" --warmup "$WARMUP" --request "$GET_REQ")
    field rps "$out"
}

START=$(date -u +%Y-%m-%dT%H:%M:%SZ)
for round in $(seq "$ROUNDS"); do
    wait_idle
    out=$(timeout 300 "${CLIENT_PIN[@]}" python3 "$CLIENT" latency "${NODES[1]}" "${NODES[2]}" "$LATENCY_N")
    log "  round $round latency: $out"
    echo "$(field p50_us "$out") $(field p99_us "$out") $(field max_us "$out")" >>"$TMP/latency.txt"
    wait_idle
    out=$(timeout 300 "${CLIENT_PIN[@]}" python3 "$CLIENT" herd "$CALLERS" "${NODES[@]}")
    log "  round $round herd: $out"
    echo "$(field fetcher_calls "$out") $(field ms "$out") $(field answered "$out")" >>"$TMP/herd.txt"
    wait_idle
    with=$(hit_rps "${NODES[0]}")
    wait_idle
    without=$(hit_rps "$QUERYD_SOCK")
    log "  round $round cache hit: with --cluster $with rps, without $without rps"
    echo "$with $without" >>"$TMP/hit.txt"
done

echo "### Cluster: three nodes on one Redis ($START)"
echo
machine_line
echo "- $ROUNDS rounds; every figure is the median over the rounds; nodes and Redis on one host, Unix sockets"
echo
echo "| measurement | figure |"
echo "| --- | --- |"
echo "| invalidation on node C → push on node B, p50 / p99 / max ($LATENCY_N per round) |" \
    "$(fmt_int "$(median_file "$TMP/latency.txt" 1)") / $(fmt_int "$(median_file "$TMP/latency.txt" 2)") /" \
    "$(fmt_int "$(median_file "$TMP/latency.txt" 3)") µs |"
echo "| fleet herd: $CALLERS callers over 3 nodes, one cold key (fetcher answers after 50 ms): fetcher calls, time to the last reply |" \
    "$(median_file "$TMP/herd.txt" 1) call(s) (max over rounds $(sort -n "$TMP/herd.txt" | tail -1 | cut -d' ' -f1)), $(fmt_int "$(median_file "$TMP/herd.txt" 2)") ms |"
with=$(median_file "$TMP/hit.txt" 1)
without=$(median_file "$TMP/hit.txt" 2)
echo "| cache-hit \`query.get\` ($CONFIG), with --cluster / without | $(fmt_int "$with") / $(fmt_int "$without") rps ($(ratio "$with" "$without" 3)) |"
