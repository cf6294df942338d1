#!/usr/bin/env bash
# Two gateways side by side, for a change too small to see across two runs of bench/proxy.sh:
#
#   A_JAR=/tmp/old.jar bash bench/ab.sh                          # that jar (A) against target/'s (B)
#   B_OPTS="-XX:+UseSerialGC -Xmx192m -Xss512k -XX:ReservedCodeCacheSize=64m" bash bench/ab.sh   # one jar, two sets of flags
#
# Both gateways (A and B) run at once against bench/proxy.sh's fake upstream, pinned to the same core, and so does nginx
# as a plain reverse proxy; after both are warm, ROUNDS rounds each put WINDOW seconds of load at CONNS connections
# through A, B and nginx, the order turning every round (A B nginx, B nginx A, ...). A machine whose speed moves by
# more than the change between two runs (other load, a noisy neighbour) then moves both sides alike, and nginx's
# column says how much it moved. It prints, per side, the median and range over the rounds of CPU per request,
# requests/s, p50/p99 and KB allocated per request, the full collections in its windows, the median of B's CPU over
# A's in the same round (of all rounds, and of those where neither side ran a full collection), the same for the
# allocation, and each gateway's peak RSS.
#
# Knobs (environment variables), besides bench/proxy.sh's PROXY_CPUS, LOAD_CPUS and WARMUP_MAX:
#   A_JAR, B_JAR       the gateways' fat jars (default: JAR, else target/sandbox-gateway-*.jar, built if missing)
#   A_OPTS, B_OPTS     their JVM flags (default: GATEWAY_JAVA_OPTS, else the image's recommendation for one CPU)
#   A_ARGS, B_ARGS     extra Spring arguments for each (default: GATEWAY_ARGS)
#   A_H2_URL, B_H2_URL each one's H2 URL (default: H2_URL, else the gateway's own default)
#   BACKEND=memory     memory (in-memory state, embedded H2) or redis (A: Redis DB 13 and PostgreSQL schema
#                      bench_ab_a, B: DB 15 and bench_ab_b; the tests use DBs 12 and 14)
#   ROUNDS=6 WINDOW=10 CONNS=16
#   STREAM=false       true: the load is streams (stream:true, Accept: text/event-stream) instead of JSON answers
#   WARMUP=45          seconds of warm-up load through each gateway at least (then until its JIT is quiet)
#   A_PORT=18380 B_PORT=18382 (management ports one above each) UPSTREAM_PORT=18389 PROXY_PORT=18390
#   OUT_DIR            logs and raw results (default: a fresh /tmp/sandbox-gateway-ab.*)
set -euo pipefail

ROOT=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
BENCH="$ROOT/bench"

BACKEND=${BACKEND:-memory}
ROUNDS=${ROUNDS:-6}
WINDOW=${WINDOW:-10}
CONNS=${CONNS:-16}
STREAM=${STREAM:-false}
WARMUP=${WARMUP:-45}
A_PORT=${A_PORT:-18380}
B_PORT=${B_PORT:-18382}
UPSTREAM_PORT=${UPSTREAM_PORT:-18389}
PROXY_PORT=${PROXY_PORT:-18390}
OUT_DIR=${OUT_DIR:-$(mktemp -d "${TMPDIR:-/tmp}/sandbox-gateway-ab.XXXXXX")}
mkdir -p "$OUT_DIR"

# shellcheck source=bench/proxy-lib.sh
source "$BENCH/proxy-lib.sh"
needs_psql "$BACKEND"
require_free_ports "$A_PORT" $(( A_PORT + 1 )) "$B_PORT" $(( B_PORT + 1 ))
A_JAR=$(readlink -f "${A_JAR:-$JAR}")
B_JAR=$(readlink -f "${B_JAR:-$JAR}")
A_OPTS=${A_OPTS:-$GATEWAY_JAVA_OPTS}
B_OPTS=${B_OPTS:-$GATEWAY_JAVA_OPTS}
A_ARGS=${A_ARGS:-${GATEWAY_ARGS:-}}
B_ARGS=${B_ARGS:-${GATEWAY_ARGS:-}}
export BENCH_STREAM=$STREAM

REDIS_DB=13 PG_SCHEMA=bench_ab_a H2_URL=${A_H2_URL:-$H2_URL} start_gateway a "$BACKEND" "$A_PORT" $(( A_PORT + 1 )) "$A_JAR" "$A_OPTS" "$A_ARGS"
A_PID=$GW_PID
REDIS_DB=15 PG_SCHEMA=bench_ab_b H2_URL=${B_H2_URL:-$H2_URL} start_gateway b "$BACKEND" "$B_PORT" $(( B_PORT + 1 )) "$B_JAR" "$B_OPTS" "$B_ARGS"
B_PID=$GW_PID
measure warmup nginx "$PROXY_PORT" "$PROXY_PID" "$CONNS" 5
warm_up a "$A_PORT" "$A_PID" "$CONNS" "$WARMUP"
warm_up b "$B_PORT" "$B_PID" "$CONNS" "$WARMUP"

orders=("a b nginx" "b nginx a" "nginx a b")
for round in $(seq 1 "$ROUNDS"); do
    order=${orders[$(( (round - 1) % 3 ))]}
    log "round $round of $ROUNDS: $order, ${WINDOW}s each at $CONNS connections (load $(load1))"
    for who in $order; do
        case $who in
            a) measure "$round" a "$A_PORT" "$A_PID" "$CONNS" "$WINDOW" ;;
            b) measure "$round" b "$B_PORT" "$B_PID" "$CONNS" "$WINDOW" ;;
            nginx) measure "$round" nginx "$PROXY_PORT" "$PROXY_PID" "$CONNS" "$WINDOW" ;;
        esac
    done
done

{
echo
echo "A/B at $CONNS connections, $ROUNDS rounds of ${WINDOW}s, $BACKEND backend, streams $STREAM, $(date -u +%Y-%m-%dT%H:%MZ)"
echo "A: $A_JAR $A_OPTS $A_ARGS ${A_H2_URL:-$H2_URL}"
echo "B: $B_JAR $B_OPTS $B_ARGS ${B_H2_URL:-$H2_URL}"
echo
awk -F'\t' '
    NR == 1 || $1 !~ /^[0-9]+$/ { next }   # the rounds (the warm-ups are named)
    { who = $3; key = who SUBSEP $1; cpu[key] = $9; rps[key] = $4; p50[key] = $5 / 1000; p99[key] = $6 / 1000; jit[key] = $12
      alloc[key] = $13; full[key] = $15; fulls[who] += $15; err[who] += $7; if ($1 > rounds) rounds = $1
      if (who != "nginx" && $15 == "-") unknown = 1 }   # no jstat (a JRE): the allocation and collections are unknown
    function median(values, n,    i, j, t) {
        for (i = 2; i <= n; i++) for (j = i; j > 1 && values[j - 1] > values[j]; j--) { t = values[j]; values[j] = values[j - 1]; values[j - 1] = t }
        return n % 2 ? values[(n + 1) / 2] : (values[n / 2] + values[n / 2 + 1]) / 2
    }
    function stat(array, who, format,    r, v, lo, hi) {
        lo = ""; hi = ""
        for (r = 1; r <= rounds; r++) { v[r] = array[who, r]; if (lo == "" || v[r] < lo) lo = v[r]; if (hi == "" || v[r] > hi) hi = v[r] }
        return sprintf(format " (" format "-" format ")", median(v, rounds), lo, hi)
    }
    END {
        printf "%-6s %-24s %-22s %-22s %-22s %-12s %-22s %-6s %s\n", "side", "CPU us/req (range)", "req/s", "p50 ms", "p99 ms",
            "JIT us/req", "KB allocated/req", "full", "errors"
        split("a b nginx", sides, " ")
        for (s = 1; s <= 3; s++) {
            w = sides[s]
            printf "%-6s %-24s %-22s %-22s %-22s %-12s %-22s %-6s %d\n", w == "nginx" ? w : toupper(w), stat(cpu, w, "%.0f"),
                stat(rps, w, "%.0f"), stat(p50, w, "%.2f"), stat(p99, w, "%.2f"), stat(jit, w, "%.0f"),
                w == "nginx" || unknown ? "-" : stat(alloc, w, "%.1f"), w == "nginx" || unknown ? "-" : fulls[w], err[w]
        }
        # A full collection (Serial: a few hundred ms of the 160 MB heap) in the window of one side moves the ratio of
        # its round far more than most changes do: the median is also given over the rounds where neither side ran one.
        for (r = 1; r <= rounds; r++) {
            ratio[r] = cpu["b", r] / cpu["a", r]
            if (full["a", r] == 0 && full["b", r] == 0) calm[++ncalm] = ratio[r]
        }
        printf "\nB/A CPU per request, median of the rounds: %.3f", median(ratio, rounds)
        if (unknown) { print ""; exit }
        if (ncalm) printf ", of the %d without a full collection: %.3f\n", ncalm, median(calm, ncalm)
        else print " (a full collection in every round)"
        for (r = 1; r <= rounds; r++) ratio[r] = alloc["b", r] / alloc["a", r]
        printf "B/A KB allocated per request, median of the rounds: %.3f\n", median(ratio, rounds)
    }' "$RESULTS"
echo "peak RSS: A $(( $(proc_kib "$A_PID" VmHWM) / 1024 )) MiB, B $(( $(proc_kib "$B_PID" VmHWM) / 1024 )) MiB"
echo "raw: $RESULTS; logs in $OUT_DIR"
} | tee "$OUT_DIR/report.txt"
