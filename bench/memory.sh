#!/usr/bin/env bash
# memory.sh: memory per cached query. Fills a fresh queryd with N queries (`query.set`, key ["m",i],
# a distinct VALUE_BYTES-byte JSON value each) and a fresh Redis with the same N keys (the same key text)
# and values (`SET`), and compares queryd's resident-set growth per query with Redis's `used_memory`
# growth per key (INFO memory) and Redis's resident-set growth per key. Prints one Markdown table.
#
# queryd keeps its default gcTime (5 minutes), so every query also holds its gc timer, as in TanStack;
# the fill and the reading must finish within those 5 minutes (the script checks server.stats).
#
# Environment (all optional):
#   ROUNDS=3              rounds, each on a fresh queryd and a fresh Redis
#   KEYS=1000000          queries (keys) to cache
#   VALUE_BYTES=100       bytes per value
#   QUERYD_BIN, QUERYD_ARGS, PIN, NICE, BUILD_TIMEOUT   as in cache-hit.sh
#   BENCH_TIMEOUT=1200    the whole script's time limit, in seconds
set -euo pipefail
NAME=memory
BENCH_TIMEOUT=${BENCH_TIMEOUT:-1200}
# shellcheck source=bench/lib.sh
source "$(dirname "${BASH_SOURCE[0]}")/lib.sh"
ROUNDS=${ROUNDS:-3}
KEYS=${KEYS:-1000000}
VALUE_BYTES=${VALUE_BYTES:-100}

bench_init
build_c fill loadgen
build_queryd
need_redis

queryd_stat() { # queryd_stat FIELD: a number from server.stats
    local out
    out=$(timeout 30 "$HERE/out/loadgen" --socket "$QUERYD_SOCK" --once \
        --request '{"jsonrpc":"2.0","id":%ID%,"method":"server.stats"}') || fail "server.stats failed: $out"
    field "$1" "$out"
}

redis_info() { # redis_info FIELD: a number from INFO memory
    redis-cli -s "$REDIS_SOCK" INFO memory | tr -d '\r' | sed -n "s/^$1:\([0-9]*\)$/\1/p"
}

START=$(date -u +%Y-%m-%dT%H:%M:%SZ)
for round in $(seq "$ROUNDS"); do
    # queryd
    start_queryd
    base_queries=$(queryd_stat queries)
    rss0=$(settle_rss "$QUERYD_PID")
    t0=$SECONDS
    out=$(timeout 600 "${CLIENT_PIN[@]}" "$HERE/out/fill" --socket "$QUERYD_SOCK" --count "$KEYS" \
        --value-bytes "$VALUE_BYTES") || fail "fill (queryd) failed: $out"
    rss1=$(settle_rss "$QUERYD_PID")
    queries=$(queryd_stat queries)
    ((SECONDS - t0 < 290)) || fail "the fill took longer than the 5-minute gcTime allows"
    [[ $((queries - base_queries)) == "$KEYS" ]] || fail "server.stats reports $queries queries, expected $KEYS"
    q_per=$(awk -v a="$rss0" -v b="$rss1" -v n="$KEYS" 'BEGIN { printf "%.1f", (b - a) / n }')
    log "  round $round queryd: $out rss $rss0 -> $rss1 ($q_per B/query)"
    stop_queryd

    # Redis
    start_redis
    used0=$(redis_info used_memory)
    rrss0=$(settle_rss "$REDIS_PID")
    out=$(timeout 600 "${CLIENT_PIN[@]}" "$HERE/out/fill" --socket "$REDIS_SOCK" --protocol redis --count "$KEYS" \
        --value-bytes "$VALUE_BYTES") || fail "fill (redis) failed: $out"
    used1=$(redis_info used_memory)
    rrss1=$(settle_rss "$REDIS_PID")
    dbsize=$(redis-cli -s "$REDIS_SOCK" DBSIZE)
    [[ "$dbsize" == "$KEYS" ]] || fail "redis DBSIZE is $dbsize, expected $KEYS"
    r_used=$(awk -v a="$used0" -v b="$used1" -v n="$KEYS" 'BEGIN { printf "%.1f", (b - a) / n }')
    r_rss=$(awk -v a="$rrss0" -v b="$rrss1" -v n="$KEYS" 'BEGIN { printf "%.1f", (b - a) / n }')
    log "  round $round redis: $out used_memory $used0 -> $used1 ($r_used B/key), rss $rrss0 -> $rrss1 ($r_rss B/key)"
    stop_redis
    echo "$q_per $r_used $r_rss $(ratio "$q_per" "$r_used" 3) $(ratio "$q_per" "$r_rss" 3) $rss1 $used1 $rrss1" \
        >>"$TMP/memory.txt"
done

f="$TMP/memory.txt"
echo "### Memory per cached query: $(fmt_int "$KEYS") queries, ${VALUE_BYTES}-byte values ($START)"
echo
machine_line
echo "- $ROUNDS rounds, each on a fresh queryd and a fresh Redis; growth measured from just after start-up to just"
echo "  after the fill (RSS from /proc/PID/status once it stops changing); figures are medians over rounds"
echo "- queryd: \`query.set {key:[\"m\",i], data:{\"i\":i,\"pad\":\"xx…\"}}\`; Redis: \`SET [\"m\",i] {\"i\":i,\"pad\":\"xx…\"}\`"
echo "  (the same key text and value bytes); ratio = queryd ÷ Redis, same round"
echo
echo "| measure | bytes per query / key | ratio queryd ÷ this | total after the fill MB |"
echo "|---|---:|---:|---:|"
echo "| queryd RSS growth per query | $(fmt 0 "$(median_file "$f" 1)") | 1.00 |" \
    "$(fmt 0 "$(awk -v x="$(median_file "$f" 6)" 'BEGIN { print x / 1048576 }')") |"
echo "| Redis \`used_memory\` growth per key | $(fmt 0 "$(median_file "$f" 2)") | $(fmt 2 "$(median_file "$f" 4)") |" \
    "$(fmt 0 "$(awk -v x="$(median_file "$f" 7)" 'BEGIN { print x / 1048576 }')") |"
echo "| Redis RSS growth per key | $(fmt 0 "$(median_file "$f" 3)") | $(fmt 2 "$(median_file "$f" 5)") |" \
    "$(fmt 0 "$(awk -v x="$(median_file "$f" 8)" 'BEGIN { print x / 1048576 }')") |"
echo
r=$(median_file "$f" 4)
verdict="**not met**"
if awk -v r="$r" 'BEGIN { exit !(r <= 1.5) }'; then verdict="**met**"; fi
echo "Target (memory per query within 1.5× of Redis per key, used_memory): $verdict (ratio $(fmt 2 "$r"))."
