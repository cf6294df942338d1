#!/usr/bin/env bash
# The floor under the gateway (issue 18): what the gateway's own server and client libraries cost with nothing else
# on the path, side by side with the gateway in bench/ab.sh's rounds:
#
#   bash bench/floor.sh                                   # the floor (A) against the gateway's whole pipeline (B)
#   FLOOR_OPTS=-Dfloor.json=false bash bench/floor.sh     # the bodies forwarded as bytes, not parsed
#   B_JAR=floor B_OPTS=-Dfloor.server=jdk bash bench/floor.sh   # Tomcat against the JDK's own HTTP server
#
# bench/floor/Floor.java is compiled against the libraries the gateway's fat jar holds (embedded Tomcat, Apache
# HttpClient 5, Jackson: the same versions) into OUT_DIR/floor/floor.jar, which takes the gateway's command line, so
# bench/ab.sh starts, warms and measures it as it does a gateway (and bench/proxy.sh, as its `floor` backend). It
# forwards POST /v1/responses to the fake upstream on Tomcat with virtual threads and HttpClient over pooled
# connections, parsing the request and the answer with Jackson and writing them again once each (as the gateway does,
# at the least); nothing else: no filter, no policy, no state, no metrics.
# Knobs: FLOOR_OPTS (its system properties: -Dfloor.json=false, -Dfloor.server=jdk for the JDK's HTTP server),
# B_JAR=floor (the floor on both sides, B with B_OPTS added to the JVM flags), and bench/ab.sh's (CONNS, ROUNDS, ...).
set -euo pipefail

ROOT=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
# shellcheck source=bench/lib.sh
source "$ROOT/bench/lib.sh"
JAR=$(gateway_jar)
export OUT_DIR=${OUT_DIR:-$(mktemp -d "${TMPDIR:-/tmp}/sandbox-gateway-floor.XXXXXX")}
FLOOR_JAR=$(floor_jar "$JAR" "$OUT_DIR/floor")
log "floor: $FLOOR_JAR, on the libraries of $JAR"

OPTS=${GATEWAY_JAVA_OPTS:-$ONE_CPU_JAVA_OPTS}
export A_JAR="$FLOOR_JAR" A_OPTS="$OPTS ${FLOOR_OPTS:-}"
if [[ ${B_JAR:-} == floor ]]; then
    export B_JAR="$FLOOR_JAR" B_OPTS="$OPTS ${FLOOR_OPTS:-} ${B_OPTS:-}"
fi
export JAR
exec bash "$ROOT/bench/ab.sh"
