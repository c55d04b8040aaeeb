#!/usr/bin/env bash
# core.sh: the cache engine in process (no socket): set/get/invalidate/fan-out/herd figures from the
# QuerydCoreBench executable (release build), beside TanStack query-core's in-process figures from
# bench/ANCHORS.md. Prints one Markdown table of medians.
#
# Environment (all optional):
#   ROUNDS=5              rounds (each workload on a fresh cache per round)
#   QUICK=0               1: 10x smaller caches (a smoke test)
#   COREBENCH_BIN=path    use this QuerydCoreBench instead of building it
#   QUERYD_SCRATCH_PATH   --scratch-path for the build (default /tmp/benchsuite-build)
#   PIN, NICE, BUILD_TIMEOUT                         as in cache-hit.sh
#   BENCH_TIMEOUT=1200    the whole script's time limit, in seconds
set -euo pipefail
NAME=core
BENCH_TIMEOUT=${BENCH_TIMEOUT:-1200}
# shellcheck source=bench/lib.sh
source "$(dirname "${BASH_SOURCE[0]}")/lib.sh"
ROUNDS=${ROUNDS:-5}
QUICK=${QUICK:-0}

bench_init
if [[ -z "${COREBENCH_BIN:-}" ]]; then
    scratch=${QUERYD_SCRATCH_PATH:-/tmp/benchsuite-build}
    args=(-c release --product QuerydCoreBench --scratch-path "$scratch")
    for i in $(seq "${BUILD_RETRIES:-3}"); do
        log "building QuerydCoreBench: swift build ${args[*]} (attempt $i)"
        if (cd "$ROOT" && timeout "$BUILD_TIMEOUT" swift build "${args[@]}" >&2); then
            COREBENCH_BIN="$(cd "$ROOT" && swift build "${args[@]}" --show-bin-path)/QuerydCoreBench"
            break
        fi
        if ((i < ${BUILD_RETRIES:-3})); then sleep 60; fi
    done
    [[ -n "${COREBENCH_BIN:-}" ]] || fail "swift build failed; set COREBENCH_BIN to a built QuerydCoreBench"
fi
[[ -x "$COREBENCH_BIN" ]] || fail "no QuerydCoreBench at $COREBENCH_BIN"
QUERYD_BIN=${QUERYD_BIN:-"(not used)"}

START=$(date -u +%Y-%m-%dT%H:%M:%SZ)
extra=()
[[ "$QUICK" == 1 ]] && extra=(--quick)
wait_idle
table=$(timeout 1000 "${SERVER_PIN[@]}" "$COREBENCH_BIN" --rounds "$ROUNDS" "${extra[@]}") || fail "QuerydCoreBench failed"

echo "### Core engine in process (QuerydCoreBench, release build) ($START)"
echo
machine_line | sed '/^- queryd:/d'
echo "- binary: $COREBENCH_BIN; $ROUNDS rounds, each workload on a fresh cache; figures are medians"
echo "- times are the benchmark thread's CPU time (CLOCK_THREAD_CPUTIME_ID), so other tenants of the VM do not"
echo "  inflate them; TanStack's figures come from bench/ANCHORS.md (Node 24, wall time,"
echo "  measured on this machine kind, not in this run); ratio = queryd ÷ the midpoint of TanStack's range"
echo "- set/get use keys [\"todos\", i % 100, i] and ~100-byte object values; get reads the encoded answer"
echo "  \`query.get\` would send (building the key each time); the fan-out row counts the cache's push"
echo "  callbacks (no JSON encoding); the herd row is 10,000 fetch calls + one fetcher answer + 10,000 completions"
echo
echo "$table"
