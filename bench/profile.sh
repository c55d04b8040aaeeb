#!/usr/bin/env bash
# profile.sh: where queryd spends its instructions on the fan-out and invalidation paths. Runs a small
# instance of each benchmark against `valgrind --tool=callgrind` with collection switched on only around
# the measured part (the publishes; the invalidate calls), then prints the top functions by their own
# instruction count (Ir, exclusive), demangled, as Markdown tables.
#
# Environment (all optional):
#   TOP=10                       functions per table
#   FAN_CONNS=10 FAN_PER=100     fan-out shape (10 x 100 = 1,000 subscriptions)
#   FAN_PUBLISHES=5              changes published while collecting
#   INV_SIZE=50000               queries cached for the invalidation profile
#   INV_CALLS=2                  invalidate calls per match level (10, 100, 1,000, 10,000)
#   CALLGRIND_KEEP=dir           copy the two callgrind output files there (for callgrind_annotate --tree=caller)
#   QUERYD_BIN, BUILD_TIMEOUT    as in cache-hit.sh
#   BENCH_TIMEOUT=1800           the whole script's time limit, in seconds
set -euo pipefail
NAME=profile
BENCH_TIMEOUT=${BENCH_TIMEOUT:-1800}
PIN=${PIN:-0}
# shellcheck source=bench/lib.sh
source "$(dirname "${BASH_SOURCE[0]}")/lib.sh"
TOP=${TOP:-10}
FAN_CONNS=${FAN_CONNS:-10}
FAN_PER=${FAN_PER:-100}
FAN_PUBLISHES=${FAN_PUBLISHES:-5}
INV_SIZE=${INV_SIZE:-50000}
INV_CALLS=${INV_CALLS:-2}

bench_init
command -v valgrind >/dev/null || fail "valgrind is not installed"
build_c fanout invalidate
build_queryd
DEMANGLE=(cat)
if command -v swift >/dev/null && swift demangle --help >/dev/null 2>&1; then DEMANGLE=(swift demangle --simplified); fi

# top_table TITLE: the TOP functions of $CG_OUT by exclusive Ir, as a Markdown table
top_table() {
    local total
    callgrind_annotate --inclusive=no --threshold=100 "$CG_OUT" >"$TMP/annotate.txt" 2>/dev/null ||
        fail "callgrind_annotate failed"
    total=$(awk '/PROGRAM TOTALS/ { gsub(",", "", $1); print $1; exit }' "$TMP/annotate.txt")
    echo "#### $1"
    echo
    echo "Total instructions collected: $(fmt_int "$total")"
    echo
    echo "| # | Ir (self) | share | function |"
    echo "|---:|---:|---:|---|"
    # lines look like: "12,345,678 (12.34%)  file:function [object]"; the totals line is skipped
    # (awk reads all its input: with pipefail, a `head` that exits early would fail the pipeline)
    sed -n 's/^ *\([0-9,][0-9,]*\) *([ 0-9.]*%) *\(.*\)$/\1 \2/p' "$TMP/annotate.txt" |
        awk -v top="$TOP" '!/PROGRAM TOTALS/ && n < top { print; n++ }' >"$TMP/top.txt"
    local n=0 ir rest fn
    while read -r ir rest; do
        n=$((n + 1))
        fn=${rest#*:}
        fn=${fn% \[*}
        fn=$("${DEMANGLE[@]}" <<<"$fn" | tr '|' '/' | cut -c1-160)
        printf '| %s | %s | %s %% | `%s` |\n' "$n" "$ir" \
            "$(awk -v a="${ir//,/}" -v t="$total" 'BEGIN { printf "%.1f", 100 * a / t }')" "$fn"
    done <"$TMP/top.txt"
    echo
}

START=$(date -u +%Y-%m-%dT%H:%M:%SZ)
log "fan-out profile: $FAN_CONNS x $FAN_PER subscriptions, $FAN_PUBLISHES publishes"
start_callgrind fanout
out=$("$HERE/out/fanout" --socket "$QUERYD_SOCK" --mode queryd --connections "$FAN_CONNS" --per-connection "$FAN_PER" \
    --rounds "$FAN_PUBLISHES" --timeout-s 600 --instr-on "callgrind_control -i on $QUERYD_PID >/dev/null" \
    --instr-off "callgrind_control -i off $QUERYD_PID >/dev/null") || fail "fanout under callgrind failed: $out"
log "$out"
stop_pid "$QUERYD_PID"
FAN_OUT=$CG_OUT

log "invalidation profile: $INV_SIZE cached, $INV_CALLS calls per level"
start_callgrind invalidate
out=$("$HERE/out/invalidate" --socket "$QUERYD_SOCK" --sizes "$INV_SIZE" --calls "$INV_CALLS" \
    --instr-on "callgrind_control -i on $QUERYD_PID >/dev/null" \
    --instr-off "callgrind_control -i off $QUERYD_PID >/dev/null") || fail "invalidate under callgrind failed: $out"
log "$out"
stop_pid "$QUERYD_PID"
INV_OUT=$CG_OUT

if [[ -n "${CALLGRIND_KEEP:-}" ]]; then
    mkdir -p "$CALLGRIND_KEEP"
    cp "$FAN_OUT" "$CALLGRIND_KEEP/callgrind.fanout.out"
    cp "$INV_OUT" "$CALLGRIND_KEEP/callgrind.invalidate.out"
    log "callgrind files kept in $CALLGRIND_KEEP"
fi

echo "### Profiles: queryd under callgrind ($START)"
echo
echo "- $QUERYD_BIN under \`valgrind --tool=callgrind --instr-atstart=no\`; collection on only while the measured"
echo "  requests run; functions ranked by their own instructions (Ir, exclusive), names demangled"
echo
CG_OUT=$FAN_OUT
top_table "Fan-out: $FAN_PUBLISHES × \`query.set\` to $((FAN_CONNS * FAN_PER)) subscriptions ($FAN_CONNS connections × $FAN_PER)"
CG_OUT=$INV_OUT
top_table "Invalidation: $((INV_CALLS * 4)) × \`queries.invalidate\` (10 to 10,000 matches) with $(fmt_int "$INV_SIZE") cached"
