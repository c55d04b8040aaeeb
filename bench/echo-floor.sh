#!/usr/bin/env bash
# echo-floor.sh: the transport floor under the cache-hit rows (issue 17). In one run, at each
# configuration, loadgen drives five targets: `bench/echo` (a minimal libuv server answering every
# line with a fixed 1,033-byte reply, no parsing), queryd `server.ping`, queryd `query.get` of a
# 1,024-byte value, Redis `PING` and Redis `GET` of the same value. Each target's rps, latency and
# server CPU per request (sum_exec_runtime of all its threads, and the kernel's share of it) are
# medians over the rounds. Then each target runs once more under `strace -c -f` for the system calls
# per request. Prints two Markdown tables. See bench/README.md.
#
# Environment (all optional):
#   ROUNDS=3 SECONDS_PER_RUN=3 WARMUP=0.5   rounds, measured and warm-up seconds per run
#   CONFIGS="1x1 50x1 1x16"                 connections x requests in flight per connection
#   STRACE=1 STRACE_SECONDS=2               the system-call table (0: skip), seconds per strace run
#   QUERYD_BIN, QUERYD_SCRATCH_PATH, QUERYD_ARGS, PIN, NICE, IDLE_WAIT, IDLE_BUSY_PCT, BUILD_TIMEOUT
#   BENCH_TIMEOUT=1800                      the script's overall limit, in seconds
set -euo pipefail
NAME=echo-floor
BENCH_TIMEOUT=${BENCH_TIMEOUT:-1800}
# shellcheck source=bench/lib.sh
source "$(dirname "${BASH_SOURCE[0]}")/lib.sh"
ROUNDS=${ROUNDS:-3}
SECONDS_PER_RUN=${SECONDS_PER_RUN:-3}
WARMUP=${WARMUP:-0.5}
CONFIGS=${CONFIGS:-"1x1 50x1 1x16"}
STRACE=${STRACE:-1}
STRACE_SECONDS=${STRACE_SECONDS:-2}
TARGETS="echo queryd-ping queryd-get redis-ping redis-get"

bench_init
build_c loadgen echo
build_queryd
need_redis
[[ "$STRACE" == 0 ]] || command -v strace >/dev/null || fail "strace is not installed (or set STRACE=0)"
LOADGEN="$HERE/out/loadgen"

VALUE=$(hit_value)
KEY='["bench","k1"]'
SET_REQ='{"jsonrpc":"2.0","id":%ID%,"method":"query.set","params":{"key":'"$KEY"',"data":'"$VALUE"'}}'
GET_REQ='{"jsonrpc":"2.0","id":%ID%,"method":"query.get","params":{"key":'"$KEY"'}}'
PING_REQ='{"jsonrpc":"2.0","id":%ID%,"method":"server.ping"}'
# No %ID%: the echo's reply carries a fixed id, which loadgen then does not check.
ECHO_REQ='{"jsonrpc":"2.0","id":1,"method":"echo"}'

ECHO_SOCK="$TMP/echo.sock"
"${SERVER_PIN[@]}" "$HERE/out/echo" --socket "$ECHO_SOCK" --reply-bytes 1033 >"$TMP/echo.log" 2>&1 &
ECHO_PID=$!
PIDS+=("$ECHO_PID")
wait_for_socket "$ECHO_SOCK" "$ECHO_PID" echo
start_redis
[[ $(redis-cli -s "$REDIS_SOCK" SET k1 "$VALUE") == OK ]] || fail "redis SET failed"
start_queryd
reply=$(timeout 10 "$LOADGEN" --socket "$QUERYD_SOCK" --once --request "$SET_REQ") || fail "query.set failed: $reply"
reply=$(timeout 10 "$LOADGEN" --socket "$QUERYD_SOCK" --once --request "$GET_REQ") || fail "query.get failed: $reply"
jq -e --argjson want "$VALUE" '.result.data == $want' <<<"$reply" >/dev/null || fail "query.get missed: ${reply:0:200}"

# target TARGET: sets T_PID and T_ARGS (loadgen's socket and request options)
target() {
    case $1 in
    echo) T_PID=$ECHO_PID T_ARGS=(--socket "$ECHO_SOCK" --request "$ECHO_REQ") ;;
    queryd-ping) T_PID=$QUERYD_PID T_ARGS=(--socket "$QUERYD_SOCK" --request "$PING_REQ") ;;
    queryd-get) T_PID=$QUERYD_PID T_ARGS=(--socket "$QUERYD_SOCK" --request "$GET_REQ") ;;
    redis-ping) T_PID=$REDIS_PID T_ARGS=(--socket "$REDIS_SOCK" --resp-ping 1) ;;
    redis-get) T_PID=$REDIS_PID T_ARGS=(--socket "$REDIS_SOCK" --resp-get k1) ;;
    esac
}

cpu_ns() { # CPU time of every thread of a process, in ns (sum_exec_runtime, as perf's task-clock)
    cat /proc/"$1"/task/*/schedstat | awk '{ s += $1 } END { printf "%.0f", s }'
}

sys_ticks() { # user and system ticks of a process
    awk '{ print $14, $15 }' "/proc/$1/stat"
}

# refresh: queryd's value is written again before each of its runs (its gc countdown starts afresh)
refresh() {
    timeout 10 "$LOADGEN" --socket "$QUERYD_SOCK" --once --request "$SET_REQ" >/dev/null || fail "query.set failed"
}

# run_one TARGET CONNS PIPE: appends "rps p50 p99 errors cpu_us_per_req sys_pct" to $TMP/TARGET-CONFIG.txt
run_one() {
    local out c0 c1 t0 t1 all
    target "$1"
    [[ "$1" == queryd-get ]] && refresh
    wait_idle
    c0=$(cpu_ns "$T_PID")
    t0=$(sys_ticks "$T_PID")
    out=$(timeout $((${SECONDS_PER_RUN%.*} + 40)) "${CLIENT_PIN[@]}" "$LOADGEN" "${T_ARGS[@]}" --connections "$2" \
        --pipeline "$3" --seconds "$SECONDS_PER_RUN" --warmup "$WARMUP") || fail "loadgen against $1 failed: $out"
    c1=$(cpu_ns "$T_PID")
    t1=$(sys_ticks "$T_PID")
    all=$(field all_requests "$out")
    awk -v rps="$(field rps "$out")" -v p50="$(field p50_us "$out")" -v p99="$(field p99_us "$out")" \
        -v e="$(field errors "$out")" -v d=$((c1 - c0)) -v n="$all" -v a="$t0" -v b="$t1" 'BEGIN {
        split(a, x, " "); split(b, y, " "); u = y[1] - x[1]; s = y[2] - x[2]
        printf "%s %s %s %s %.2f %d\n", rps, p50, p99, e, (n > 0 ? d / 1000 / n : 0), (u + s > 0 ? 100 * s / (u + s) : 0) }' \
        >>"$TMP/$1-$2x$3.txt"
    log "  $1 $2x$3: $out"
}

# strace_one TARGET CONNS PIPE: one run under `strace -c -f`; prints "total/req  name count/req ..."
strace_one() {
    local out all st
    target "$1"
    [[ "$1" == queryd-get ]] && refresh
    strace -c -f -p "$T_PID" -o "$TMP/strace.txt" 2>/dev/null &
    st=$!
    sleep 1 # attach to every thread
    out=$(timeout $((STRACE_SECONDS + 60)) "${CLIENT_PIN[@]}" "$LOADGEN" "${T_ARGS[@]}" --connections "$2" \
        --pipeline "$3" --seconds "$STRACE_SECONDS" --warmup 0) || fail "loadgen against $1 (strace) failed: $out"
    kill -INT "$st"
    wait "$st" 2>/dev/null || true
    all=$(field all_requests "$out")
    # Rows of `strace -c`: [% time, seconds, usecs/call,] calls, [errors,] syscall.
    awk -v n="$all" '$1 ~ /^[0-9.]+$/ && NF >= 5 && $NF != "total" {
            calls = $4; errs = (NF == 6 ? $5 : 0); total += calls
            if (calls / n >= 0.005) { row[$NF] = calls / n; err[$NF] = errs / n }
        } END {
            printf "%.3f |", total / n
            for (name in row) printf " %s %.3f%s", name, row[name], (err[name] > 0.005 ? sprintf(" (%.3f failed)", err[name]) : "")
            printf "\n" }' "$TMP/strace.txt"
}

START=$(date -u +%Y-%m-%dT%H:%M:%SZ)
for cfg in $CONFIGS; do
    for round in $(seq "$ROUNDS"); do
        log "round $round/$ROUNDS, $cfg"
        for t in $TARGETS; do run_one "$t" "${cfg%x*}" "${cfg#*x}"; done
    done
done

echo "The transport floor: echo, ping and cache hit, queryd beside Redis ($START)"
echo
echo "- $(nproc) CPUs ($(awk -F': ' '/model name/{ print $2; exit }' /proc/cpuinfo)); $PIN_NOTE; $PRIO_NOTE"
echo "- $ROUNDS rounds per configuration, ${SECONDS_PER_RUN}s measured after ${WARMUP}s warm-up, the five targets in turn;"
echo "  medians over the rounds. CPU µs/req: the server's CPU time (all threads) over every reply, warm-up included;"
echo "  sys %: the kernel's share of it (10 ms ticks)"
echo "- echo: bench/echo (libuv, a fixed 1,033-byte reply per line); ping: queryd \`server.ping\`, Redis \`PING\`;"
echo "  get: queryd \`query.get {key:$KEY}\`, Redis \`GET k1\`, the same 1,024-byte value"
echo "- binary: $QUERYD_BIN"
((BUSY_RUNS == 0)) || echo "- WARNING: $BUSY_RUNS run(s) started while the machine was more than ${IDLE_BUSY_PCT}% busy"
echo
echo "| connections × in flight | target | rps | ÷ echo | p50 / p99 µs | CPU µs/req | sys % |"
echo "|---|---|---:|---:|---:|---:|---:|"
errors=0
for cfg in $CONFIGS; do
    echo_rps=$(median_file "$TMP/echo-$cfg.txt" 1)
    for t in $TARGETS; do
        f="$TMP/$t-$cfg.txt"
        rps=$(median_file "$f" 1)
        errors=$((errors + $(awk '{ s += $4 } END { print s + 0 }' "$f")))
        printf '| %s × %s | %s | %s | %s | %s / %s | %s | %s |\n' "${cfg%x*}" "${cfg#*x}" "$t" "$(fmt_int "$rps")" \
            "$(awk -v a="$rps" -v b="$echo_rps" 'BEGIN { printf "%.2f", (b > 0 ? a / b : 0) }')" \
            "$(fmt_int "$(median_file "$f" 2)")" "$(fmt_int "$(median_file "$f" 3)")" \
            "$(median_file "$f" 5)" "$(median_file "$f" 6)"
    done
done
echo
echo "Errors: $errors"
if [[ "$STRACE" != 0 ]]; then
    echo
    echo "System calls per request (\`strace -c -f\` attached for one ${STRACE_SECONDS}s run each; strace slows"
    echo "the server, so at 50 × 1 more connections are ready per poll than without it):"
    echo
    echo "| connections × in flight | target | calls/req | per request |"
    echo "|---|---|---:|---|"
    for cfg in $CONFIGS; do
        for t in $TARGETS; do
            log "strace: $t $cfg"
            line=$(strace_one "$t" "${cfg%x*}" "${cfg#*x}")
            printf '| %s × %s | %s | %s |\n' "${cfg%x*}" "${cfg#*x}" "$t" "$line"
        done
    done
fi
