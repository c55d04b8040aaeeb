#!/usr/bin/env bash
# gate.sh: the repeatable speed gate. Counts, with callgrind, the instructions queryd spends per
# `query.get` cache hit (a 1,024-byte value, loadgen at 50 × 16 and 1 × 16) and per `query.changed`
# push (fan-out: 5 × `query.set` to 10 × 100 subscriptions), collection on only around the measured
# requests. Instruction counts do not depend on the machine's load, so a change on a hot path compares
# its counts with the baseline below; the script exits 1 when a count exceeds its baseline by more
# than GATE_TOLERANCE percent.
#
# Environment (all optional):
#   QUERYD_BIN, BUILD_TIMEOUT     as in cache-hit.sh (default: a release build)
#   GATE_TOLERANCE=2              allowed growth over the baseline, in percent
#   GET_SECONDS=3                 how long each get run collects
#   BENCH_TIMEOUT=1200            the whole script's time limit, in seconds
set -euo pipefail
NAME=gate
BENCH_TIMEOUT=${BENCH_TIMEOUT:-1200}
PIN=${PIN:-0}
NICE=${NICE:-0}
# shellcheck source=bench/lib.sh
source "$(dirname "${BASH_SOURCE[0]}")/lib.sh"
GATE_TOLERANCE=${GATE_TOLERANCE:-2}
GET_SECONDS=${GET_SECONDS:-3}

# Baselines: the counts of the build that last changed them (BENCHMARKS.md, "the speed gate").
BASE_GET_50x16=1171
BASE_GET_1x16=1353
BASE_PUSH=660

bench_init
command -v valgrind >/dev/null || fail "valgrind is not installed"
build_c loadgen fanout
build_queryd

# collected: the instructions callgrind counted in $CG_OUT (after the daemon stopped)
collected() {
    awk '/^totals:/ { print $2; exit }' "$CG_OUT"
}

VALUE=$(hit_value)
KEY='["bench","hit"]'
SET_REQ='{"jsonrpc":"2.0","id":%ID%,"method":"query.set","params":{"key":'"$KEY"',"data":'"$VALUE"'}}'
GET_REQ='{"jsonrpc":"2.0","id":%ID%,"method":"query.get","params":{"key":'"$KEY"'}}'

# get_count CONNECTIONS PIPELINE: instructions per query.get
get_count() {
    start_callgrind "get-$1x$2"
    timeout 60 "$HERE/out/loadgen" --socket "$QUERYD_SOCK" --once --request "$SET_REQ" >/dev/null ||
        fail "query.set failed"
    callgrind_control -i on "$QUERYD_PID" >/dev/null
    local out requests instructions
    out=$(timeout 120 "$HERE/out/loadgen" --socket "$QUERYD_SOCK" --connections "$1" --pipeline "$2" \
        --seconds "$GET_SECONDS" --warmup 0 --request "$GET_REQ") || fail "loadgen failed: $out"
    callgrind_control -i off "$QUERYD_PID" >/dev/null
    stop_pid "$QUERYD_PID"
    requests=$(field all_requests "$out")
    instructions=$(collected)
    [[ "$requests" -gt 0 && -n "$instructions" ]] || fail "nothing counted ($out)"
    echo $((instructions / requests))
}

push_count() {
    start_callgrind push
    local out instructions
    out=$("$HERE/out/fanout" --socket "$QUERYD_SOCK" --mode queryd --connections 10 --per-connection 100 \
        --rounds 5 --timeout-s 600 --instr-on "callgrind_control -i on $QUERYD_PID >/dev/null" \
        --instr-off "callgrind_control -i off $QUERYD_PID >/dev/null") || fail "fanout failed: $out"
    stop_pid "$QUERYD_PID"
    instructions=$(collected)
    echo $((instructions / 5000))
}

status=0
# row NAME COUNT BASELINE
row() {
    local limit=$(($3 + $3 * GATE_TOLERANCE / 100)) verdict=ok
    if (($2 > limit)); then
        verdict="**over** (limit $limit)"
        status=1
    fi
    printf '| %s | %s | %s | %s |\n' "$1" "$(fmt_int "$2")" "$(fmt_int "$3")" "$verdict"
}

log "counting query.get at 50 x 16, 1 x 16, and pushes at 10 x 100 (callgrind; a few minutes)"
get50=$(get_count 50 16)
get1=$(get_count 1 16)
push=$(push_count)
echo "### Speed gate ($(date -u +%Y-%m-%dT%H:%M:%SZ), $QUERYD_BIN)"
echo
echo "| path | instructions | baseline | verdict |"
echo "|---|---:|---:|---|"
row '`query.get`, 50 × 16' "$get50" "$BASE_GET_50x16"
row '`query.get`, 1 × 16' "$get1" "$BASE_GET_1x16"
row 'push, 10 × 100' "$push" "$BASE_PUSH"
exit $status
