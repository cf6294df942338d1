#!/usr/bin/env bash
# The gateway next to a plain reverse proxy, in one run (issue 18's table):
#
#   bash bench/proxy.sh
#
# A fast fake upstream (nginx answering a fixed ~2.6 KB code-interpreter response, with fresh ids per
# request) is measured three ways: directly, through nginx as a plain reverse proxy, and through the
# gateway with its whole pipeline on (auth, rate limits, the ownership check of a file_ids reference,
# turn reservation, spend check, the audit of the executed code block, ownership records, charges).
# The proxy and the gateway run pinned to the same core (PROXY_CPUS), wrk and the upstream to the
# other (LOAD_CPUS). For each gateway backend (memory state + embedded H2, Redis + PostgreSQL) it prints
# CPU per request, requests/s, p50/p99 and what the proxy adds over direct at each connection count,
# the time to the first event of a stream, and the gateway's RSS; and the same for the gateway's floor
# (bench/floor/Floor.java: its own server and client libraries forwarding with nothing else on the path). See
# bench/README.md.
#
# Knobs (environment variables):
#   DURATION=15        seconds of each wrk measurement
#   WARMUP=45          seconds of warm-up load through each gateway before it is measured, at least;
#   WARMUP_MAX=240     the warm-up goes on in 15 s steps until the JIT compilers take under a tenth of
#                      the gateway's CPU (a busy machine starves them), at most this long
#                      (at 16 connections; a cell at another count is warmed at its own count as well, 15 s
#                      at least, until the JIT takes under a fortieth of the CPU)
#   CONNECTIONS="1 16" connection counts
#   BACKENDS="memory redis floor"  gateway configurations: memory (in-memory state, the embedded H2 file),
#                      redis (Redis DB REDIS_DB=13 on 127.0.0.1:6379, PostgreSQL schema PG_SCHEMA=bench_proxy
#                      of db test on 127.0.0.1:5432, dropped and created afresh), floor (not the gateway: the
#                      floor under it, built from the gateway jar's libraries; JSON answers only, no stream)
#   TTFE_N=200         sequential streamed requests per target for time to first event (0 skips it)
#   PROXY_CPUS=0 LOAD_CPUS=1   taskset CPU lists: the proxy or gateway / wrk and the upstream
#   GATEWAY_JAVA_OPTS  the gateway's JVM flags (default: the image's recommendation for one CPU)
#   GATEWAY_ARGS=""    extra Spring arguments for the gateway
#   H2_URL             the memory backend's H2 URL (default: the gateway's own, a file under its directory)
#   PROFILE=0          1: one more load on the first backend under JFR (stacks of up to 512 frames), summarised
#                      by bench/HotSpots.java (the measured figures are taken without JFR)
#   PROFILE_CONNECTIONS=16  that load's connections
#   UPSTREAM_PORT=18189 PROXY_PORT=18190 GW_PORT=18180 MGMT_PORT=18181
#   OUT_DIR            logs and raw results (default: a fresh /tmp/sandbox-gateway-proxy.*)
#   JAR                the gateway fat jar (default: target/sandbox-gateway-*.jar, built if missing)
set -euo pipefail

ROOT=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
BENCH="$ROOT/bench"

DURATION=${DURATION:-15}
WARMUP=${WARMUP:-45}
CONNECTIONS=${CONNECTIONS:-"1 16"}
BACKENDS=${BACKENDS:-"memory redis floor"}
TTFE_N=${TTFE_N:-200}
GATEWAY_ARGS=${GATEWAY_ARGS:-""}
PROFILE=${PROFILE:-0}
PROFILE_CONNECTIONS=${PROFILE_CONNECTIONS:-16}
GW_PORT=${GW_PORT:-18180}
MGMT_PORT=${MGMT_PORT:-18181}
OUT_DIR=${OUT_DIR:-$(mktemp -d "${TMPDIR:-/tmp}/sandbox-gateway-proxy.XXXXXX")}
mkdir -p "$OUT_DIR"

# shellcheck source=bench/proxy-lib.sh
source "$BENCH/proxy-lib.sh"
needs_psql $BACKENDS
require_free_ports "$GW_PORT" "$MGMT_PORT"

TTFE="$OUT_DIR/ttfe.tsv"
printf 'backend\ttarget\tmedian_ms\tp90_ms\tp99_ms\tload1\n' >"$TTFE"
ttfe() {
    local backend=$1 target=$2 port=$3 out="$OUT_DIR/first-event-$1-$2.txt" r
    (( TTFE_N > 0 )) || return 0
    taskset -c "$LOAD_CPUS" "$JAVA" "$BENCH/FirstEvent.java" "http://127.0.0.1:$port" "$TTFE_N" >"$out" 2>&1 \
        || die "FirstEvent failed, see $out"
    r=$(grep '^FIRST_EVENT_RESULT' "$out") || die "FirstEvent printed no result, see $out"
    printf '%s\t%s\t%s\t%s\t%s\t%s\n' "$backend" "$target" "$(field "$r" median_ms)" "$(field "$r" p90_ms)" \
        "$(field "$r" p99_ms)" "$(load1)" >>"$TTFE"
}

# --- direct and the plain proxy ------------------------------------------------------------------

log "java: $("$JAVA" -version 2>&1 | head -n 1); jar: $JAR; results: $OUT_DIR"
log "warm-up: direct and nginx, 5 s each"
measure warmup direct "$UPSTREAM_PORT" "$UPSTREAM_PID" 16 5
measure warmup nginx "$PROXY_PORT" "$PROXY_PID" 16 5
for conns in $CONNECTIONS; do
    log "direct and nginx, $conns connections, ${DURATION}s each (load $(load1))"
    measure - direct "$UPSTREAM_PORT" "$UPSTREAM_PID" "$conns" "$DURATION"
    measure - nginx "$PROXY_PORT" "$PROXY_PID" "$conns" "$DURATION"
done
ttfe - direct "$UPSTREAM_PORT"
ttfe - nginx "$PROXY_PORT"
NGINX_RSS=$(( $(proc_kib "$(pgrep -P "$PROXY_PID" | head -n 1)" VmRSS) + $(proc_kib "$PROXY_PID" VmRSS) ))

# --- the gateway, once per backend ---------------------------------------------------------------

MEMORY="$OUT_DIR/memory.tsv"
printf 'backend\trss_idle_kib\trss_loaded_kib\thwm_kib\tstart_ms\n' >"$MEMORY"
first_backend=1
for backend in $BACKENDS; do
    dir="$OUT_DIR/gateway-$backend"
    opts=$GATEWAY_JAVA_OPTS
    # JFR keeps 64 frames of a stack by default, which cuts a sixth of the gateway's short of the request's own frames.
    [[ $PROFILE == 1 && $first_backend == 1 ]] && opts+=" -XX:FlightRecorderOptions:stackdepth=512"
    jar=$JAR
    [[ $backend == floor ]] && jar=$(floor_jar "$JAR" "$OUT_DIR/floor")
    start_gateway "$backend" "$backend" "$GW_PORT" "$MGMT_PORT" "$jar" "$opts" "$GATEWAY_ARGS"
    rss_idle=$(proc_kib "$GW_PID" VmRSS)
    log "gateway ($backend): warm-up at 16 connections, ${WARMUP}-${WARMUP_MAX}s"
    warm_up "$backend" "$GW_PORT" "$GW_PID" 16 "$WARMUP"
    for conns in $CONNECTIONS; do
        # A load of another shape takes branches the JIT had not seen (a read finding no byte yet, an empty poll):
        # compiled code deoptimizes and C2 recompiles on the gateway's core for a minute. So each cell is measured
        # after its own warm-up at its connection count, until the compilers take under a fortieth of the CPU.
        (( conns == 16 )) || warm_up "$backend" "$GW_PORT" "$GW_PID" "$conns" 15 40
        log "gateway ($backend), $conns connections, ${DURATION}s (load $(load1))"
        measure "$backend" gateway "$GW_PORT" "$GW_PID" "$conns" "$DURATION"
    done
    rss_loaded=$(proc_kib "$GW_PID" VmRSS)
    if [[ $backend != floor ]]; then   # the floor forwards JSON answers only
        if (( TTFE_N > 0 )); then
            # The warm-up above is non-streaming: the relay's event path is still to be compiled, and the JIT then
            # runs on the gateway's core while the first events are timed (after 15 s of streams C2 still took half
            # the gateway's CPU, and the time to first event measured the compiler). So streams until the JIT is quiet.
            log "gateway ($backend): streams at 4 connections before the time to first event, up to ${WARMUP_MAX}s"
            BENCH_STREAM=true warm_up "$backend" "$GW_PORT" "$GW_PID" 4 15
        fi
        ttfe "$backend" gateway "$GW_PORT"
    fi
    printf '%s\t%s\t%s\t%s\t%s\n' "$backend" "$rss_idle" "$rss_loaded" "$(proc_kib "$GW_PID" VmHWM)" "$GW_START_MS" >>"$MEMORY"
    if [[ $PROFILE == 1 && $first_backend == 1 ]]; then
        log "profile: JFR during ${DURATION}s at $PROFILE_CONNECTIONS connections"
        "$JAVA_HOME/bin/jcmd" "$GW_PID" JFR.start name=bench settings=profile "filename=$dir/gateway.jfr" \
            'jdk.CPUTimeSample#enabled=true' 'jdk.CPUTimeSample#throttle=1ms' >"$dir/jfr-start.txt" 2>&1 \
            || die "JFR.start failed, see $dir/jfr-start.txt"
        measure "profile-$backend" gateway "$GW_PORT" "$GW_PID" "$PROFILE_CONNECTIONS" "$DURATION"
        "$JAVA_HOME/bin/jcmd" "$GW_PID" JFR.stop name=bench >/dev/null
        "$JAVA" "$BENCH/HotSpots.java" "$dir/gateway.jfr" >"$dir/hotspots.txt" 2>&1 || true
    fi
    first_backend=0
    stop_gateway "$GW_PID"
done

# --- report --------------------------------------------------------------------------------------

{
echo
echo "Sandbox Gateway vs a plain reverse proxy, $(date -u +%Y-%m-%dT%H:%MZ), commit $(git -C "$ROOT" rev-parse --short HEAD 2>/dev/null || echo '?')"
echo "machine: $(nproc) cores, load average at the end $(cut -d' ' -f1-3 /proc/loadavg); proxy/gateway on CPUs $PROXY_CPUS, wrk + upstream on $LOAD_CPUS"
echo "java: $("$JAVA" -version 2>&1 | head -n 1); gateway: $GATEWAY_JAVA_OPTS"
echo "POST /v1/responses, non-streaming ~2.6 KB code-interpreter answer, ${DURATION}s per cell, wrk -t1"
echo
awk -F'\t' '
    NR == 1 || $1 ~ /^(warmup|profile)/ { next }
    { key = $1 SUBSEP $2 SUBSEP $3; rps[key] = $4; p50[key] = $5 / 1000; p99[key] = $6 / 1000; err[key] = $7
      cpu[key] = $9; up[key] = $10; load[key] = $11; jit[key] = $12; alloc[key] = $13
      if ($1 != "-" && !($1 in seen)) { seen[$1] = 1; backends[++nb] = $1 }
      if (!($2 in cseen)) { cseen[$2] = 1; conns[++nc] = $2 } }
    function row(label, key, dkey) {
        printf "%-18s %6s %9.0f %8.2f %8.2f %+9.2f %+9.2f %11s %8s %9s %13s %6s %5s\n", label, c, rps[key], p50[key], p99[key],
            p50[key] - p50[dkey], p99[key] - p99[dkey], cpu[key], jit[key], alloc[key], up[key], err[key], load[key]
    }
    END {
        printf "%-18s %6s %9s %8s %8s %9s %9s %11s %8s %9s %13s %6s %5s\n", "target", "conns", "req/s", "p50 ms", "p99 ms",
            "added p50", "added p99", "CPU us/req", "of it JIT", "KB/req", "upstr us/req", "errors", "load"
        for (i = 1; i <= nc; i++) {
            c = conns[i]; d = "-" SUBSEP c SUBSEP "direct"
            row("direct", d, d)
            row("nginx", "-" SUBSEP c SUBSEP "nginx", d)
            for (b = 1; b <= nb; b++) row((backends[b] == "floor" ? "" : "gateway ") backends[b], backends[b] SUBSEP c SUBSEP "gateway", d)
        }
    }' "$RESULTS"
echo "(CPU us/req: utime+stime of the nginx proxy or the gateway JVM per completed request, of it JIT: its C1/C2"
echo " compiler threads; KB/req: what the JVM allocated per request; upstr: of the fake upstream; load: 1-minute"
echo " load average when the cell ended)"
if (( TTFE_N > 0 )); then
    echo
    echo "Time to first SSE event, $TTFE_N sequential stream:true requests on one connection"
    awk -F'\t' 'NR == 1 { next }
        { label = $1 == "-" ? $2 : $2 " " $1; if ($2 == "direct") { d50 = $3; d90 = $4 }
          printf "%-18s median %6.3f ms (%+.3f)  p90 %6.3f ms (%+.3f)  p99 %6.3f ms  load %s\n", label, $3, $3 - d50, $4, $4 - d90, $5, $6 }' "$TTFE"
fi
echo
awk -F'\t' -v nginx="$NGINX_RSS" 'NR == 1 { next }
    { printf "%-15s RSS %4.0f MiB idle, %4.0f MiB after the load, peak %4.0f MiB; start to ready %5.1f s\n",
        ($1 == "floor" ? "" : "gateway ") $1, $2 / 1024, $3 / 1024, $4 / 1024, $5 / 1000 }
    END { printf "nginx proxy      RSS %4.0f MiB (master + worker)\n", nginx / 1024 }' "$MEMORY"
echo "raw: $RESULTS, $TTFE, $MEMORY; logs in $OUT_DIR"
for backend in $BACKENDS; do
    if [[ -f "$OUT_DIR/gateway-$backend/hotspots.txt" ]]; then
        echo
        echo "Gateway profile ($backend, $PROFILE_CONNECTIONS connections; recording $OUT_DIR/gateway-$backend/gateway.jfr):"
        cat "$OUT_DIR/gateway-$backend/hotspots.txt"
    fi
done
} | tee "$OUT_DIR/report.txt"
