#!/usr/bin/env bash
# invalidate.sh: prefix invalidation. Fills a fresh queryd with 100,000 and then 1,000,000 queries
# (query.set over one pipelined connection) and times single
# `queries.invalidate {filter:{key:PREFIX}, refetchType:"none"}` calls whose prefix matches 10, 100,
# 1,000 or 10,000 queries (at 1,000,000 cached: 0.001 %, 0.01 %, 0.1 %, 1 %; at 100,000: 0.01 % .. 10 %).
# The cost must follow the matches, not the cache size: the ratio column compares the same number of
# matches at the two sizes, measured in the same round. Prints one Markdown table of medians.
#
# Environment (all optional):
#   ROUNDS=3              rounds, each on a fresh daemon
#   SIZES=100000,1000000  cache sizes (increasing multiples of 10,000; the table uses the first and last)
#   CALLS=5               timed calls per (size, matches) per round, each on a prefix not invalidated before
#   VALUE_BYTES=100       size of each query's JSON value
#   QUERYD_BIN, QUERYD_ARGS, PIN, NICE, IDLE_WAIT, IDLE_BUSY_PCT, BUILD_TIMEOUT   as in cache-hit.sh
#   BENCH_TIMEOUT=1800    the whole script's time limit, in seconds
set -euo pipefail
NAME=invalidate
BENCH_TIMEOUT=${BENCH_TIMEOUT:-1800}
# shellcheck source=bench/lib.sh
source "$(dirname "${BASH_SOURCE[0]}")/lib.sh"
ROUNDS=${ROUNDS:-3}
SIZES=${SIZES:-100000,1000000}
CALLS=${CALLS:-5}
VALUE_BYTES=${VALUE_BYTES:-100}
SMALL=${SIZES%%,*}
LARGE=${SIZES##*,}

bench_init
build_c invalidate
build_queryd

START=$(date -u +%Y-%m-%dT%H:%M:%SZ)
for round in $(seq "$ROUNDS"); do
    start_queryd
    wait_idle
    out=$(timeout 1200 "${CLIENT_PIN[@]}" "$HERE/out/invalidate" --socket "$QUERYD_SOCK" --sizes "$SIZES" \
        --calls "$CALLS" --value-bytes "$VALUE_BYTES") || fail "invalidate client failed: $out"
    log "  round $round (queryd RSS $(($(rss_bytes "$QUERYD_PID") / 1048576)) MB):"
    log "$out"
    stop_queryd
    while read -r line; do
        cached=$(field cached "$line")
        if [[ $line == *ping_median_us* ]]; then
            echo "$(field ping_median_us "$line") $(field fill_rate "$line")" >>"$TMP/ping-$cached.txt"
        else
            echo "$(field median_us "$line")" >>"$TMP/$cached-$(field matches "$line").txt"
        fi
    done <<<"$out"
    for m in 10 100 1000 10000; do
        s=$(awk 'END { print $1 }' "$TMP/$SMALL-$m.txt" 2>/dev/null || true)
        l=$(awk 'END { print $1 }' "$TMP/$LARGE-$m.txt" 2>/dev/null || true)
        if [[ -n "$s" && -n "$l" ]]; then echo "$(ratio "$l" "$s" 3)" >>"$TMP/ratio-$m.txt"; fi
    done
done

pct() { awk -v m="$1" -v n="$2" 'BEGIN { x = 100 * m / n; printf (x >= 1 ? "%.0f %%" : (x >= 0.01 ? "%.2f %%" : "%.3f %%")), x }'; }
echo "### Prefix invalidation: \`queries.invalidate {filter:{key:prefix}, refetchType:\"none\"}\` ($START)"
echo
machine_line
echo "- $ROUNDS rounds, each on a fresh daemon filled to $(fmt_int "$SMALL") then $(fmt_int "$LARGE") queries"
echo "  (${VALUE_BYTES}-byte values); per round and size, $CALLS calls per row on prefixes never invalidated before;"
echo "  a round's figure is the median of its calls, the table shows the median over rounds"
echo "- time = one call's round trip over the socket (write to reply), which includes the server.ping round trip"
echo "  shown below the table; ratio = time at $(fmt_int "$LARGE") ÷ time at $(fmt_int "$SMALL") for the same"
echo "  matches, same round (1.0: independent of cache size)"
echo
echo "| matched queries | share at $(fmt_int "$SMALL") | µs per call at $(fmt_int "$SMALL") | share at $(fmt_int "$LARGE")" \
    "| µs per call at $(fmt_int "$LARGE") | ratio $(fmt_int "$LARGE") ÷ $(fmt_int "$SMALL") | µs per match at $(fmt_int "$LARGE") |"
echo "|---:|---:|---:|---:|---:|---:|---:|"
for m in 10 100 1000 10000; do
    s="—"
    l="—"
    r="—"
    per="—"
    if [[ -f "$TMP/$SMALL-$m.txt" ]]; then s=$(fmt 1 "$(median_file "$TMP/$SMALL-$m.txt" 1)"); fi
    if [[ -f "$TMP/$LARGE-$m.txt" ]]; then
        lv=$(median_file "$TMP/$LARGE-$m.txt" 1)
        l=$(fmt 1 "$lv")
        per=$(fmt 2 "$(awk -v t="$lv" -v m="$m" 'BEGIN { print t / m }')")
    fi
    if [[ -f "$TMP/ratio-$m.txt" ]]; then r=$(fmt 2 "$(median_file "$TMP/ratio-$m.txt" 1)"); fi
    printf '| %s | %s | %s | %s | %s | %s | %s |\n' "$(fmt_int "$m")" "$(pct "$m" "$SMALL")" "$s" \
        "$(pct "$m" "$LARGE")" "$l" "$r" "$per"
done
echo
for size in "$SMALL" "$LARGE"; do
    f="$TMP/ping-$size.txt"
    [[ -f "$f" ]] || continue
    echo "- at $(fmt_int "$size") cached: server.ping round trip $(fmt 1 "$(median_file "$f" 1)") µs;" \
        "fill rate $(fmt_int "$(median_file "$f" 2)") query.set/s (pipelined, one connection)"
done
echo
# target: the time for the same matches does not grow with the cache (ratio within 1.5), and it grows with
# the matches (10,000 matches cost more than 100)
r100=0
r10k=0
if [[ -f "$TMP/ratio-100.txt" ]]; then r100=$(median_file "$TMP/ratio-100.txt" 1); fi
if [[ -f "$TMP/ratio-10000.txt" ]]; then r10k=$(median_file "$TMP/ratio-10000.txt" 1); fi
verdict="**not met**"
awk -v a="$r100" -v b="$r10k" 'BEGIN { exit !(a > 0 && a <= 1.5 && (b == 0 || b <= 1.5)) }' && verdict="**met**"
shown() { if [[ "$1" == 0 ]]; then echo "n/a"; else fmt 2 "$1"; fi; }
echo "Target (cost proportional to matches, not to cache size): $verdict (same-match ratios $(shown "$r100") at 100" \
    "and $(shown "$r10k") at 10,000 matches; met when both are at most 1.5)."
