# Shared by bench/overload.sh and bench/soak.sh (sourced, not run): finds java and the jar, starts the
# offline simulator and a gateway in front of it on ports of their own, stops exactly those two JVMs on
# exit, and reads a process's memory, threads and file descriptors from /proc. bench/run.sh's conventions.

ROOT=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
BENCH="$ROOT/bench"
SIM_PORT=${SIM_PORT:-18089}
GW_PORT=${GW_PORT:-18080}
MGMT_PORT=${MGMT_PORT:-18081}
GATEWAY_JAVA_OPTS=${GATEWAY_JAVA_OPTS:-"-Xmx512m"}
SIM_JAVA_OPTS=${SIM_JAVA_OPTS:-"-Xmx512m"}
GATEWAY_ARGS=${GATEWAY_ARGS:-""}
DB_URL=${DB_URL:-jdbc:h2:mem:bench}
OUT_DIR=${OUT_DIR:-$(mktemp -d "${TMPDIR:-/tmp}/sandbox-gateway-$(basename "$0" .sh).XXXXXX")}
mkdir -p "$OUT_DIR"
URL_DIRECT="http://127.0.0.1:$SIM_PORT"
URL_GATEWAY="http://127.0.0.1:$GW_PORT"
URL_MGMT="http://127.0.0.1:$MGMT_PORT"

# shellcheck source=bench/lib.sh
source "$BENCH/lib.sh"

command -v wrk >/dev/null 2>&1 || die "wrk is not installed. On Debian/Ubuntu: sudo apt-get install -y wrk"
command -v curl >/dev/null 2>&1 || die "curl is needed (apt-get install -y curl)"
JAVA=$(find_java) || die "no Java 21+ found; set JAVA_HOME to a JDK 21 or newer"
JCMD="$(dirname "$JAVA")/jcmd"
JAR=$(gateway_jar)

require_free_ports "$SIM_PORT" "$GW_PORT" "$MGMT_PORT"

SIM_PID=""
GW_PID=""
cleanup() {
    local pid
    for pid in $GW_PID $SIM_PID; do kill "$pid" 2>/dev/null || true; done
    for _ in $(seq 1 100); do
        local alive=""
        for pid in $GW_PID $SIM_PID; do kill -0 "$pid" 2>/dev/null && alive=1; done
        [[ -z "$alive" ]] && break
        sleep 0.1
    done
    for pid in $GW_PID $SIM_PID; do kill -9 "$pid" 2>/dev/null || true; done
}
trap cleanup EXIT
trap 'exit 130' INT TERM

# start_servers EXTRA_GATEWAY_ARGS...: the simulator and the gateway (dev profile, key sk-gw-dev-alice,
# DB_URL, in-memory H2 by default; limits and budgets out of the way), both ready when it returns.
start_servers() {
    log "java: $JAVA; jar: $JAR; results and logs: $OUT_DIR"
    # shellcheck disable=SC2086
    (cd "$OUT_DIR" && exec "$JAVA" $SIM_JAVA_OPTS -cp "$JAR" -Dloader.main=com.sandboxgateway.simulator.OfflineSimulator \
        org.springframework.boot.loader.launch.PropertiesLauncher "$SIM_PORT") >"$OUT_DIR/simulator.log" 2>&1 &
    SIM_PID=$!
    # shellcheck disable=SC2086
    (cd "$OUT_DIR" && exec "$JAVA" $GATEWAY_JAVA_OPTS -jar "$JAR" \
        --server.port="$GW_PORT" --management.server.port="$MGMT_PORT" \
        --gateway.upstream.base-url="$URL_DIRECT" --gateway.upstream.api-key=sk-bench \
        --spring.profiles.active=dev --spring.datasource.url="$DB_URL" \
        --gateway.policy.org.rate-limit.requests-per-minute=1000000000 --gateway.policy.org.rate-limit.burst=1000000000 \
        --gateway.policy.org.rate-limit.team-requests-per-minute=1000000000 \
        --gateway.policy.org.turns.max-per-user-per-day=1000000000 \
        --gateway.policy.org.spend.max-usd-per-team-per-day=1000000000 \
        --resilience4j.bulkhead.configs.team.max-concurrent-calls=100000 \
        "$@" $GATEWAY_ARGS) >"$OUT_DIR/gateway.log" 2>&1 &
    GW_PID=$!
    wait_for simulator "$SIM_PID" "$OUT_DIR/simulator.log" answers "$URL_DIRECT/v1/responses"
    wait_for gateway "$GW_PID" "$OUT_DIR/gateway.log" curl -sf "$URL_MGMT/actuator/health/readiness"
    log "simulator pid $SIM_PID on $SIM_PORT, gateway pid $GW_PID on $GW_PORT (management $MGMT_PORT)"
}

require_alive() {
    kill -0 "$SIM_PID" 2>/dev/null || die "the simulator (pid $SIM_PID) has exited; see $OUT_DIR/simulator.log"
    kill -0 "$GW_PID" 2>/dev/null || die "the gateway (pid $GW_PID) has exited; see $OUT_DIR/gateway.log"
}

proc_threads() { proc_kib "$1" Threads; }
proc_fds() { ls "/proc/$1/fd" | wc -l; }
# Heap in use right after a full GC, in KiB (jcmd GC.run, then GC.heap_info's "used").
heap_after_gc_kib() {
    "$JCMD" "$1" GC.run >/dev/null 2>&1 || true
    "$JCMD" "$1" GC.heap_info 2>/dev/null | awk '/garbage-first heap|def new generation|PSYoungGen|ZHeap|Shenandoah/ {
        for (i = 1; i <= NF; i++) if ($i == "used") { v = $(i + 1); sub(/K,?$/, "", v); print v; exit } }'
}
# A gateway metric's value from /actuator/prometheus (summed over its series), e.g. gateway_overload_shed_total.
metric() {
    curl -s "$URL_MGMT/actuator/prometheus" | awk -v name="$1" '$1 == name || index($1, name "{") == 1 { s += $NF } END { printf "%d", s }'
}
