# lib.sh: shell helpers shared by the bench scripts (sourced, not run): temp directory and cleanup,
# building the C clients and queryd, starting queryd and redis-server on temp sockets, pinning and
# priority, waiting for an idle machine, medians and number formatting.
#
# A script sets NAME before sourcing this file, then calls bench_init.
# shellcheck shell=bash

HERE=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
ROOT=$(dirname "$HERE")
BUILD_TIMEOUT=${BUILD_TIMEOUT:-900}
QUERYD_ARGS=${QUERYD_ARGS:---log-level warning}
PIN=${PIN:-1}
if [[ $EUID -eq 0 ]]; then NICE=${NICE:--10}; else NICE=${NICE:-0}; fi
IDLE_WAIT=${IDLE_WAIT:-5}
IDLE_BUSY_PCT=${IDLE_BUSY_PCT:-10}
BUSY_RUNS=0
PIDS=()
AUTOGROUP_OLD=""

log() { printf '%s\n' "$*" >&2; }
fail() {
    log "$NAME: $*"
    exit 1
}

stop_pid() { # stop_pid PID: SIGTERM, then SIGKILL after 3 s
    local pid=$1
    [[ -n "$pid" ]] || return 0
    kill -TERM "$pid" 2>/dev/null || return 0
    for _ in $(seq 30); do
        kill -0 "$pid" 2>/dev/null || break
        sleep 0.1
    done
    kill -KILL "$pid" 2>/dev/null || true
    wait "$pid" 2>/dev/null || true
}

bench_cleanup() {
    local pid
    for pid in "${PIDS[@]}"; do stop_pid "$pid"; done
    [[ -n "$AUTOGROUP_OLD" ]] && echo "$AUTOGROUP_OLD" >/proc/self/autogroup 2>/dev/null
    [[ -n "${TMP:-}" ]] && rm -rf "$TMP"
    return 0
}

# bench_init: temp dir, traps, the overall time limit (BENCH_TIMEOUT seconds; the script's own default),
# pinning and priority.
bench_init() {
    TMP=$(mktemp -d "/tmp/queryd-$NAME.XXXXXX")
    trap bench_cleanup EXIT
    trap 'exit 130' INT TERM
    # The whole script is bounded: a watchdog sends SIGTERM to this shell when time is up.
    local limit=${BENCH_TIMEOUT:?} self=$$
    (
        sleep "$limit"
        log "$NAME: time limit of ${limit}s reached; stopping"
        kill -TERM "$self" 2>/dev/null
    ) </dev/null >/dev/null 2>&1 &
    PIDS+=($!)
    ulimit -n "$(ulimit -Hn)" 2>/dev/null || true
    SERVER_PIN=()
    CLIENT_PIN=()
    PIN_NOTE="not pinned (taskset unavailable or PIN=0)"
    if [[ "$PIN" == 1 ]] && command -v taskset >/dev/null && [[ $(nproc) -ge 2 ]] && taskset -c 1 true 2>/dev/null; then
        SERVER_PIN=(taskset -c 0)
        CLIENT_PIN=(taskset -c 1)
        PIN_NOTE="server pinned to cpu 0, client to cpu 1"
    fi
    PRIO_NOTE="normal priority"
    if [[ "$NICE" != 0 ]] && nice -n "$NICE" true 2>/dev/null; then
        SERVER_PIN=(nice -n "$NICE" "${SERVER_PIN[@]}")
        CLIENT_PIN=(nice -n "$NICE" "${CLIENT_PIN[@]}")
        PRIO_NOTE="servers and clients at nice $NICE"
        if [[ $(cat /proc/sys/kernel/sched_autogroup_enabled 2>/dev/null) == 1 && -w /proc/self/autogroup ]]; then
            local old
            old=$(sed -n 's/.* nice \(-\{0,1\}[0-9]*\).*/\1/p' /proc/self/autogroup)
            if echo "$NICE" >/proc/self/autogroup 2>/dev/null; then
                AUTOGROUP_OLD=$old
                PRIO_NOTE="$PRIO_NOTE (session autogroup too)"
            fi
        fi
    fi
}

# build_c PROGRAM...: cc -O2 each bench/PROGRAM.c into bench/out/PROGRAM (echo.c with libuv)
build_c() {
    mkdir -p "$HERE/out"
    local p libs
    for p in "$@"; do
        libs=()
        [[ "$p" == echo ]] && libs=(-luv)
        cc -O2 -o "$HERE/out/$p" "$HERE/$p.c" "${libs[@]}" || fail "cannot build $p"
    done
}

# build_queryd: sets QUERYD_BIN (a release build in /tmp/benchsuite-build unless QUERYD_BIN is set).
# The tree may be mid-edit: the build is retried (BUILD_RETRIES times, 60 s apart).
build_queryd() {
    if [[ -z "${QUERYD_BIN:-}" ]]; then
        local scratch=${QUERYD_SCRATCH_PATH:-/tmp/benchsuite-build} tries=${BUILD_RETRIES:-3} i
        local args=(-c release --product queryd --scratch-path "$scratch")
        for i in $(seq "$tries"); do
            log "building queryd: swift build ${args[*]} (attempt $i of $tries)"
            if (cd "$ROOT" && timeout "$BUILD_TIMEOUT" swift build "${args[@]}" >&2); then
                QUERYD_BIN="$(cd "$ROOT" && swift build "${args[@]}" --show-bin-path)/queryd"
                break
            fi
            if ((i < tries)); then sleep 60; fi
        done
        [[ -n "${QUERYD_BIN:-}" ]] || fail "swift build failed; set QUERYD_BIN to a built queryd"
    fi
    [[ -x "$QUERYD_BIN" ]] || fail "no queryd binary at $QUERYD_BIN"
}

hit_value() { # the cache-hit benchmarks' value: a JSON object of exactly 1,024 bytes
    local prefix='{"id":1024,"title":"queryd cache-hit benchmark value","tags":["bench","cache","hit"],"pad":"'
    local suffix='"}'
    printf '%s%s%s' "$prefix" "$(head -c $((1024 - ${#prefix} - ${#suffix})) /dev/zero | tr '\0' 'x')" "$suffix"
}

need_redis() {
    if ! command -v redis-server >/dev/null || ! command -v redis-cli >/dev/null; then
        log "redis-server is missing; installing it (apt-get install -y redis-server)"
        (apt-get install -y redis-server >&2 || (apt-get update >&2 && apt-get install -y redis-server >&2)) ||
            fail "cannot install redis-server"
    fi
}

wait_for_socket() { # wait_for_socket PATH PID NAME: up to 20 s for the socket to appear
    for _ in $(seq 200); do
        [[ -S "$1" ]] && return 0
        kill -0 "$2" 2>/dev/null || fail "$3 exited during start-up (log: $(tail -5 "$TMP/$3.log" 2>/dev/null))"
        sleep 0.1
    done
    fail "$3 did not create $1 within 20 s"
}

# start_queryd [EXTRA ARGS...]: sets QUERYD_PID and QUERYD_SOCK (a fresh socket each time)
start_queryd() {
    QUERYD_SOCK="$TMP/queryd-$RANDOM.sock"
    # shellcheck disable=SC2086 # QUERYD_ARGS is a list of words on purpose
    "${SERVER_PIN[@]}" "$QUERYD_BIN" serve --socket "$QUERYD_SOCK" $QUERYD_ARGS "$@" >"$TMP/queryd.log" 2>&1 &
    QUERYD_PID=$!
    PIDS+=("$QUERYD_PID")
    wait_for_socket "$QUERYD_SOCK" "$QUERYD_PID" queryd
}

# start_callgrind NAME: queryd ($QUERYD_BIN serve $QUERYD_ARGS) under callgrind, collecting nothing
# until `callgrind_control -i on`; sets QUERYD_PID, QUERYD_SOCK and CG_OUT (the output file)
start_callgrind() {
    QUERYD_SOCK="$TMP/queryd-$RANDOM.sock"
    CG_OUT="$TMP/callgrind.$1.out"
    # shellcheck disable=SC2086 # QUERYD_ARGS is a list of words on purpose
    valgrind --tool=callgrind --instr-atstart=no --callgrind-out-file="$CG_OUT" \
        "$QUERYD_BIN" serve --socket "$QUERYD_SOCK" ${QUERYD_ARGS:-} >"$TMP/queryd.log" 2>&1 &
    QUERYD_PID=$!
    PIDS+=("$QUERYD_PID")
    for _ in $(seq 600); do # valgrind starts slowly: up to 60 s
        [[ -S "$QUERYD_SOCK" ]] && return 0
        kill -0 "$QUERYD_PID" 2>/dev/null || fail "queryd under valgrind exited (log: $(tail -5 "$TMP/queryd.log"))"
        sleep 0.1
    done
    fail "queryd under valgrind did not create its socket within 60 s"
}

stop_queryd() {
    stop_pid "$QUERYD_PID"
    rm -f "$QUERYD_SOCK"
}

# start_redis [EXTRA ARGS...]: sets REDIS_PID and REDIS_SOCK
start_redis() {
    REDIS_SOCK="$TMP/redis-$RANDOM.sock"
    "${SERVER_PIN[@]}" redis-server --port 0 --unixsocket "$REDIS_SOCK" --save '' --appendonly no \
        --loglevel warning "$@" >"$TMP/redis.log" 2>&1 &
    REDIS_PID=$!
    PIDS+=("$REDIS_PID")
    wait_for_socket "$REDIS_SOCK" "$REDIS_PID" redis
}

stop_redis() {
    stop_pid "$REDIS_PID"
    rm -f "$REDIS_SOCK"
}

rss_bytes() { # resident set size of a process, in bytes
    awk '/^VmRSS:/ { print $2 * 1024 }' "/proc/$1/status"
}

settle_rss() { # settle_rss PID: the RSS once it stops changing (up to 3 s)
    local a b
    a=$(rss_bytes "$1")
    for _ in $(seq 6); do
        sleep 0.5
        b=$(rss_bytes "$1")
        [[ "$a" == "$b" ]] && break
        a=$b
    done
    echo "$b"
}

busy_pct() { # share of all CPUs busy (steal included) over 0.5 s, in percent
    local a b
    a=$(awk '/^cpu /{ print $2+$3+$4+$5+$6+$7+$8+$9, $5+$6 }' /proc/stat)
    sleep 0.5
    b=$(awk '/^cpu /{ print $2+$3+$4+$5+$6+$7+$8+$9, $5+$6 }' /proc/stat)
    awk -v a="$a" -v b="$b" 'BEGIN { split(a, x, " "); split(b, y, " "); t = y[1] - x[1]; i = y[2] - x[2];
        printf "%d", (t > 0 ? 100 * (t - i) / t : 0) }'
}

wait_idle() { # wait up to IDLE_WAIT s for the machine to be under IDLE_BUSY_PCT % busy
    local start=$SECONDS pct
    while :; do
        pct=$(busy_pct)
        ((pct <= IDLE_BUSY_PCT)) && return 0
        if ((SECONDS - start >= IDLE_WAIT)); then
            BUSY_RUNS=$((BUSY_RUNS + 1))
            log "  (machine still ${pct}% busy after ${IDLE_WAIT}s; running anyway)"
            return 0
        fi
    done
}

field() { # field NAME JSON: a numeric member of a one-line JSON object
    sed -n "s/.*\"$1\":\(-\{0,1\}[0-9.]*\).*/\1/p" <<<"$2" | awk 'NR == 1'
}

median_file() { # median_file FILE COLUMN: median of one whitespace-separated column
    sort -g -k "$2,$2" "$1" | awk -v c="$2" '{ v[NR] = $c } END {
        if (NR == 0) { print 0; exit }
        if (NR % 2) print v[(NR + 1) / 2]; else print (v[NR / 2] + v[NR / 2 + 1]) / 2 }'
}

median_of() { # median_of VALUES...
    printf '%s\n' "$@" | sort -g | awk '{ v[NR] = $1 } END {
        if (NR == 0) { print 0; exit }
        if (NR % 2) print v[(NR + 1) / 2]; else print (v[NR / 2] + v[NR / 2 + 1]) / 2 }'
}

fmt_int() { # round and group thousands: 1234567.8 -> 1,234,568
    awk -v x="$1" 'BEGIN { printf "%.0f", x }' | sed -e ':a' -e 's/\([0-9]\)\([0-9]\{3\}\)\($\|,\)/\1,\2\3/; ta'
}

fmt() { # fmt DECIMALS X
    awk -v d="$1" -v x="$2" 'BEGIN { printf "%.*f", d, x }'
}

ratio() { # ratio A B DECIMALS: A / B
    awk -v a="$1" -v b="$2" -v d="${3:-2}" 'BEGIN { if (b == 0) print "n/a"; else printf "%.*f", d, a / b }'
}

machine_line() {
    echo "- $(nproc) vCPUs ($(awk -F': ' '/model name/{ print $2; exit }' /proc/cpuinfo)), $(awk '/MemTotal/ {
        printf "%.0f GB", $2 / 1048576 }' /proc/meminfo); $PIN_NOTE; $PRIO_NOTE; load average at start: $LOAD_START"
    echo "- queryd: $QUERYD_BIN; $(redis-server --version 2>/dev/null | awk '{ print "redis " $3 }' | sed 's/v=//')"
    if ((BUSY_RUNS > 0)); then
        echo "- WARNING: $BUSY_RUNS run(s) started while the machine was more than ${IDLE_BUSY_PCT}% busy (shared VM)"
    fi
}

LOAD_START=$(cut -d' ' -f1-3 /proc/loadavg)
