#!/usr/bin/env bash
# Overload: does one gateway replica shed load at three times its capacity instead of queueing it?
#
#   bash bench/overload.sh
#
# Starts the offline simulator and a gateway with gateway.overload.max-in-flight=MAX_IN_FLIGHT, then:
#   1. capacity: wrk, closed loop, MAX_IN_FLIGHT/2 connections (the CPU is saturated, nothing shed): req/s, p99;
#   2. overload: 3 x MAX_IN_FLIGHT connections for DURATION s, three times the requests the replica admits at
#      once (six times the connections that saturate it); meanwhile a probe (four curl loops, 50 ms apart) times single requests as a client sees them, and the
#      gateway's RSS is sampled every second: shed ratio, Retry-After on every 503, p99 of admitted
#      requests (the probe's 200s), the longest a shed answer took, admitted req/s, max RSS, heap after GC;
#   3. recovery: right after, MAX_IN_FLIGHT/4 connections for 10 s: nothing shed, req/s back.
# Everything it started is stopped on exit. Knobs: MAX_IN_FLIGHT=64 (max-waiting is the same, max-queue-wait
# QUEUE_WAIT=100ms), DURATION=30, WARMUP=60, WRK_THREADS=1, ports and JVM flags as bench/run.sh
# (SIM_PORT, GW_PORT, MGMT_PORT, GATEWAY_JAVA_OPTS, SIM_JAVA_OPTS, GATEWAY_ARGS, OUT_DIR, JAR).
set -euo pipefail
MAX_IN_FLIGHT=${MAX_IN_FLIGHT:-64}
QUEUE_WAIT=${QUEUE_WAIT:-100ms}
DURATION=${DURATION:-30}
WARMUP=${WARMUP:-60}
WRK_THREADS=${WRK_THREADS:-1}
source "$(dirname "${BASH_SOURCE[0]}")/common.sh"

start_servers --gateway.overload.max-in-flight="$MAX_IN_FLIGHT" --gateway.overload.max-waiting="$MAX_IN_FLIGHT" \
    --gateway.overload.max-queue-wait="$QUEUE_WAIT" --logging.level.root=WARN

run_wrk() { # NAME CONNECTIONS SECONDS
    require_alive
    wrk -t"$WRK_THREADS" -c"$2" -d"$3s" --timeout 10s --latency -s "$BENCH/overload.lua" "$URL_GATEWAY" \
        >"$OUT_DIR/wrk-$1.txt" 2>&1 || die "wrk failed, see $OUT_DIR/wrk-$1.txt"
    require_alive
    grep '^OTHER_ANSWERS' "$OUT_DIR/wrk-$1.txt" >&2 || true
    grep '^BENCH_RESULT' "$OUT_DIR/wrk-$1.txt" || die "wrk printed no result, see $OUT_DIR/wrk-$1.txt"
}
field() { tr ' ' '\n' <<<"$1" | awk -F= -v k="$2" '$1 == k { print $2 }'; }
rps() { awk -v n="$(field "$1" "$2")" -v us="$(field "$1" duration_us)" 'BEGIN { printf "%.0f", n / (us / 1e6) }'; }

CAP_CONNS=$(( MAX_IN_FLIGHT / 2 > 0 ? MAX_IN_FLIGHT / 2 : 1 ))
log "warm-up: ${WARMUP}s at $CAP_CONNS connections"
run_wrk warmup "$CAP_CONNS" "$WARMUP" >/dev/null

log "capacity: ${DURATION}s at $CAP_CONNS connections"
CAP=$(run_wrk capacity "$CAP_CONNS" "$DURATION")
CAP_RPS=$(rps "$CAP" ok)

# The probe: four loops of one request at a time, 50 ms apart, timed by curl; status and seconds per line.
probe_loop() {
    while :; do
        curl -s -o /dev/null -w '%{http_code} %{time_total}\n' -X POST "$URL_GATEWAY/v1/responses" \
            -H 'Content-Type: application/json' -H 'Authorization: Bearer sk-gw-dev-alice' \
            -d '{"model":"gpt-4.1","input":"hi","tools":[{"type":"code_interpreter","container":{"type":"auto"}}]}' || true
        sleep 0.05
    done
}
probe() { probe_loop & probe_loop & probe_loop & probe_loop & wait; }
sample_rss() { while :; do proc_kib "$GW_PID" VmRSS; sleep 1; done; }

log "overload: ${DURATION}s at $(( 3 * MAX_IN_FLIGHT )) connections"
SHED_BEFORE=$(metric gateway_overload_shed_total)
probe >"$OUT_DIR/probe.txt" & PROBE_PID=$!
sample_rss >"$OUT_DIR/rss.txt" & RSS_PID=$!
OVER=$(run_wrk overload $(( 3 * MAX_IN_FLIGHT )) "$DURATION")
pkill -P "$PROBE_PID" 2>/dev/null || true
kill "$PROBE_PID" "$RSS_PID" 2>/dev/null || true
wait "$PROBE_PID" "$RSS_PID" 2>/dev/null || true
SHED_METRIC=$(( $(metric gateway_overload_shed_total) - SHED_BEFORE ))
HEAP_KIB=$(heap_after_gc_kib "$GW_PID")

log "recovery: 10s at $(( MAX_IN_FLIGHT / 4 )) connections"
REC=$(run_wrk recovery $(( MAX_IN_FLIGHT / 4 > 0 ? MAX_IN_FLIGHT / 4 : 1 )) 10)

pct() { awk -v a="$1" -v b="$2" 'BEGIN { printf "%.1f", (b > 0 ? 100 * a / b : 0) }'; }
probe_p99() { awk -v s="$1" '$1 == s { print $2 }' "$OUT_DIR/probe.txt" | sort -n \
    | awk '{ v[NR] = $1 } END { if (NR == 0) { print "-"; exit } i = int(NR * 0.99); if (i < 1) i = 1; printf "%.1f", v[i] * 1000 }'; }
probe_max() { awk -v s="$1" '$1 == s && $2 > m { m = $2 } END { printf "%.1f", m * 1000 }' "$OUT_DIR/probe.txt"; }
{
    echo "Overload, one replica, max-in-flight=$MAX_IN_FLIGHT max-waiting=$MAX_IN_FLIGHT max-queue-wait=$QUEUE_WAIT"
    printf '%-10s %6s %10s %10s %8s %9s %9s %9s\n' phase conns "ok req/s" "shed req/s" "shed %" "p99 ms" "max ms" errors
    for phase in capacity:"$CAP":$CAP_CONNS overload:"$OVER":$(( 3 * MAX_IN_FLIGHT )) recovery:"$REC":$(( MAX_IN_FLIGHT / 4 )); do
        IFS=: read -r name r c <<<"$phase"
        total=$(( $(field "$r" ok) + $(field "$r" shed) + $(field "$r" other) ))
        printf '%-10s %6s %10s %10s %8s %9.1f %9.1f %9s\n' "$name" "$c" "$(rps "$r" ok)" "$(rps "$r" shed)" \
            "$(pct "$(field "$r" shed)" "$total")" "$(awk -v u="$(field "$r" p99_us)" 'BEGIN { print u / 1000 }')" \
            "$(awk -v u="$(field "$r" max_us)" 'BEGIN { print u / 1000 }')" \
            "$(( $(field "$r" other) + $(field "$r" err_connect) + $(field "$r" err_read) + $(field "$r" err_write) + $(field "$r" err_timeout) ))"
    done
    echo "wrk's p99/max cover every answer, shed ones included. The probe (4 x one request at a time) during the overload:"
    echo "  admitted (200): $(grep -c '^200 ' "$OUT_DIR/probe.txt" || true), p99 $(probe_p99 200) ms, max $(probe_max 200) ms"
    echo "  shed (503):     $(grep -c '^503 ' "$OUT_DIR/probe.txt" || true), p99 $(probe_p99 503) ms, max $(probe_max 503) ms"
    echo "Shed answers with Retry-After: $(field "$OVER" retry_after) of $(field "$OVER" shed); gateway_overload_shed_total rose by $SHED_METRIC"
    echo "Admitted throughput under overload: $(rps "$OVER" ok) req/s = $(pct "$(rps "$OVER" ok)" "$CAP_RPS") % of capacity ($CAP_RPS req/s)"
    echo "Gateway RSS during overload: max $(sort -n "$OUT_DIR/rss.txt" | tail -n 1) KiB, peak VmHWM $(proc_kib "$GW_PID" VmHWM) KiB; heap after GC ${HEAP_KIB:-?} KiB"
    echo "Recovery: $(rps "$REC" ok) req/s, $(field "$REC" shed) shed of $(( $(field "$REC" ok) + $(field "$REC" shed) )); in flight now $(metric gateway_overload_in_flight)"
} | tee "$OUT_DIR/report.txt"
