#!/usr/bin/env bash
# Latency benchmark for Sandbox Gateway: what the gateway adds on top of the upstream.
#
#   bash bench/run.sh
#
# Starts the offline simulator (standalone WireMock, playing OpenAI) and the gateway in front of it,
# warms both up, then measures with wrk:
#   - p50/p99 of non-streaming POST /v1/responses at each concurrency in CONNECTIONS,
#     directly against the simulator and through the gateway, and the difference (added latency);
#   - time to first SSE event of a stream:true response (bench/FirstEvent.java), both ways;
#   - the gateway's resident memory (VmRSS now, VmHWM peak) after the load.
# Everything it started is stopped on exit, including on Ctrl-C. See bench/README.md.
#
# Knobs (environment variables):
#   DURATION=30        seconds of each wrk measurement
#   WARMUP=120         seconds of warm-up load before measuring: two thirds through the gateway,
#                      one third directly (on 2 busy cores the simulator's JIT needs about 2 minutes
#                      to settle; with 60 s the first round still ran at half speed)
#   CONNECTIONS="1 16 64"  concurrent connections to measure at; 1 is the baseline where nothing
#                      queues for CPU, so its added latency is the gateway's own per-request cost
#   ROUNDS=1           repeat the wrk measurements; the table shows the median over rounds
#   TTFE_N=200         sequential streamed requests per target for time to first event (0 skips it)
#   WRK_THREADS=1      wrk threads; one epoll thread drives 64 connections easily and leaves the
#                      second core to the JVMs
#   BUSY_LIMIT=5       a round of a cell in which other processes took more than this % of the
#                      machine (a build, a test run) is measured again, up to RETRIES=2 times, and
#                      left out of that cell's median if it never ran clean; before each measurement
#                      the script waits up to QUIET_WAIT=300 seconds for the machine to go quiet
#   PROFILE=0          1: after measuring, record JFR on the gateway under one more 64-connection
#                      load and print its hot spots (bench/HotSpots.java); the measured numbers are
#                      taken without JFR
#   SIM_PORT=18089 GW_PORT=18080 MGMT_PORT=18081   not the defaults, so a gateway already running
#                      on 8080/8081 is left alone
#   GATEWAY_JAVA_OPTS="-Xmx512m"  SIM_JAVA_OPTS="-Xmx512m"
#   GATEWAY_ARGS=""    extra Spring arguments for the gateway, e.g. --logging.level.root=WARN or
#                      --gateway.state.backend=redis (limits and budgets in Redis on 127.0.0.1:6379)
#   DB_URL=jdbc:h2:mem:bench  the gateway's database; e.g. the local PostgreSQL:
#                      DB_URL='jdbc:postgresql://127.0.0.1:5432/test?currentSchema=bench' DB_USER=postgres
#                      (the schema must exist and be empty: each run migrates it from scratch)
#   OUT_DIR            where logs and raw results go (default: a fresh /tmp/sandbox-gateway-bench.*)
#   JAR                the gateway fat jar (default: target/sandbox-gateway-*.jar, built if missing)
set -euo pipefail

ROOT=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
BENCH="$ROOT/bench"

DURATION=${DURATION:-30}
WARMUP=${WARMUP:-120}
CONNECTIONS=${CONNECTIONS:-"1 16 64"}
ROUNDS=${ROUNDS:-1}
TTFE_N=${TTFE_N:-200}
WRK_THREADS=${WRK_THREADS:-1}
PROFILE=${PROFILE:-0}
BUSY_LIMIT=${BUSY_LIMIT:-5}
RETRIES=${RETRIES:-2}
QUIET_WAIT=${QUIET_WAIT:-300}
SIM_PORT=${SIM_PORT:-18089}
GW_PORT=${GW_PORT:-18080}
MGMT_PORT=${MGMT_PORT:-18081}
# Virtual threads are on in application.yml (spring.threads.virtual.enabled), so Tomcat serves each
# request on a virtual thread; no flag is needed for that. The heap is capped so RSS figures mean
# something comparable from machine to machine (the default would be a quarter of RAM).
GATEWAY_JAVA_OPTS=${GATEWAY_JAVA_OPTS:-"-Xmx512m"}
SIM_JAVA_OPTS=${SIM_JAVA_OPTS:-"-Xmx512m"}
GATEWAY_ARGS=${GATEWAY_ARGS:-""}
DB_URL=${DB_URL:-jdbc:h2:mem:bench}
DB_USER=${DB_USER:-sa}
OUT_DIR=${OUT_DIR:-$(mktemp -d "${TMPDIR:-/tmp}/sandbox-gateway-bench.XXXXXX")}
mkdir -p "$OUT_DIR"

URL_DIRECT="http://127.0.0.1:$SIM_PORT"
URL_GATEWAY="http://127.0.0.1:$GW_PORT"

# shellcheck source=bench/lib.sh
source "$BENCH/lib.sh"

# --- prerequisites -------------------------------------------------------------------------------

if ! command -v wrk >/dev/null 2>&1; then
    die "wrk is not installed. On Debian/Ubuntu: sudo apt-get update && sudo apt-get install -y wrk"
fi
command -v curl >/dev/null 2>&1 || die "curl is needed to wait for the servers (apt-get install -y curl)"

JAVA=$(find_java) || die "no Java 21+ found; set JAVA_HOME to a JDK 21 or newer"
JAVA_HOME=$(dirname "$(dirname "$(readlink -f "$JAVA")")")
export JAVA_HOME

JAR=$(gateway_jar)

require_free_ports "$SIM_PORT" "$GW_PORT" "$MGMT_PORT"

# --- start and stop ------------------------------------------------------------------------------

SIM_PID=""
GW_PID=""
cleanup() {
    local pid
    # Only the two JVMs this script started, by pid. SIGTERM first so the gateway shuts down
    # gracefully (and a JFR recording, if any, is written), SIGKILL if that takes too long.
    for pid in $GW_PID $SIM_PID; do
        kill "$pid" 2>/dev/null || true
    done
    for _ in $(seq 1 100); do
        local alive=""
        for pid in $GW_PID $SIM_PID; do
            if kill -0 "$pid" 2>/dev/null; then alive=1; fi
        done
        [[ -z "$alive" ]] && break
        sleep 0.1
    done
    for pid in $GW_PID $SIM_PID; do
        kill -9 "$pid" 2>/dev/null || true
    done
}
trap cleanup EXIT
# Background jobs of a non-interactive shell ignore SIGINT, so Ctrl-C reaches only this script:
# turn it into a normal exit so the EXIT trap stops the JVMs.
trap 'exit 130' INT TERM


log "java: $JAVA ($("$JAVA" -version 2>&1 | head -n 1))"
log "jar: $JAR"
log "results and logs: $OUT_DIR"

# shellcheck disable=SC2086 # the *_JAVA_OPTS are deliberately word-split into flags
(cd "$OUT_DIR" && exec "$JAVA" $SIM_JAVA_OPTS -cp "$JAR" \
    -Dloader.main=com.sandboxgateway.simulator.OfflineSimulator \
    org.springframework.boot.loader.launch.PropertiesLauncher "$SIM_PORT") \
    >"$OUT_DIR/simulator.log" 2>&1 &
SIM_PID=$!

# A non-empty upstream key stops the gateway from starting its own embedded simulator; the dev
# profile supplies the plain client key sk-gw-dev-alice. An in-memory database keeps runs
# independent of each other and of a developer's local data. The working directory is OUT_DIR so
# that anything the gateway writes to relative paths (audit spool, data files) lands there rather
# than in the work tree; `exec` keeps $! the JVM's pid. The rate limits and turn budgets are raised
# far beyond what the load asks, so every request takes the whole path (buckets and budgets are still
# checked and charged) and none ends early in a 429.
# shellcheck disable=SC2086
(cd "$OUT_DIR" && exec "$JAVA" $GATEWAY_JAVA_OPTS -jar "$JAR" \
    --server.port="$GW_PORT" --management.server.port="$MGMT_PORT" \
    --gateway.upstream.base-url="$URL_DIRECT" --gateway.upstream.api-key=sk-bench \
    --spring.profiles.active=dev --spring.datasource.url="$DB_URL" --spring.datasource.username="$DB_USER" \
    --gateway.policy.org.rate-limit.requests-per-minute=1000000000 --gateway.policy.org.rate-limit.burst=1000000000 \
    --gateway.policy.org.rate-limit.team-requests-per-minute=1000000000 \
    --gateway.policy.org.turns.max-per-user-per-day=1000000000 \
    --gateway.policy.org.spend.max-usd-per-team-per-day=1000000000 \
    $GATEWAY_ARGS) >"$OUT_DIR/gateway.log" 2>&1 &
GW_PID=$!

wait_for simulator "$SIM_PID" "$OUT_DIR/simulator.log" answers "$URL_DIRECT/v1/responses"
wait_for gateway "$GW_PID" "$OUT_DIR/gateway.log" \
    curl -sf "http://127.0.0.1:$MGMT_PORT/actuator/health/readiness"
log "simulator pid $SIM_PID on $SIM_PORT, gateway pid $GW_PID on $GW_PORT (management $MGMT_PORT)"

# --- measurement helpers -------------------------------------------------------------------------

# utime + stime in clock ticks; the command name may contain spaces, so cut after its ')'.
proc_ticks() { sed 's/.*) //' "/proc/$1/stat" | awk '{ print $12 + $13 }'; }
CLK_TCK=$(getconf CLK_TCK)
ticks_to_ms() { awk -v t="$1" -v hz="$CLK_TCK" 'BEGIN { printf "%d", t * 1000 / hz }'; }

GW_RSS_IDLE=$(proc_kib "$GW_PID" VmRSS)

# All busy ticks of the machine, steal included: CPU time the benchmark could not use.
machine_busy_ticks() { awk '/^cpu / { print $2 + $3 + $4 + $7 + $8 + $9; exit }' /proc/stat; }
NCPU=$(nproc)

# run_wrk NAME URL CONNECTIONS SECONDS [STREAM]: one wrk run; prints its BENCH_RESULT line followed
# by the CPU milliseconds the gateway, the simulator and wrk spent during it, and the share of the
# machine that anything else took. On a 2-core box a concurrent build ruins the numbers, and that
# share is the only way to tell afterwards.
# Something outside the script may stop a JVM (a cleanup that kills by name, the OOM killer):
# say so plainly instead of failing later on a missing /proc entry.
require_alive() {
    kill -0 "$SIM_PID" 2>/dev/null || die "the simulator (pid $SIM_PID) has exited; see $OUT_DIR/simulator.log"
    kill -0 "$GW_PID" 2>/dev/null || die "the gateway (pid $GW_PID) has exited; see $OUT_DIR/gateway.log"
}

run_wrk() {
    local name=$1 url=$2 conns=$3 seconds=$4 stream=${5:-false}
    require_alive
    # This function runs in a command substitution; wrk's CPU shows up in this subshell's
    # children's time (cutime + cstime) once it has been waited for.
    local me=$BASHPID gw0 sim0 busy0 wrk0 out result
    gw0=$(proc_ticks "$GW_PID")
    sim0=$(proc_ticks "$SIM_PID")
    busy0=$(machine_busy_ticks)
    wrk0=$(sed 's/.*) //' "/proc/$me/stat" | awk '{ print $14 + $15 }')
    out="$OUT_DIR/wrk-$name.txt"
    # --timeout well above any expected latency, so slow answers count as latency, not as errors.
    BENCH_STREAM=$stream wrk -t"$WRK_THREADS" -c"$conns" -d"${seconds}s" --timeout 10s --latency \
        -s "$BENCH/responses.lua" "$url" >"$out" 2>&1 || { require_alive; die "wrk failed, see $out"; }
    require_alive
    local wrk_t=$(( $(sed 's/.*) //' "/proc/$me/stat" | awk '{ print $14 + $15 }') - wrk0 ))
    local busy_t=$(( $(machine_busy_ticks) - busy0 ))
    local gw_t=$(( $(proc_ticks "$GW_PID") - gw0 ))
    local sim_t=$(( $(proc_ticks "$SIM_PID") - sim0 ))
    result=$(grep '^BENCH_RESULT' "$out") || die "wrk printed no result, see $out"
    local other_pct
    other_pct=$(awk -v busy="$busy_t" -v mine=$(( gw_t + sim_t + wrk_t )) -v hz="$CLK_TCK" -v n="$NCPU" \
        -v s="$seconds" 'BEGIN { o = (busy - mine) / (hz * n * s) * 100; printf "%.1f", o < 0 ? 0 : o }')
    echo "$result gw_cpu_ms=$(ticks_to_ms "$gw_t") sim_cpu_ms=$(ticks_to_ms "$sim_t")" \
        "wrk_cpu_ms=$(ticks_to_ms "$wrk_t") other_cpu_pct=$other_pct"
}
field() { tr ' ' '\n' <<<"$1" | awk -F= -v k="$2" '$1 == k { print $2 }'; }

# Waits (up to QUIET_WAIT seconds) until the whole machine has been below BUSY_LIMIT % for 3 s,
# so a measurement does not start in the middle of someone's build. Our idle JVMs count too,
# which also lets a JIT compile queue drain after the previous load.
wait_for_quiet() {
    local waited=0 busy0 busy
    while (( waited < QUIET_WAIT )); do
        busy0=$(machine_busy_ticks)
        sleep 3
        busy=$(( $(machine_busy_ticks) - busy0 ))
        if awk -v b="$busy" -v hz="$CLK_TCK" -v n="$NCPU" -v limit="$BUSY_LIMIT" \
            'BEGIN { exit !(b / (hz * n * 3) * 100 <= limit) }'; then
            return 0
        fi
        (( waited == 0 )) && log "machine busy; waiting up to ${QUIET_WAIT}s for it to quieten"
        waited=$(( waited + 3 ))
    done
    log "WARNING: machine still busy after ${QUIET_WAIT}s; measuring anyway"
}

# --- warm-up -------------------------------------------------------------------------------------

MAX_CONNS=$(tr ' ' '\n' <<<"$CONNECTIONS" | sort -n | tail -n 1)
# Through the gateway, so both JVMs compile their request paths, then directly, because the
# simulator alone runs much faster and meets code paths (and JIT decisions) the slower mix does not.
# Streams last, so the SSE relay is compiled before time to first event is taken.
WARMUP_GATEWAY=$(( WARMUP * 2 / 3 ))
WARMUP_DIRECT=$(( WARMUP - WARMUP_GATEWAY ))
log "warm-up: ${WARMUP_GATEWAY}s through the gateway, ${WARMUP_DIRECT}s direct, at $MAX_CONNS connections"
if (( WARMUP_GATEWAY > 0 )); then
    run_wrk warmup-gateway "$URL_GATEWAY" "$MAX_CONNS" "$WARMUP_GATEWAY" >/dev/null
fi
if (( WARMUP_DIRECT > 0 )); then
    run_wrk warmup-direct "$URL_DIRECT" "$MAX_CONNS" "$WARMUP_DIRECT" >/dev/null
fi
if (( TTFE_N > 0 )); then
    log "warm-up: 10s streaming through the gateway at 16 connections"
    run_wrk warmup-stream "$URL_GATEWAY" 16 10 true >/dev/null
fi

# --- latency under load --------------------------------------------------------------------------

RESULTS="$OUT_DIR/results.tsv"
printf 'round\tconns\ttarget\trps\tp50_us\tp90_us\tp99_us\tmax_us\terrors\trequests\tgw_cpu_ms\tsim_cpu_ms\twrk_cpu_ms\tother_cpu_pct\n' >"$RESULTS"
for round in $(seq 1 "$ROUNDS"); do
    for conns in $CONNECTIONS; do
        # Alternate which target goes first, so slow drift (JIT, GC, a noisy neighbour) does not
        # always land on the same side.
        if (( round % 2 == 1 )); then order="direct gateway"; else order="gateway direct"; fi
        for target in $order; do
            if [[ $target == direct ]]; then url=$URL_DIRECT; else url=$URL_GATEWAY; fi
            for attempt in $(seq 0 "$RETRIES"); do
                wait_for_quiet
                log "round $round/$ROUNDS: $target, $conns connections, ${DURATION}s"
                r=$(run_wrk "r$round-c$conns-$target" "$url" "$conns" "$DURATION")
                other=$(field "$r" other_cpu_pct)
                if awk -v o="$other" -v limit="$BUSY_LIMIT" 'BEGIN { exit !(o > limit) }'; then
                    log "WARNING: other processes took ${other}% of the machine during this measurement"
                    continue
                fi
                break
            done
            errors=$(( $(field "$r" err_connect) + $(field "$r" err_read) + $(field "$r" err_write) \
                + $(field "$r" err_status) + $(field "$r" err_timeout) ))
            printf '%s\t%s\t%s\t%s\t%s\t%s\t%s\t%s\t%s\t%s\t%s\t%s\t%s\t%s\n' "$round" "$conns" "$target" \
                "$(field "$r" rps)" "$(field "$r" p50_us)" "$(field "$r" p90_us)" "$(field "$r" p99_us)" \
                "$(field "$r" max_us)" "$errors" "$(field "$r" requests)" "$(field "$r" gw_cpu_ms)" \
                "$(field "$r" sim_cpu_ms)" "$(field "$r" wrk_cpu_ms)" "$(field "$r" other_cpu_pct)" >>"$RESULTS"
        done
    done
done
GW_RSS_LOADED=$(proc_kib "$GW_PID" VmRSS)

# --- time to first event -------------------------------------------------------------------------

ttfe() {
    local name=$1 url=$2 out="$OUT_DIR/first-event-$1.txt"
    local me=$BASHPID busy0 mine0 t0 result
    log "time to first event: $TTFE_N sequential streams, $name"
    busy0=$(machine_busy_ticks)
    mine0=$(( $(proc_ticks "$GW_PID") + $(proc_ticks "$SIM_PID") + $(sed 's/.*) //' "/proc/$me/stat" | awk '{ print $14 + $15 }') ))
    t0=$(date +%s%N)
    require_alive
    "$JAVA" "$BENCH/FirstEvent.java" "$url" "$TTFE_N" >"$out" 2>&1 || { require_alive; die "FirstEvent failed, see $out"; }
    local mine=$(( $(proc_ticks "$GW_PID") + $(proc_ticks "$SIM_PID") + $(sed 's/.*) //' "/proc/$me/stat" | awk '{ print $14 + $15 }') - mine0 ))
    local busy=$(( $(machine_busy_ticks) - busy0 ))
    result=$(grep '^FIRST_EVENT_RESULT' "$out") || die "FirstEvent printed no result, see $out"
    echo "$result other_cpu_pct=$(awk -v b="$busy" -v m="$mine" -v hz="$CLK_TCK" -v n="$NCPU" \
        -v ns=$(( $(date +%s%N) - t0 )) 'BEGIN { o = (b - m) / (hz * n * ns / 1e9) * 100; printf "%.1f", o < 0 ? 0 : o }')"
}
if (( TTFE_N > 0 )); then
    wait_for_quiet
    TTFE_DIRECT=$(ttfe direct "$URL_DIRECT")
    wait_for_quiet
    TTFE_GATEWAY=$(ttfe gateway "$URL_GATEWAY")
fi

GW_RSS_END=$(proc_kib "$GW_PID" VmRSS)
GW_HWM=$(proc_kib "$GW_PID" VmHWM)

# --- optional profile ----------------------------------------------------------------------------

if [[ $PROFILE == 1 ]]; then
    jfr_file="$OUT_DIR/gateway.jfr"
    jfr_extra=()
    # JDK 25+ can sample by CPU time (JEP 509), which is not fooled by threads blocked on I/O.
    if (( $(java_major "$JAVA") >= 25 )); then
        jfr_extra=('jdk.CPUTimeSample#enabled=true' 'jdk.CPUTimeSample#throttle=1ms')
    fi
    log "profile: JFR on the gateway during ${DURATION}s at $MAX_CONNS connections -> $jfr_file"
    "$JAVA_HOME/bin/jcmd" "$GW_PID" JFR.start name=bench settings=profile "filename=$jfr_file" \
        "${jfr_extra[@]}" >"$OUT_DIR/jfr-start.txt" 2>&1 || die "JFR.start failed, see $OUT_DIR/jfr-start.txt"
    run_wrk profile "$URL_GATEWAY" "$MAX_CONNS" "$DURATION" >/dev/null
    "$JAVA_HOME/bin/jcmd" "$GW_PID" JFR.stop name=bench >/dev/null
    "$JAVA" "$BENCH/HotSpots.java" "$jfr_file" >"$OUT_DIR/hotspots.txt" 2>&1 || true
fi

# --- report --------------------------------------------------------------------------------------

{
echo
echo "Sandbox Gateway latency benchmark, $(date -u +%Y-%m-%dT%H:%MZ)"
echo "machine: $(nproc) cores ($(awk -F': ' '/model name/ { print $2; exit }' /proc/cpuinfo)), shared by wrk, simulator and gateway"
echo "java: $("$JAVA" -version 2>&1 | head -n 1); gateway: $GATEWAY_JAVA_OPTS; simulator: $SIM_JAVA_OPTS"
echo "wrk: $WRK_THREADS thread(s), ${DURATION}s per cell after ${WARMUP}s warm-up, $ROUNDS round(s) (median shown)"
echo
echo "POST /v1/responses, non-streaming (~2.3 KB answer), closed loop"
awk -F'\t' -v limit="$BUSY_LIMIT" '
    NR == 1 { next }
    { key = $2 SUBSEP $3; i = ++n[key]
      rps[key, i] = $4; p50[key, i] = $5; p99[key, i] = $7; err[key, i] = $9
      req[key, i] = $10; gwcpu[key, i] = $11; simcpu[key, i] = $12; other[key, i] = $14
      if (!($2 in seen)) { seen[$2] = 1; order[++conns] = $2 } }
    # Median over the rounds of one cell, leaving out rounds where other processes were busy
    # (unless every round was); sets used[key] to how many rounds counted.
    function median(arr, key,   i, m, t, j, v, all) {
        all = 1
        for (i = 1; i <= n[key]; i++) if (other[key, i] <= limit) all = 0
        m = 0
        for (i = 1; i <= n[key]; i++) if (all || other[key, i] <= limit) v[++m] = arr[key, i] + 0
        for (i = 2; i <= m; i++) for (j = i; j > 1 && v[j-1] > v[j]; j--) { t = v[j]; v[j] = v[j-1]; v[j-1] = t }
        used[key] = all ? -m : m
        return m % 2 ? v[(m + 1) / 2] : (v[m / 2] + v[m / 2 + 1]) / 2
    }
    function total(arr, key,   i, sum, all) {
        all = used[key] < 0
        for (i = 1; i <= n[key]; i++) if (all || other[key, i] <= limit) sum += arr[key, i]
        return sum
    }
    BEGIN {
        printf "%-6s %-8s %8s %9s %9s %7s %14s %15s %7s\n", "conns", "target", "req/s", "p50 ms", "p99 ms",
            "errors", "gw CPU ms/req", "sim CPU ms/req", "rounds"
    }
    END {
        for (c = 1; c <= conns; c++) {
            conn = order[c]
            for (t = 1; t <= 2; t++) {
                target = t == 1 ? "direct" : "gateway"; key = conn SUBSEP target
                m50[target] = median(p50, key) / 1000; m99[target] = median(p99, key) / 1000
                r = median(rps, key)
                if (used[key] < 0) dirty = 1
                printf "%-6s %-8s %8.0f %9.2f %9.2f %7d %14s %15.3f %7s\n", conn, target, r,
                    m50[target], m99[target], total(err, key),
                    target == "gateway" ? sprintf("%.3f", total(gwcpu, key) / total(req, key)) : "-",
                    total(simcpu, key) / total(req, key),
                    (used[key] < 0 ? -used[key] "!" : used[key]) "/" n[key]
            }
            printf "%-6s %-8s %8s %+9.2f %+9.2f\n", conn, "added", "", m50["gateway"] - m50["direct"],
                m99["gateway"] - m99["direct"]
        }
        if (dirty)
            printf "WARNING (!): in every round of some cells other processes took more than %s%% of the" \
                " machine;\nthose figures are not trustworthy: rerun on an idle machine.\n", limit
    }' "$RESULTS"
if (( TTFE_N > 0 )); then
    echo
    echo "Time to first SSE event, stream:true, $TTFE_N sequential requests (one keep-alive connection)"
    printf '%-8s %10s %10s %10s %18s %8s\n' target "median ms" "p90 ms" "p99 ms" "last byte med ms" "other %"
    for pair in "direct:$TTFE_DIRECT" "gateway:$TTFE_GATEWAY"; do
        r=${pair#*:}
        printf '%-8s %10.2f %10.2f %10.2f %18.2f %8.1f\n' "${pair%%:*}" "$(field "$r" median_ms)" \
            "$(field "$r" p90_ms)" "$(field "$r" p99_ms)" "$(field "$r" last_byte_median_ms)" \
            "$(field "$r" other_cpu_pct)"
    done
    awk -v dm="$(field "$TTFE_DIRECT" median_ms)" -v gm="$(field "$TTFE_GATEWAY" median_ms)" \
        -v d9="$(field "$TTFE_DIRECT" p90_ms)" -v g9="$(field "$TTFE_GATEWAY" p90_ms)" \
        -v d99="$(field "$TTFE_DIRECT" p99_ms)" -v g99="$(field "$TTFE_GATEWAY" p99_ms)" \
        'BEGIN { printf "%-8s %+10.2f %+10.2f %+10.2f\n", "overhead", gm - dm, g9 - d9, g99 - d99 }'
fi
echo
awk -v idle="$GW_RSS_IDLE" -v loaded="$GW_RSS_LOADED" -v end="$GW_RSS_END" -v hwm="$GW_HWM" 'BEGIN {
    printf "Gateway memory (MiB): VmRSS %.0f after start-up, %.0f after the wrk load, %.0f at the end; VmHWM (peak) %.0f\n",
        idle / 1024, loaded / 1024, end / 1024, hwm / 1024 }'
echo "raw results: $RESULTS; wrk, FirstEvent and server logs: $OUT_DIR"
if [[ $PROFILE == 1 ]]; then
    echo
    echo "Gateway profile under $MAX_CONNS connections ($OUT_DIR/hotspots.txt, recording $OUT_DIR/gateway.jfr):"
    cat "$OUT_DIR/hotspots.txt"
fi
} | tee "$OUT_DIR/report.txt"
