#!/usr/bin/env bash
# The floor under the gateway (issue 18): what the gateway's own server and client libraries cost with nothing else
# on the path, side by side with the gateway in bench/ab.sh's rounds:
#
#   bash bench/floor.sh                                   # the floor (A) against the gateway's whole pipeline (B)
#   FLOOR_OPTS=-Dfloor.json=false bash bench/floor.sh     # the body forwarded as bytes, not parsed
#   B_JAR=floor B_OPTS=-Dfloor.server=jdk bash bench/floor.sh   # the floor on Tomcat against the floor on the JDK's server
#
# bench/floor/Floor.java is compiled against the libraries the gateway's fat jar holds (embedded Tomcat, Apache
# HttpClient 5, Jackson: the same versions) into OUT_DIR/floor/floor.jar, which takes the gateway's command line, so
# bench/ab.sh starts, warms and measures it as it does a gateway. It forwards POST /v1/responses to the fake upstream
# on Tomcat with virtual threads and HttpClient over pooled connections, parsing the request and the answer with
# Jackson and writing them again once each (as the gateway does, at the least); nothing else: no filter, no policy,
# no state, no metrics.
# Knobs: FLOOR_OPTS (its system properties, default -Dfloor.json=true; -Dfloor.server=jdk for the JDK's HTTP server),
# B_JAR=floor (the floor on both sides, B with B_OPTS added to the JVM flags), and bench/ab.sh's (CONNS, ROUNDS, ...).
set -euo pipefail

ROOT=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
# shellcheck source=bench/lib.sh
source "$ROOT/bench/lib.sh"
JAVA=$(find_java)
JAVA_BIN=$(dirname "$JAVA")
JAR=$(gateway_jar)
export OUT_DIR=${OUT_DIR:-$(mktemp -d "${TMPDIR:-/tmp}/sandbox-gateway-floor.XXXXXX")}
FLOOR="$OUT_DIR/floor"
mkdir -p "$FLOOR/classes"

(cd "$FLOOR" && "$JAVA_BIN/jar" xf "$JAR" BOOT-INF/lib)
"$JAVA_BIN/javac" -nowarn -d "$FLOOR/classes" -cp "$FLOOR/BOOT-INF/lib/*" "$ROOT/bench/floor/Floor.java"
# The manifest's class path names each library by its absolute path, one per continuation line.
printf 'Main-Class: Floor\nClass-Path:' >"$FLOOR/manifest.txt"
for lib in "$FLOOR"/BOOT-INF/lib/*.jar; do printf ' \n %s' "$lib" >>"$FLOOR/manifest.txt"; done
printf '\n' >>"$FLOOR/manifest.txt"
"$JAVA_BIN/jar" cfm "$FLOOR/floor.jar" "$FLOOR/manifest.txt" -C "$FLOOR/classes" .
log "floor: $FLOOR/floor.jar, on the libraries of $JAR"

FLOOR_OPTS=${FLOOR_OPTS:-"-Dfloor.json=true"}
OPTS=${GATEWAY_JAVA_OPTS:-"-XX:+UseSerialGC -Xmx192m -Xss512k -XX:MaxMetaspaceSize=160m"}
export A_JAR="$FLOOR/floor.jar" A_OPTS="$OPTS $FLOOR_OPTS"
if [[ ${B_JAR:-} == floor ]]; then
    export B_JAR="$FLOOR/floor.jar" B_OPTS="$OPTS $FLOOR_OPTS ${B_OPTS:-}"
fi
export JAR
exec bash "$ROOT/bench/ab.sh"
