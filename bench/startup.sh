#!/usr/bin/env bash
# Start to first served request, the way the container image runs the gateway (issue 18):
#
#   bash bench/startup.sh
#
# Extracts the fat jar as the Dockerfile does and starts it ROUNDS times in each of three ways:
#   launcher  the Spring Boot launcher over the extracted layers (the image before the AOT cache)
#   jar       java -jar application.jar over the extracted lib/ (what the AOT cache needs)
#   aot       as jar, with the JDK's ahead-of-time cache made by one training run (JEP 483/514/515:
#             -XX:AOTCacheOutput with -Dspring.context.exit=onRefresh, as the Dockerfile does)
# Each start is timed from exec to the first 200 answer of GET /v1/files through the gateway (the dev
# key, an nginx stand-in for OpenAI), so what is measured is what a client waits for after a restart.
# Knobs: ROUNDS=3, CPUS (taskset list, default all), JAVA_OPTS (default: the image's), OUT_DIR, JAR.
set -euo pipefail

ROOT=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
ROUNDS=${ROUNDS:-3}
CPUS=${CPUS:-$(seq -s, 0 $(( $(nproc) - 1 )))}
JAVA_OPTS=${JAVA_OPTS:-"-XX:MaxRAMPercentage=75 -XX:+UseSerialGC -Xss512k"}
PORT=${PORT:-18280}
MGMT_PORT=${MGMT_PORT:-18281}
UPSTREAM_PORT=${UPSTREAM_PORT:-18289}
OUT_DIR=${OUT_DIR:-$(mktemp -d "${TMPDIR:-/tmp}/sandbox-gateway-startup.XXXXXX")}
JAVA=${JAVA_HOME:+$JAVA_HOME/bin/}java
JAR=${JAR:-$(ls "$ROOT"/target/sandbox-gateway-*.jar | grep -v '\.original$' | head -n 1)}
"$JAVA" -XX:AOTMode=off -version >/dev/null 2>&1 || { echo "needs JDK 25 or newer (-XX:AOTCache)" >&2; exit 1; }

log() { printf '[startup %s] %s\n' "$(date +%H:%M:%S)" "$*" >&2; }

PIDS=()
cleanup() { for pid in "${PIDS[@]}"; do kill "$pid" 2>/dev/null || true; done; }
trap cleanup EXIT
trap 'exit 130' INT TERM

mkdir -p "$OUT_DIR/upstream"
cat >"$OUT_DIR/upstream/nginx.conf" <<EOF
worker_processes 1;
error_log $OUT_DIR/upstream/error.log warn;
pid $OUT_DIR/upstream/nginx.pid;
events { worker_connections 64; }
http { access_log off; server { listen 127.0.0.1:$UPSTREAM_PORT; default_type application/json;
    location / { return 200 '{"object":"list","data":[],"has_more":false}'; } } }
EOF
nginx -p "$OUT_DIR/upstream" -c "$OUT_DIR/upstream/nginx.conf" -g 'daemon off;' >/dev/null 2>&1 &
PIDS+=($!)

log "extracting $JAR into $OUT_DIR (as the Dockerfile does)"
cp "$JAR" "$OUT_DIR/application.jar"
"$JAVA" -Djarmode=tools -jar "$OUT_DIR/application.jar" extract --layers --launcher --destination "$OUT_DIR/launcher" >/dev/null
"$JAVA" -Djarmode=tools -jar "$OUT_DIR/application.jar" extract --destination "$OUT_DIR/jar" >/dev/null
for layer in dependencies spring-boot-loader snapshot-dependencies application; do
    cp -r "$OUT_DIR/launcher/$layer/." "$OUT_DIR/launcher/app/"
done

ARGS=(--server.port="$PORT" --management.server.port="$MGMT_PORT" --spring.profiles.active=dev
      --gateway.upstream.base-url="http://127.0.0.1:$UPSTREAM_PORT" --gateway.upstream.api-key=sk-startup
      --logging.level.root=WARN)

log "training run for the AOT cache"
(cd "$OUT_DIR/jar" && rm -rf data && taskset -c "$CPUS" "$JAVA" $JAVA_OPTS -XX:AOTCacheOutput=app.aot \
    -Dspring.context.exit=onRefresh -jar application.jar "${ARGS[@]}" >"$OUT_DIR/training.log" 2>&1) \
    || { tail -n 20 "$OUT_DIR/training.log" >&2; exit 1; }
ls -l "$OUT_DIR/jar/app.aot" >&2

# start NAME DIR JAVA-ARGS...: ms from exec to the first 200 of GET /v1/files through the gateway.
start() {
    local name=$1 dir=$2
    shift 2
    rm -rf "$dir/data"
    local t0 pid
    t0=$(date +%s%N)
    # shellcheck disable=SC2086
    (cd "$dir" && exec taskset -c "$CPUS" "$JAVA" $JAVA_OPTS "$@" "${ARGS[@]}") >"$OUT_DIR/$name.log" 2>&1 &
    pid=$!
    PIDS+=("$pid")
    until [[ "$(curl -s -o /dev/null -w '%{http_code}' -H 'Authorization: Bearer sk-gw-dev-alice' \
            "http://127.0.0.1:$PORT/v1/files")" == 200 ]]; do
        kill -0 "$pid" 2>/dev/null || { tail -n 20 "$OUT_DIR/$name.log" >&2; exit 1; }
        sleep 0.05
    done
    echo $(( ($(date +%s%N) - t0) / 1000000 ))
    kill "$pid"
    wait "$pid" 2>/dev/null || true
}

printf 'variant\tround\tms_to_first_request\tload1\n' >"$OUT_DIR/startup.tsv"
for round in $(seq 1 "$ROUNDS"); do
    for variant in launcher jar aot; do
        case $variant in
            launcher) ms=$(start launcher "$OUT_DIR/launcher/app" org.springframework.boot.loader.launch.JarLauncher) ;;
            jar) ms=$(start jar "$OUT_DIR/jar" -jar application.jar) ;;
            aot) ms=$(start aot "$OUT_DIR/jar" -XX:AOTCache=app.aot -jar application.jar) ;;
        esac
        printf '%s\t%s\t%s\t%s\n' "$variant" "$round" "$ms" "$(cut -d' ' -f1 /proc/loadavg)" >>"$OUT_DIR/startup.tsv"
        log "$variant, round $round: ${ms} ms"
    done
done
echo "Start to first served request ($(nproc) cores, CPUs $CPUS, $JAVA_OPTS), ms:"
awk -F'\t' 'NR > 1 { v[$1] = v[$1] " " $3; l[$1] = l[$1] " " $4 } END { for (k in v) printf "%-9s %s   (load%s)\n", k, v[k], l[k] }' \
    "$OUT_DIR/startup.tsv" | sort
