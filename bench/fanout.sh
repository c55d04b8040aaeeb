#!/usr/bin/env bash
# fanout.sh: one change to 10,000 subscribers. queryd: `query.set` of a key with 10,000 subscriptions
# (100 connections x 100 `query.subscribe`); Redis: `PUBLISH` of the same payload to 10,000
# subscriptions spread the same way (100 connections x 100 `PSUBSCRIBE` patterns that all match the
# channel), and also to 10,000 connections with one `SUBSCRIBE` each. Times until the last notification
# has been read. Prints one Markdown table of medians; see bench/README.md for the mapping.
#
# Environment (all optional):
#   ROUNDS=3              client runs per shape (each sets up its subscriptions, then publishes PUBLISHES times)
#   PUBLISHES=5           changes published per client run (one at a time, each waited for)
#   SHAPES="redis-psub:100x100 queryd:100x100 redis-sub:10000x1 queryd:10000x1"   mode:connections x per connection
#   PAYLOAD_BYTES=100     size of the published JSON value (the same bytes in both)
#   QUERYD_BIN, QUERYD_ARGS, PIN, NICE, IDLE_WAIT, IDLE_BUSY_PCT, BUILD_TIMEOUT   as in cache-hit.sh
#   BENCH_TIMEOUT=1200    the whole script's time limit, in seconds
set -euo pipefail
NAME=fanout
BENCH_TIMEOUT=${BENCH_TIMEOUT:-1200}
# shellcheck source=bench/lib.sh
source "$(dirname "${BASH_SOURCE[0]}")/lib.sh"
ROUNDS=${ROUNDS:-3}
PUBLISHES=${PUBLISHES:-5}
SHAPES=${SHAPES:-"redis-psub:100x100 queryd:100x100 redis-sub:10000x1 queryd:10000x1"}
PAYLOAD_BYTES=${PAYLOAD_BYTES:-100}

bench_init
build_c fanout
build_queryd
need_redis
start_queryd --max-connections 20000
start_redis --maxclients 20000

START=$(date -u +%Y-%m-%dT%H:%M:%SZ)
for round in $(seq "$ROUNDS"); do
    for shape in $SHAPES; do
        mode=${shape%%:*}
        cfg=${shape#*:}
        conns=${cfg%x*}
        per=${cfg#*x}
        sock=$REDIS_SOCK
        [[ $mode == queryd ]] && sock=$QUERYD_SOCK
        wait_idle
        out=$(timeout 300 "${CLIENT_PIN[@]}" "$HERE/out/fanout" --socket "$sock" --mode "$mode" \
            --connections "$conns" --per-connection "$per" --rounds "$PUBLISHES" --payload-bytes "$PAYLOAD_BYTES") ||
            fail "fanout $shape failed: $out"
        log "  round $round $shape:"
        log "$out"
        summary=$(grep '"summary"' <<<"$out")
        # first delivery, publisher ack and extra notifications: medians over this run's publishes
        firsts=$(grep '"round"' <<<"$out" | sed -n 's/.*"first_ms":\([0-9.]*\).*/\1/p')
        acks=$(grep '"round"' <<<"$out" | sed -n 's/.*"ack_ms":\([0-9.]*\).*/\1/p')
        extra=$(grep '"round"' <<<"$out" | sed -n 's/.*"extra":\([0-9]*\).*/\1/p' | awk '{ s += $1 } END { print s + 0 }')
        # shellcheck disable=SC2086
        echo "$(field median_last_ms "$summary") $(median_of $firsts) $(median_of $acks) $extra" \
            "$(field client_cpu_s "$summary") $(field setup_s "$summary")" >>"$TMP/$shape.txt"
    done
    # ratio of each shape to the Redis shape with the same connections x per connection, this round
    for shape in $SHAPES; do
        [[ ${shape%%:*} == queryd ]] || continue
        cfg=${shape#*:}
        anchor="redis-psub:$cfg"
        [[ $cfg == *x1 ]] && anchor="redis-sub:$cfg"
        [[ -f "$TMP/$anchor.txt" ]] || continue
        q=$(awk 'END { print $1 }' "$TMP/$shape.txt")
        r=$(awk 'END { print $1 }' "$TMP/$anchor.txt")
        echo "$(ratio "$q" "$r" 3)" >>"$TMP/$shape.ratio"
    done
done

echo "### Fan-out: one change to 10,000 subscriptions ($START)"
echo
machine_line
echo "- $ROUNDS client runs per shape, alternating shapes; each run sets up its subscriptions and publishes $PUBLISHES"
echo "  times (one at a time); a run's figure is the median of its publishes, the table shows the median over runs"
echo "- time = from just before the publisher's write to the read that delivers the last of the 10,000 notifications;"
echo "  payload: the same ${PAYLOAD_BYTES}-byte JSON value in both. A queryd notification carries the whole state"
echo "  (about 650 bytes + the value); a Redis message only the channel, pattern and payload"
echo "- ratio = queryd ÷ Redis with the same connections × subscriptions, same round (below 1: queryd is faster)"
echo
echo "| server | connections × subscriptions each | time to last notification ms | first notification ms" \
    "| publisher's reply ms | ratio to Redis | extra notifications | client CPU s per run |"
echo "|---|---|---:|---:|---:|---:|---:|---:|"
for shape in $SHAPES; do
    f="$TMP/$shape.txt"
    mode=${shape%%:*}
    cfg=${shape#*:}
    case $mode in
    queryd) label="queryd \`query.set\`" ;;
    redis-psub) label="redis \`PUBLISH\` (PSUBSCRIBE patterns)" ;;
    redis-sub) label="redis \`PUBLISH\` (SUBSCRIBE)" ;;
    esac
    r="—"
    [[ -f "$TMP/$shape.ratio" ]] && r=$(fmt 2 "$(median_file "$TMP/$shape.ratio" 1)")
    printf '| %s | %s × %s | %s | %s | %s | %s | %s | %s |\n' "$label" "$(fmt_int "${cfg%x*}")" "${cfg#*x}" \
        "$(fmt 1 "$(median_file "$f" 1)")" "$(fmt 1 "$(median_file "$f" 2)")" "$(fmt 1 "$(median_file "$f" 3)")" \
        "$r" "$(awk '{ s += $4 } END { print s + 0 }' "$f")" "$(fmt 3 "$(median_file "$f" 5)")"
done
echo
for shape in $SHAPES; do
    [[ -f "$TMP/$shape.ratio" ]] || continue
    r=$(median_file "$TMP/$shape.ratio" 1)
    verdict="**not met**"
    awk -v r="$r" 'BEGIN { exit !(r <= 1.0) }' && verdict="**met**"
    echo "Target (fan-out no slower than Redis pub/sub), ${shape#*:}: $verdict (ratio $(fmt 2 "$r"))."
done
