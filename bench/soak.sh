#!/usr/bin/env bash
# Soak test (not run in CI): starts `queryd serve`, runs a mixed load for DURATION seconds, and
# prints the daemon's RSS (VmRSS) and open descriptors every INTERVAL seconds, then a summary.
#
# Load, all at once: writers setting keys in batches; subscribers reading normally; one
# subscriber that never reads (its pushes must coalesce); invalidations of every key; bad lines;
# connection churn; and pings, whose round-trip time is reported.
#
# Usage: bench/soak.sh [DURATION=60] [INTERVAL=5]      env: QUERYD_BIN (default .build/release/queryd)
# Needs socat. A flat RSS column after warm-up is the pass criterion.
#
# With --persist: bench/soak.sh --persist [DURATION=60] [CYCLE=10] [SYNC=interval] [FLUSH_MS=200] runs
# bench/soak-persist.py instead: writers, subscribers and fetchers coming and going against a
# `--persist` daemon that is killed with SIGKILL and restarted every CYCLE seconds; after each restart
# no acknowledged write older than the sync window may be missing, and after the load leaves the RSS
# must be back at the restored baseline. Needs python3.
set -euo pipefail

if [[ "${1:-}" == "--persist" ]]; then
    root="$(cd "$(dirname "$0")/.." && pwd)"
    bin="${QUERYD_BIN:-$root/.build/release/queryd}"
    [[ -x "$bin" ]] || { echo "queryd not found at $bin (swift build -c release, or set QUERYD_BIN)" >&2; exit 1; }
    work="$(mktemp -d /tmp/queryd-soak-persist.XXXXXX)"
    trap 'rm -rf "$work"' EXIT
    python3 "$root/bench/soak-persist.py" "$bin" "$work" "${2:-60}" "${3:-10}" "${4:-interval}" "${5:-200}"
    exit
fi

duration="${1:-60}"
interval="${2:-5}"
root="$(cd "$(dirname "$0")/.." && pwd)"
bin="${QUERYD_BIN:-$root/.build/release/queryd}"
work="$(mktemp -d /tmp/queryd-soak.XXXXXX)"
sock="$work/q.sock"
pids=()

cleanup() {
    for pid in "${pids[@]}"; do kill "$pid" 2>/dev/null || true; done
    [[ -n "${daemon:-}" ]] && kill "$daemon" 2>/dev/null && wait "$daemon" 2>/dev/null || true
    rm -rf "$work"
}
trap cleanup EXIT

[[ -x "$bin" ]] || { echo "queryd not found at $bin (swift build -c release, or set QUERYD_BIN)" >&2; exit 1; }
command -v socat >/dev/null || { echo "socat is required" >&2; exit 1; }

"$bin" serve --socket "$sock" --log-file "$work/queryd.log" --max-batch 1000 &
daemon=$!
for _ in $(seq 100); do [[ -S "$sock" ]] && break; sleep 0.05; done

end=$((SECONDS + duration))
rss() { awk '/VmRSS/ {print $2}' "/proc/$daemon/status"; }
fds() { ls "/proc/$daemon/fd" | wc -l; }

# Writers: batches of 500 query.set over 100 keys, as fast as the daemon answers.
writer() {
    local n=0
    while ((SECONDS < end)); do
        awk -v start="$n" 'BEGIN {
            printf "["
            for (i = 0; i < 500; i++) {
                if (i) printf ","
                printf "{\"jsonrpc\":\"2.0\",\"id\":%d,\"method\":\"query.set\",\"params\":{\"key\":[\"soak\",%d],\"data\":{\"n\":%d,\"pad\":\"%0200d\"}}}", start + i, (start + i) % 100, start + i, 0
            }
            print "]"
        }' | socat -t 5 - "UNIX-CONNECT:$sock" >/dev/null || true
        n=$((n + 500))
    done
}

# Subscribers that read: 100 subscriptions, output discarded.
reader() {
    { for k in $(seq 0 99); do
        printf '{"jsonrpc":"2.0","id":%d,"method":"query.subscribe","params":{"key":["soak",%d]}}\n' "$k" "$k"
      done; sleep "$duration"; } | socat -t 1 - "UNIX-CONNECT:$sock" >/dev/null || true
}

# A subscriber that never reads: socat's output goes to a pipe nobody drains.
stalled() {
    mkfifo "$work/stalled"
    exec 9<>"$work/stalled"
    { for k in $(seq 0 99); do
        printf '{"jsonrpc":"2.0","id":%d,"method":"query.subscribe","params":{"key":["soak",%d]}}\n' "$k" "$k"
      done; sleep "$duration"; } | socat -t 1 - "UNIX-CONNECT:$sock" >&9 || true
}

# Invalidations, bad lines and connection churn.
chaos() {
    while ((SECONDS < end)); do
        printf '%s\n' '{"jsonrpc":"2.0","id":1,"method":"queries.invalidate","params":{"filter":{"key":["soak"]}}}' \
            '{not json' '[]' '{"jsonrpc":"2.0","id":2,"method":"nope"}' \
            | socat -t 1 - "UNIX-CONNECT:$sock" >/dev/null || true
    done
}

for _ in 1 2; do writer & pids+=($!); done
reader & pids+=($!)
stalled & pids+=($!)
chaos & pids+=($!)

printf '%8s %10s %6s %10s\n' seconds rss_kb fds ping_ms
first=""
while ((SECONDS < end)); do
    sleep "$interval"
    start=$(date +%s%N)
    echo '{"jsonrpc":"2.0","id":1,"method":"server.ping"}' | socat -t 5 - "UNIX-CONNECT:$sock" >/dev/null
    ping=$((($(date +%s%N) - start) / 1000000))
    now=$(rss)
    first="${first:-$now}"
    printf '%8d %10d %6d %10d\n' "$((duration - (end - SECONDS)))" "$now" "$(fds)" "$ping"
done
stats=$(echo '{"jsonrpc":"2.0","id":1,"method":"server.stats"}' | socat -t 5 - "UNIX-CONNECT:$sock")
echo "server.stats: $stats"
echo "RSS first sample ${first} kB, last $(rss) kB; daemon log: $(wc -l <"$work/queryd.log") lines, $(grep -c warning "$work/queryd.log" || true) warnings"
