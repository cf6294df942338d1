#!/usr/bin/env bash
# What the slow requests at one connection waited for (issue 18's added p99 at one connection):
#
#   bash bench/slow.sh                       # the gateway on memory + H2
#   BACKEND=redis bash bench/slow.sh         # on Redis + PostgreSQL
#   BACKEND=floor bash bench/slow.sh         # the floor under it (bench/floor/Floor.java)
#
# Starts the server as bench/proxy.sh does (on PROXY_CPUS, against the fake upstream on LOAD_CPUS), warms it up at 16
# connections and then at one, records it with JFR while bench/SlowRequests.java sends N requests one after the other
# from LOAD_CPUS, and prints their latency and, for each slower than THRESHOLD_US, the first cause the recording shows
# overlapping it: a collection, the upstream's answer, another socket's (PostgreSQL's), a lock, another thread of the
# server on the CPU, or nothing the recording shows.
# Knobs: BACKEND=memory, N=9000 (on one keep-alive connection, opened again untimed if the server closes it),
# THRESHOLD_US=2000 (the target's added p99), PORT=18480 (its management port one above), OUT_DIR, and
# bench/proxy-lib.sh's (GATEWAY_JAVA_OPTS, PROXY_CPUS, LOAD_CPUS, WARMUP_MAX).
set -euo pipefail

ROOT=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
BENCH="$ROOT/bench"
BACKEND=${BACKEND:-memory}
N=${N:-9000}
THRESHOLD_US=${THRESHOLD_US:-2000}
PORT=${PORT:-18480}
OUT_DIR=${OUT_DIR:-$(mktemp -d "${TMPDIR:-/tmp}/sandbox-gateway-slow.XXXXXX")}
mkdir -p "$OUT_DIR"

# shellcheck source=bench/proxy-lib.sh
source "$BENCH/proxy-lib.sh"
needs_psql "$BACKEND"
require_free_ports "$PORT" $(( PORT + 1 ))
jar=$JAR
[[ $BACKEND == floor ]] && jar=$(floor_jar "$JAR" "$OUT_DIR/floor")
start_gateway "$BACKEND" "$BACKEND" "$PORT" $(( PORT + 1 )) "$jar" "$GATEWAY_JAVA_OPTS" "${GATEWAY_ARGS:-}"
warm_up "$BACKEND" "$PORT" "$GW_PID" 16 45
warm_up "$BACKEND" "$PORT" "$GW_PID" 1 15 40

log "$N requests one after the other under JFR"
"$JAVA_HOME/bin/jcmd" "$GW_PID" JFR.start name=slow settings=profile "filename=$OUT_DIR/slow.jfr" \
    'jdk.CPUTimeSample#enabled=true' 'jdk.CPUTimeSample#throttle=1ms' 'jdk.SocketRead#threshold=1ms' \
    'jdk.JavaMonitorEnter#threshold=500us' >"$OUT_DIR/jfr-start.txt" 2>&1 || die "JFR.start failed, see $OUT_DIR/jfr-start.txt"
taskset -c "$LOAD_CPUS" "$JAVA" "$BENCH/SlowRequests.java" send "$PORT" "$N" "$OUT_DIR/times.tsv"
"$JAVA_HOME/bin/jcmd" "$GW_PID" JFR.stop name=slow >/dev/null

echo "Slow requests at one connection, $BACKEND, $(date -u +%Y-%m-%dT%H:%MZ), commit $(git -C "$ROOT" rev-parse --short HEAD)"
echo "server on CPUs $PROXY_CPUS with $GATEWAY_JAVA_OPTS; the client and the fake upstream on $LOAD_CPUS"
"$JAVA" "$BENCH/SlowRequests.java" explain "$OUT_DIR/slow.jfr" "$OUT_DIR/times.tsv" "$UPSTREAM_PORT" "$THRESHOLD_US"
echo "raw: $OUT_DIR/times.tsv, $OUT_DIR/slow.jfr"
