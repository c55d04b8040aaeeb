#!/usr/bin/env bash
# herd.sh: thundering herd. N concurrent `query.fetch` of one cold key whose fetcher answers after
# DELAY_MS; reports the fetcher calls (must be 1) and the time until the last caller has its reply.
# The anchor, measured in the same round on the same daemon: a single caller (1 x 1) of a cold key.
# Prints one Markdown table of medians; see bench/README.md.
#
# Environment (all optional):
#   ROUNDS=5                            rounds (each round runs every configuration once, 1 x 1 first)
#   CONFIGS="1x1 1000x1 10x100 100x100" connections x callers per connection
#   DELAY_MS=50                         the fetcher's answer delay
#   QUERYD_BIN, QUERYD_ARGS, PIN, NICE, IDLE_WAIT, IDLE_BUSY_PCT, BUILD_TIMEOUT   as in cache-hit.sh
#   BENCH_TIMEOUT=900                   the whole script's time limit, in seconds
set -euo pipefail
NAME=herd
BENCH_TIMEOUT=${BENCH_TIMEOUT:-900}
# shellcheck source=bench/lib.sh
source "$(dirname "${BASH_SOURCE[0]}")/lib.sh"
ROUNDS=${ROUNDS:-5}
CONFIGS=${CONFIGS:-"1x1 1000x1 10x100 100x100"}
DELAY_MS=${DELAY_MS:-50}

bench_init
build_c herd
build_queryd
# 1,000 caller connections need more than the default 1,024 connections once the fetcher is counted.
start_queryd --max-connections 20000

START=$(date -u +%Y-%m-%dT%H:%M:%SZ)
for round in $(seq "$ROUNDS"); do
    for cfg in $CONFIGS; do
        conns=${cfg%x*}
        per=${cfg#*x}
        callers=$((conns * per))
        wait_idle
        out=$(timeout 120 "${CLIENT_PIN[@]}" "$HERE/out/herd" --socket "$QUERYD_SOCK" --key "[\"herd\",$round,\"$cfg\"]" \
            --fetcher-prefix '["herd"]' --callers "$callers" --connections "$conns" --delay-ms "$DELAY_MS") || {
            log "  herd $cfg round $round: $out"
            [[ -n "$out" ]] || fail "herd client failed"
        }
        log "  round $round $cfg: $out"
        echo "$(field fetcher_calls "$out") $(field last_reply_ms "$out") $(field after_answer_ms "$out")" \
            "$(field fetch_request_ms "$out") $(field errors "$out") $(field first_reply_ms "$out")" >>"$TMP/$cfg.txt"
        # per-round ratio to this round's single caller
        base=$(awk 'END { print $2 }' "$TMP/1x1.txt" 2>/dev/null || true)
        echo "$(ratio "$(field last_reply_ms "$out")" "$base" 3)" >>"$TMP/$cfg.ratio"
    done
done

echo "### Thundering herd: concurrent \`query.fetch\` of one cold key, ${DELAY_MS} ms fetcher ($START)"
echo
machine_line
echo "- $ROUNDS rounds; each round runs every configuration on a new key of the same daemon; figures are medians"
echo "- time = from just before the first request is written to the read that delivers the last reply;"
echo "  ratio = that time divided by the single caller's time (1 × 1) of the same round (the anchor)"
echo
echo "| connections × callers each | callers | fetcher calls (every run) | time to last reply ms | ratio to 1 caller" \
    "| last reply after the fetcher's answer ms | fetch request reached the fetcher after ms | errors |"
echo "|---|---:|---:|---:|---:|---:|---:|---:|"
for cfg in $CONFIGS; do
    f="$TMP/$cfg.txt"
    calls=$(awk '{ print $1 }' "$f" | sort -u | paste -sd/ -)
    printf '| %s × %s | %s | %s | %s | %s | %s | %s | %s |\n' "${cfg%x*}" "${cfg#*x}" \
        "$(fmt_int $((${cfg%x*} * ${cfg#*x})))" "$calls" "$(fmt 1 "$(median_file "$f" 2)")" \
        "$(fmt 2 "$(median_file "$TMP/$cfg.ratio" 1)")" "$(fmt 1 "$(median_file "$f" 3)")" \
        "$(fmt 1 "$(median_file "$f" 4)")" "$(awk '{ s += $5 } END { print s + 0 }' "$f")"
done
echo
max_calls=$(cat "$TMP"/*.txt | awk '{ if ($1 > m) m = $1 } END { print m + 0 }')
min_calls=$(cat "$TMP"/*.txt | awk 'NR == 1 || $1 < m { m = $1 } END { print m + 0 }')
if [[ "$max_calls" == 1 && "$min_calls" == 1 ]]; then
    echo "Target (1 fetcher call per herd): **met** in every run."
else
    echo "Target (1 fetcher call per herd): **not met** (fetcher calls ranged $min_calls..$max_calls)."
fi
