#!/usr/bin/env bash
# cache-hit.sh: side-by-side cache-hit benchmark, queryd `query.get` vs Redis `GET`, 1,024-byte value, over Unix
# sockets, driven by bench/loadgen. Prints one Markdown table of medians. See bench/README.md.
#
# Environment (all optional):
#   ROUNDS=5 SECONDS_PER_RUN=3 WARMUP=0.5      rounds per configuration, measured and warm-up seconds per run
#   CONFIGS="1x1 50x1 1x16 50x16"              connections x requests in flight per connection
#   QUERYD_BIN=path                            use this binary instead of building this repository (swift build -c release)
#   QUERYD_SCRATCH_PATH=dir                    --scratch-path for that build (default: the package's .build)
#   QUERYD_ARGS="--log-level warning"          extra arguments after `queryd serve --socket PATH`
#   PIN=1                                      pin server to cpu 0 and loadgen to cpu 1 with taskset (0: don't)
#   NICE=-10                                   nice level for servers and loadgen (default -10 as root, else 0)
#   IDLE_WAIT=5 IDLE_BUSY_PCT=10               before each run wait up to IDLE_WAIT s for the machine to be idle
#   VERIFY=1                                   check that query.get returns exactly the stored value (0: skip)
#   BUILD_TIMEOUT=900                          seconds allowed for the swift build
set -euo pipefail

NAME=cache-hit
# shellcheck source=bench/lib.sh
source "$(dirname "${BASH_SOURCE[0]}")/lib.sh"
ROUNDS=${ROUNDS:-5}
SECONDS_PER_RUN=${SECONDS_PER_RUN:-3}
WARMUP=${WARMUP:-0.5}
CONFIGS=${CONFIGS:-"1x1 50x1 1x16 50x16"}
VERIFY=${VERIFY:-1}
KEY_JSON='["bench","k1"]'
REDIS_KEY=k1

TMP=$(mktemp -d /tmp/queryd-bench.XXXXXX)
REDIS_PID=""
QUERYD_PID=""

cleanup() {
    stop_pid "$QUERYD_PID"
    stop_pid "$REDIS_PID"
    [[ -n "$AUTOGROUP_OLD" ]] && echo "$AUTOGROUP_OLD" >/proc/self/autogroup 2>/dev/null
    rm -rf "$TMP"
}
trap cleanup EXIT
trap 'exit 130' INT TERM

# ---------- build ----------
mkdir -p "$HERE/out"
cc -O2 -o "$HERE/out/loadgen" "$HERE/loadgen.c" || fail "cannot build loadgen"
LOADGEN="$HERE/out/loadgen"

if [[ -z "${QUERYD_BIN:-}" ]]; then
    build_args=(-c release --product queryd)
    [[ -n "${QUERYD_SCRATCH_PATH:-}" ]] && build_args+=(--scratch-path "$QUERYD_SCRATCH_PATH")
    log "building queryd: swift build ${build_args[*]} (in $ROOT)"
    (cd "$ROOT" && timeout "$BUILD_TIMEOUT" swift build "${build_args[@]}" >&2) || fail "swift build failed"
    QUERYD_BIN="$(cd "$ROOT" && swift build "${build_args[@]}" --show-bin-path)/queryd"
fi
[[ -x "$QUERYD_BIN" ]] || fail "no queryd binary at $QUERYD_BIN"
command -v redis-server >/dev/null || fail "redis-server is not installed"
command -v redis-cli >/dev/null || fail "redis-cli is not installed"

# ---------- pinning ----------
SERVER_PIN=()
CLIENT_PIN=()
PIN_NOTE="not pinned (taskset unavailable or PIN=0): server and load generator share the scheduler's choice of CPUs"
if [[ "$PIN" == 1 ]] && command -v taskset >/dev/null && [[ $(nproc) -ge 2 ]] && taskset -c 1 true 2>/dev/null; then
    SERVER_PIN=(taskset -c 0)
    CLIENT_PIN=(taskset -c 1)
    PIN_NOTE="pinned with taskset: server on cpu 0, loadgen on cpu 1"
fi
PRIO_NOTE="normal priority"
if [[ "$NICE" != 0 ]] && nice -n "$NICE" true 2>/dev/null; then
    SERVER_PIN=(nice -n "$NICE" "${SERVER_PIN[@]}")
    CLIENT_PIN=(nice -n "$NICE" "${CLIENT_PIN[@]}")
    PRIO_NOTE="servers and loadgen at nice $NICE"
    # With sched_autogroup, nice only ranks processes inside one session; raise this session's group too.
    if [[ $(cat /proc/sys/kernel/sched_autogroup_enabled 2>/dev/null) == 1 && -w /proc/self/autogroup ]]; then
        old=$(sed -n 's/.* nice \(-\{0,1\}[0-9]*\).*/\1/p' /proc/self/autogroup)
        if echo "$NICE" >/proc/self/autogroup 2>/dev/null; then
            AUTOGROUP_OLD=$old
            PRIO_NOTE="$PRIO_NOTE (session autogroup nice $NICE, restored on exit)"
        fi
    fi
fi

# ---------- the value: a JSON object of exactly 1,024 bytes ----------
VALUE=$(hit_value)
[[ ${#VALUE} -eq 1024 ]] || fail "value is ${#VALUE} bytes, expected 1024"

SET_REQ='{"jsonrpc":"2.0","id":%ID%,"method":"query.set","params":{"key":'"$KEY_JSON"',"data":'"$VALUE"'}}'
REMOVE_REQ='{"jsonrpc":"2.0","id":%ID%,"method":"queries.remove","params":{"filter":{"key":'"$KEY_JSON"',"exact":true}}}'
GET_REQ='{"jsonrpc":"2.0","id":%ID%,"method":"query.get","params":{"key":'"$KEY_JSON"'}}'
PING_REQ='{"jsonrpc":"2.0","id":%ID%,"method":"server.ping","params":{}}'

# ---------- servers ----------

REDIS_SOCK="$TMP/redis.sock"
"${SERVER_PIN[@]}" redis-server --port 0 --unixsocket "$REDIS_SOCK" --save '' --appendonly no \
    --loglevel warning >"$TMP/redis.log" 2>&1 &
REDIS_PID=$!
wait_for_socket "$REDIS_SOCK" "$REDIS_PID" redis
[[ $(redis-cli -s "$REDIS_SOCK" SET "$REDIS_KEY" "$VALUE") == OK ]] || fail "redis SET failed"
[[ $(redis-cli -s "$REDIS_SOCK" STRLEN "$REDIS_KEY") == 1024 ]] || fail "redis value is not 1024 bytes"

QUERYD_SOCK="$TMP/queryd.sock"
# shellcheck disable=SC2086 # QUERYD_ARGS is a list of words on purpose
"${SERVER_PIN[@]}" "$QUERYD_BIN" serve --socket "$QUERYD_SOCK" $QUERYD_ARGS >"$TMP/queryd.log" 2>&1 &
QUERYD_PID=$!
wait_for_socket "$QUERYD_SOCK" "$QUERYD_PID" queryd
timeout 10 "$LOADGEN" --socket "$QUERYD_SOCK" --once --request "$PING_REQ" >/dev/null ||
    fail "queryd does not answer server.ping"

queryd_set() { # (re)creates the query: a new query's gc countdown (gcTime, 5 minutes) starts afresh
    local reply
    reply=$(timeout 10 "$LOADGEN" --socket "$QUERYD_SOCK" --once --request "$REMOVE_REQ") ||
        fail "queries.remove failed: ${reply:0:300}"
    reply=$(timeout 10 "$LOADGEN" --socket "$QUERYD_SOCK" --once --request "$SET_REQ") ||
        fail "query.set failed: ${reply:0:300}"
}

queryd_check_hit() { # the reply to query.get must carry exactly VALUE as data
    local reply
    reply=$(timeout 10 "$LOADGEN" --socket "$QUERYD_SOCK" --once --request "$GET_REQ") ||
        fail "query.get failed: ${reply:0:300}"
    [[ "$VERIFY" == 1 ]] || return 0
    if command -v jq >/dev/null; then
        jq -e --argjson want "$VALUE" '.result.data == $want' <<<"$reply" >/dev/null ||
            fail "query.get did not return the stored value: ${reply:0:300}"
    else
        [[ "$reply" == *"$VALUE"* ]] || fail "query.get did not return the stored value: ${reply:0:300}"
    fi
}

queryd_set
queryd_check_hit

# ---------- measurement helpers ----------
CLK_TCK=$(getconf CLK_TCK)

cpu_ticks() { # user+system ticks of a process (all its threads)
    awk '{ print $14 + $15 }' "/proc/$1/stat"
}

BUSY_RUNS=0

# run_one NAME PID CONNS PIPELINE -> appends "rps p50 p99 errors cpu_us_per_req" to $TMP/NAME-CONFIG.txt
run_one() {
    local name=$1 pid=$2 conns=$3 pipe=$4 out t0 t1 cpu all
    local args=(--socket "$TMP/$name.sock" --connections "$conns" --pipeline "$pipe"
        --seconds "$SECONDS_PER_RUN" --warmup "$WARMUP")
    if [[ "$name" == redis ]]; then args+=(--resp-get "$REDIS_KEY"); else args+=(--request "$GET_REQ"); fi
    wait_idle
    t0=$(cpu_ticks "$pid")
    out=$(timeout "$(awk -v s="$SECONDS_PER_RUN" -v w="$WARMUP" 'BEGIN { print int(s + w + 30) }')" \
        "${CLIENT_PIN[@]}" "$LOADGEN" "${args[@]}") || fail "loadgen against $name failed: $out"
    t1=$(cpu_ticks "$pid")
    all=$(field all_requests "$out")
    cpu=$(awk -v d=$((t1 - t0)) -v hz="$CLK_TCK" -v n="$all" 'BEGIN { printf "%.2f", (n > 0 ? d / hz * 1e6 / n : 0) }')
    echo "$(field rps "$out") $(field p50_us "$out") $(field p99_us "$out") $(field errors "$out") $cpu" \
        >>"$TMP/$name-${conns}x$pipe.txt"
    log "  $name ${conns}x$pipe: $out server_cpu_us_per_req=$cpu"
}

median() { # median of column N of a file
    sort -n -k "$2,$2" "$1" | awk -v c="$2" '{ v[NR] = $c } END {
        if (NR == 0) { print 0; exit }
        if (NR % 2) print v[(NR + 1) / 2]; else print (v[NR / 2] + v[NR / 2 + 1]) / 2 }'
}

# ---------- the runs ----------
START=$(date -u +%Y-%m-%dT%H:%M:%SZ)
for cfg in $CONFIGS; do
    conns=${cfg%x*}
    pipe=${cfg#*x}
    for round in $(seq "$ROUNDS"); do
        log "round $round/$ROUNDS, $conns connection(s) x $pipe in flight"
        run_one redis "$REDIS_PID" "$conns" "$pipe"
        # Re-create the query before each run: writes to an unused query leave its gc countdown
        # running (as TanStack's setQueryData does), so a run more than 5 minutes after the first
        # write would otherwise find it collected.
        queryd_set
        run_one queryd "$QUERYD_PID" "$conns" "$pipe"
        queryd_check_hit
    done
done

# ---------- the table ----------

echo "queryd vs Redis, cache hit of a 1,024-byte value over a Unix socket ($START)"
echo
echo "- $(nproc) CPUs ($(awk -F': ' '/model name/{ print $2; exit }' /proc/cpuinfo)); $PIN_NOTE; $PRIO_NOTE"
echo "- $ROUNDS rounds per configuration, ${SECONDS_PER_RUN}s measured after ${WARMUP}s warm-up, redis then queryd"
echo "  alternately; every figure is the median over the rounds"
echo "- queryd: \`query.get {key:$KEY_JSON}\` (JSON-RPC line); redis: \`GET $REDIS_KEY\` (RESP); same 1,024-byte value"
echo "- binary: $QUERYD_BIN"
if ((BUSY_RUNS > 0)); then
    echo "- WARNING: $BUSY_RUNS run(s) started while the machine was more than ${IDLE_BUSY_PCT}% busy"
fi
echo
echo "| connections × in flight | queryd rps (median) | redis rps (median) | ratio | queryd p50/p99 µs" \
    "| redis p50/p99 µs | queryd CPU µs/req | redis CPU µs/req |"
echo "|---|---:|---:|---:|---:|---:|---:|---:|"
total_errors=0
for cfg in $CONFIGS; do
    q="$TMP/queryd-$cfg.txt"
    r="$TMP/redis-$cfg.txt"
    q_rps=$(median "$q" 1)
    r_rps=$(median "$r" 1)
    ratio=$(awk -v a="$q_rps" -v b="$r_rps" 'BEGIN { printf "%.2f", (b > 0 ? a / b : 0) }')
    total_errors=$((total_errors + $(awk '{ s += $4 } END { print s + 0 }' "$q" "$r")))
    printf '| %s × %s | %s | %s | %s | %s / %s | %s / %s | %s | %s |\n' \
        "${cfg%x*}" "${cfg#*x}" "$(fmt_int "$q_rps")" "$(fmt_int "$r_rps")" "$ratio" \
        "$(fmt_int "$(median "$q" 2)")" "$(fmt_int "$(median "$q" 3)")" \
        "$(fmt_int "$(median "$r" 2)")" "$(fmt_int "$(median "$r" 3)")" \
        "$(median "$q" 5)" "$(median "$r" 5)"
done
echo
echo "Errors (error replies, id mismatches, missing values): $total_errors"
