#!/usr/bin/env bash
# Start to first served request, the way the container image runs the gateway (issue 18):
#
#   bash bench/startup.sh
#
# Lays the fat jar out as the Dockerfile does (its layers in one folder), takes the image's JVM flags from the
# Dockerfile's JDK_JAVA_OPTIONS with the container's memory limit given as -XX:MaxRAM, and starts the gateway
# ROUNDS times in each of three ways, on each CPU set of CPU_SETS (taskset: a 1-CPU and a 2-CPU container):
#   jar        java -jar application.jar, no cache
#   aot-start  -XX:AOTCache with a cache trained by starting only (-Dspring.context.exit=onRefresh), as the
#              Dockerfile meant to until session 17 (its run lacked the pseudonymization key and failed the build)
#   aot        -XX:AOTCache with the image's cache, trained by src/main/docker/aot-training.sh (start, serve requests
#              of each common kind, stop), exactly as the Dockerfile's build makes it: the image's ENTRYPOINT
# each both as a first start (no ./data: the embedded database is created and migrated) and as a restart (./data
# of the start before). Each start is timed from exec to the first 200 answer of GET /v1/files through the gateway
# (the dev key, an nginx stand-in for OpenAI), so what is measured is what a client waits for after a restart; then,
# once the start has ended, the first code-interpreter response through the whole pipeline is timed
# (bench/proxy/answer.json, its ids fixed).
# Knobs: ROUNDS=3, CPU_SETS="0 0,1", LIMIT=1536m (the chart's memory limit), OUT_DIR, JAR.
set -euo pipefail

ROOT=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
# shellcheck source=bench/lib.sh
source "$ROOT/bench/lib.sh"
ROUNDS=${ROUNDS:-3}
CPU_SETS=${CPU_SETS:-"0 0,1"}
LIMIT=${LIMIT:-1536m}
PORT=${PORT:-18280}
MGMT_PORT=${MGMT_PORT:-18281}
UPSTREAM_PORT=${UPSTREAM_PORT:-18289}
OUT_DIR=${OUT_DIR:-$(mktemp -d "${TMPDIR:-/tmp}/sandbox-gateway-startup.XXXXXX")}
JAVA_BIN=${JAVA_HOME:+$JAVA_HOME/bin}
JAVA=${JAVA_BIN:+$JAVA_BIN/}java
JAR=${JAR:-$(ls "$ROOT"/target/sandbox-gateway-*.jar | grep -v '\.original$' | head -n 1)}
"$JAVA" -XX:AOTMode=off -version >/dev/null 2>&1 || { echo "needs JDK 25 or newer (-XX:AOTCache)" >&2; exit 1; }
# The image's flags, as its ENV line gives them, with the container's memory limit the JVM would read from its cgroup.
IMAGE_OPTS=$(sed -n 's/^ENV JDK_JAVA_OPTIONS="\(.*\)"$/\1/p' "$ROOT/Dockerfile")
[[ -n "$IMAGE_OPTS" ]] || { echo "no ENV JDK_JAVA_OPTIONS in the Dockerfile" >&2; exit 1; }
export JDK_JAVA_OPTIONS="-XX:MaxRAM=$LIMIT $IMAGE_OPTS"
export PATH="${JAVA_BIN:+$JAVA_BIN:}$PATH"

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
http { access_log off; client_body_temp_path $OUT_DIR/upstream/body;
    server { listen 127.0.0.1:$UPSTREAM_PORT; default_type application/json;
    location = /v1/responses {
        return 200 '$(nginx_text "$ROOT/bench/proxy/answer.json" startup)';
    }
    location / { return 200 '{"object":"list","data":[],"has_more":false}'; } } }
EOF
nginx -p "$OUT_DIR/upstream" -c "$OUT_DIR/upstream/nginx.conf" -g 'daemon off;' >/dev/null 2>&1 &
PIDS+=($!)

log "laying out $JAR in $OUT_DIR/app as the Dockerfile does; JDK_JAVA_OPTIONS=$JDK_JAVA_OPTIONS"
cp "$JAR" "$OUT_DIR/application.jar"
(cd "$OUT_DIR" && "$JAVA" -Djarmode=tools -jar application.jar extract --layers --destination extracted >/dev/null)
mkdir -p "$OUT_DIR/app"
for layer in dependencies spring-boot-loader snapshot-dependencies application; do
    cp -r "$OUT_DIR/extracted/$layer/." "$OUT_DIR/app/"
done

log "training the image's cache (src/main/docker/aot-training.sh)"
(cd "$OUT_DIR/app" && SERVER_PORT=$PORT MANAGEMENT_SERVER_PORT=$MGMT_PORT \
    sh "$ROOT/src/main/docker/aot-training.sh" app.aot >"$OUT_DIR/training.log" 2>&1) \
    || { grep -v '^\[' "$OUT_DIR/training.log" | tail -n 20 >&2; exit 1; }
log "training a cache on start-up only (-Dspring.context.exit=onRefresh)"
(cd "$OUT_DIR/app" && "$JAVA" -XX:AOTCacheOutput=app-start.aot -Dspring.context.exit=onRefresh -jar application.jar \
    '--spring.datasource.url=jdbc:h2:mem:training;MODE=PostgreSQL;DATABASE_TO_LOWER=TRUE;DEFAULT_NULL_ORDERING=HIGH' \
    --gateway.audit.spool-dir="$OUT_DIR/training-spool" --gateway.policy.org.sanitization.pseudonymization-key=aot-start-training \
    >"$OUT_DIR/training-start.log" 2>&1) \
    || { grep -v '^\[' "$OUT_DIR/training-start.log" | tail -n 20 >&2; exit 1; }
ls -l "$OUT_DIR/app/"*.aot >&2

ARGS=(--server.port="$PORT" --management.server.port="$MGMT_PORT" --spring.profiles.active=dev
      --gateway.upstream.base-url="http://127.0.0.1:$UPSTREAM_PORT" --gateway.upstream.api-key=sk-startup
      --logging.level.root=WARN)

# start NAME CPUS STATE JAVA-ARGS...: ms from exec to the first 200 of GET /v1/files through the gateway, and ms of the
# code-interpreter response that follows it; STATE first starts on an empty ./data, restart on the ./data the start
# before left.
start() {
    local name=$1 cpus=$2 state=$3
    shift 3
    [[ "$state" == restart ]] || rm -rf "$OUT_DIR/app/data"
    local t0 pid
    t0=$(date +%s%N)
    (cd "$OUT_DIR/app" && exec taskset -c "$cpus" "$JAVA" "$@" -jar application.jar "${ARGS[@]}") >"$OUT_DIR/$name.log" 2>&1 &
    pid=$!
    until [[ "$(curl -s -o /dev/null -w '%{http_code}' -H 'Authorization: Bearer sk-gw-dev-alice' \
            "http://127.0.0.1:$PORT/v1/files")" == 200 ]]; do
        kill -0 "$pid" 2>/dev/null || { tail -n 20 "$OUT_DIR/$name.log" >&2; exit 1; }
        sleep 0.02
    done
    local ready=$(( ($(date +%s%N) - t0) / 1000000 )) answer
    # The API answers a moment before the start has ended: the response is sent once it has, so that the stop after
    # it is a graceful one.
    until curl -fs -o /dev/null "http://127.0.0.1:$MGMT_PORT/actuator/health/readiness"; do
        kill -0 "$pid" 2>/dev/null || { tail -n 20 "$OUT_DIR/$name.log" >&2; exit 1; }
        sleep 0.02
    done
    answer=$(curl -s -o /dev/null -w '%{http_code} %{time_total}' -H 'Authorization: Bearer sk-gw-dev-alice' \
        -H 'Content-Type: application/json' "http://127.0.0.1:$PORT/v1/responses" \
        -d '{"model":"gpt-4.1","input":"Plot revenue","tools":[{"type":"code_interpreter","container":{"type":"auto"}}]}')
    [[ "$answer" == 200\ * ]] || { log "the first response failed: $answer"; kill "$pid"; tail -n 20 "$OUT_DIR/$name.log" >&2; exit 1; }
    echo "$ready $(awk '{ printf "%d", $2 * 1000 }' <<<"$answer")"
    kill "$pid"
    wait "$pid" 2>/dev/null || true
}

printf 'variant\tcpus\tstate\tround\tms_to_first_request\tms_first_response\tload1\n' >"$OUT_DIR/startup.tsv"
for round in $(seq 1 "$ROUNDS"); do
    for cpus in $CPU_SETS; do
        for variant in jar aot-start aot; do
            case $variant in
                jar) flags=() ;;
                aot-start) flags=(-XX:AOTCache=app-start.aot) ;;
                aot) flags=(-XX:AOTCache=app.aot) ;;
            esac
            for state in first restart; do
                result=$(start "$variant" "$cpus" "$state" "${flags[@]}")   # returns once that gateway is gone
                read -r ms first <<<"$result"
                printf '%s\t%s\t%s\t%s\t%s\t%s\t%s\n' "$variant" "$cpus" "$state" "$round" "$ms" "$first" \
                    "$(cut -d' ' -f1 /proc/loadavg)" >>"$OUT_DIR/startup.tsv"
                log "$variant on CPUs $cpus, $state start, round $round: ${ms} ms, then the first response ${first} ms"
            done
        done
    done
done
# median [min-max] of column COLUMN of the rows of VARIANT, CPUS and STATE
cell() {
    awk -F'\t' -v v="$1" -v c="$2" -v s="$3" -v k="$4" '$1 == v && $2 == c && $3 == s { print $k }' "$OUT_DIR/startup.tsv" \
        | sort -n | awk '{ a[NR] = $1 } END { printf "%d [%d-%d]", a[int((NR + 1) / 2)], a[1], a[NR] }'
}
echo "Start to first served request, then the first code-interpreter response, ms (median [min-max] of $ROUNDS;"
echo "$(nproc) cores; JDK_JAVA_OPTIONS=$JDK_JAVA_OPTIONS):"
printf '%-10s %-5s %-20s %-16s %-20s %-16s\n' variant CPUs "first start" "its response" restart "its response"
for cpus in $CPU_SETS; do
    for variant in jar aot-start aot; do
        printf '%-10s %-5s %-20s %-16s %-20s %-16s\n' "$variant" "$cpus" "$(cell $variant $cpus first 5)" \
            "$(cell $variant $cpus first 6)" "$(cell $variant $cpus restart 5)" "$(cell $variant $cpus restart 6)"
    done
done
echo "raw: $OUT_DIR/startup.tsv"
