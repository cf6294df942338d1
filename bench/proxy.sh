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
# the time to the first event of a stream, and the gateway's RSS. See bench/README.md.
#
# Knobs (environment variables):
#   DURATION=15        seconds of each wrk measurement
#   WARMUP=45          seconds of warm-up load through each gateway before it is measured, at least;
#   WARMUP_MAX=240     the warm-up goes on in 15 s steps until the JIT compilers take under a tenth of
#                      the gateway's CPU (a busy machine starves them), at most this long
#   CONNECTIONS="1 16" connection counts
#   BACKENDS="memory redis"  gateway configurations: memory (in-memory state, the embedded H2 file),
#                      redis (Redis DB REDIS_DB=13 on 127.0.0.1:6379, PostgreSQL schema PG_SCHEMA=bench_proxy
#                      of db test on 127.0.0.1:5432, dropped and created afresh)
#   TTFE_N=200         sequential streamed requests per target for time to first event (0 skips it)
#   PROXY_CPUS=0 LOAD_CPUS=1   taskset CPU lists: the proxy or gateway / wrk and the upstream
#   GATEWAY_JAVA_OPTS  the gateway's JVM flags (default: the image's recommendation for one CPU)
#   GATEWAY_ARGS=""    extra Spring arguments for the gateway
#   PROFILE=0          1: one more 16-connection load on the first backend under JFR, summarised by
#                      bench/HotSpots.java (the measured figures are taken without JFR)
#   UPSTREAM_PORT=18189 PROXY_PORT=18190 GW_PORT=18180 MGMT_PORT=18181
#   OUT_DIR            logs and raw results (default: a fresh /tmp/sandbox-gateway-proxy.*)
#   JAR                the gateway fat jar (default: target/sandbox-gateway-*.jar, built if missing)
set -euo pipefail

ROOT=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
BENCH="$ROOT/bench"

DURATION=${DURATION:-15}
WARMUP=${WARMUP:-45}
WARMUP_MAX=${WARMUP_MAX:-240}
CONNECTIONS=${CONNECTIONS:-"1 16"}
BACKENDS=${BACKENDS:-"memory redis"}
TTFE_N=${TTFE_N:-200}
PROXY_CPUS=${PROXY_CPUS:-0}
LOAD_CPUS=${LOAD_CPUS:-1}
GATEWAY_JAVA_OPTS=${GATEWAY_JAVA_OPTS:-"-XX:+UseSerialGC -Xmx192m -Xss512k -XX:ReservedCodeCacheSize=64m -XX:MaxMetaspaceSize=160m"}
GATEWAY_ARGS=${GATEWAY_ARGS:-""}
PROFILE=${PROFILE:-0}
UPSTREAM_PORT=${UPSTREAM_PORT:-18189}
PROXY_PORT=${PROXY_PORT:-18190}
GW_PORT=${GW_PORT:-18180}
MGMT_PORT=${MGMT_PORT:-18181}
REDIS_DB=${REDIS_DB:-13}
PG_SCHEMA=${PG_SCHEMA:-bench_proxy}
OUT_DIR=${OUT_DIR:-$(mktemp -d "${TMPDIR:-/tmp}/sandbox-gateway-proxy.XXXXXX")}
mkdir -p "$OUT_DIR"

# shellcheck source=bench/lib.sh
source "$BENCH/lib.sh"

for tool in wrk nginx curl taskset; do
    command -v "$tool" >/dev/null 2>&1 || [[ -x /usr/sbin/$tool ]] \
        || die "$tool is missing (Debian: apt-get install -y wrk nginx-light curl util-linux)"
done
NGINX=$(command -v nginx || echo /usr/sbin/nginx)
if [[ " $BACKENDS " == *" redis "* ]]; then
    command -v psql >/dev/null 2>&1 || die "psql is needed to prepare the PostgreSQL schema (apt-get install -y postgresql-client)"
fi

JAVA=$(find_java) || die "no Java 21+ found; set JAVA_HOME"
JAVA_HOME=$(dirname "$(dirname "$(readlink -f "$JAVA")")")
JAR=$(gateway_jar)

require_free_ports "$UPSTREAM_PORT" "$PROXY_PORT" "$GW_PORT" "$MGMT_PORT"

# --- the fake upstream and the plain proxy (nginx) -----------------------------------------------

# A text for nginx's `return 200 '...'`: nginx unescapes \\ and \' inside quotes, so double them;
# REQUEST_ID becomes the time of the request ($id_time, below) and nginx's $request_id.
nginx_text() { sed -e 's/\\/\\\\/g' -e "s/'/\\\\'/g" -e 's/REQUEST_ID/${id_time}$request_id/g' "$1"; }

mkdir -p "$OUT_DIR/upstream" "$OUT_DIR/proxy"
# $request_id (32 random hex digits) in place of REQUEST_ID makes every answer's response, item,
# container and file ids new, so the gateway records fresh ownership rows and a fresh audit record for
# each, as it would upstream. Like OpenAI's, whose ids begin with the object's created_at (8 hex digits:
# resp_67ccd2be... was created at 0x67ccd2be), they begin with the time, here the request's in milliseconds
# ($msec without its dot, 13 digits), so they sort in the order they were made: with uniformly random ids every
# row the gateway keys by them would land in a random page of its index, a cost OpenAI's ids do not cause.
# The stream (10 KB, too long for one nginx parameter) is a file whose ids sub_filter replaces; error_page
# turns the static module's 405 for a POST into the file.
cat >"$OUT_DIR/upstream/nginx.conf" <<EOF
worker_processes 1;
error_log $OUT_DIR/upstream/error.log warn;
pid $OUT_DIR/upstream/nginx.pid;
events { worker_connections 1024; }
http {
    access_log off;
    keepalive_requests 10000000;
    client_body_temp_path $OUT_DIR/upstream/body;
    map \$msec \$id_time { "~^(?<s>[0-9]+)[.](?<ms>[0-9]+)\$" "\$s\$ms"; }
    server {
        listen 127.0.0.1:$UPSTREAM_PORT;
        default_type application/json;
        location = /v1/files { return 200 '$(nginx_text "$BENCH/proxy/file.json")'; }
        location = /v1/responses {
            if (\$http_accept ~ event-stream) { rewrite ^ /stream last; }
            return 200 '$(nginx_text "$BENCH/proxy/answer.json")';
        }
        location = /stream {
            internal;
            alias $BENCH/proxy/answer.sse;
            default_type text/event-stream;
            sub_filter_types text/event-stream;
            sub_filter_once off;
            sub_filter REQUEST_ID \${id_time}\$request_id;
            error_page 405 =200 /stream;
        }
        location / { return 404 '{"error":{"message":"not in the benchmark","type":"invalid_request_error"}}'; }
    }
}
EOF
cat >"$OUT_DIR/proxy/nginx.conf" <<EOF
worker_processes 1;
error_log $OUT_DIR/proxy/error.log warn;
pid $OUT_DIR/proxy/nginx.pid;
events { worker_connections 1024; }
http {
    access_log off;
    keepalive_requests 10000000;
    client_body_temp_path $OUT_DIR/proxy/body;
    proxy_temp_path $OUT_DIR/proxy/temp;
    upstream openai { server 127.0.0.1:$UPSTREAM_PORT; keepalive 64; }
    server {
        listen 127.0.0.1:$PROXY_PORT;
        location / {
            proxy_pass http://openai;
            proxy_http_version 1.1;
            proxy_set_header Connection "";
            proxy_buffering off;
        }
    }
}
EOF

PIDS=()
cleanup() {
    local pid
    # Only what this script started, by pid; nginx masters stop their own workers.
    for pid in "${PIDS[@]}"; do kill "$pid" 2>/dev/null || true; done
    for _ in $(seq 1 100); do
        local alive=""
        for pid in "${PIDS[@]}"; do kill -0 "$pid" 2>/dev/null && alive=1; done
        [[ -z "$alive" ]] && break
        sleep 0.1
    done
    for pid in "${PIDS[@]}"; do kill -9 "$pid" 2>/dev/null || true; done
}
trap cleanup EXIT
trap 'exit 130' INT TERM

start_nginx() {
    local name=$1 cpus=$2
    taskset -c "$cpus" "$NGINX" -p "$OUT_DIR/$name" -c "$OUT_DIR/$name/nginx.conf" -g 'daemon off;' \
        >"$OUT_DIR/$name/stdout.log" 2>&1 &
    echo $!
}
UPSTREAM_PID=$(start_nginx upstream "$LOAD_CPUS")
PROXY_PID=$(start_nginx proxy "$PROXY_CPUS")
PIDS+=("$UPSTREAM_PID" "$PROXY_PID")

# --- measurement helpers -------------------------------------------------------------------------

CLK_TCK=$(getconf CLK_TCK)
# utime + stime of a process and of its children still running (nginx's workers), in clock ticks.
tree_ticks() {
    local total=0 pid
    for pid in $1 $(pgrep -P "$1" || true); do
        total=$(( total + $(sed 's/.*) //' "/proc/$pid/stat" 2>/dev/null | awk '{ print $12 + $13 }' || echo 0) ))
    done
    echo "$total"
}
# utime + stime of a JVM's JIT compiler threads: on a busy machine a gateway can spend minutes compiling,
# and its CPU per request then says more about the warm-up than about the request path.
jit_ticks() {
    local total=0 task
    for task in /proc/"$1"/task/*; do
        if [[ "$(cat "$task/comm" 2>/dev/null)" == C[12]\ Compiler* ]]; then
            total=$(( total + $(sed 's/.*) //' "$task/stat" 2>/dev/null | awk '{ print $12 + $13 }' || echo 0) ))
        fi
    done
    echo "$total"
}
load1() { cut -d' ' -f1 /proc/loadavg; }

wait_for upstream "$UPSTREAM_PID" "$OUT_DIR/upstream/error.log" answers "http://127.0.0.1:$UPSTREAM_PORT/"
wait_for proxy "$PROXY_PID" "$OUT_DIR/proxy/error.log" answers "http://127.0.0.1:$PROXY_PORT/"

RESULTS="$OUT_DIR/results.tsv"
printf 'backend\tconns\ttarget\trps\tp50_us\tp99_us\terrors\trequests\tserver_cpu_us_per_req\tupstream_cpu_us_per_req\tload1\tjit_cpu_us_per_req\n' >"$RESULTS"

# measure BACKEND TARGET PORT SERVER_PID CONNS SECONDS: one wrk run, appended to results.tsv.
measure() {
    local backend=$1 target=$2 port=$3 server=$4 conns=$5 seconds=$6 out server0 upstream0 jit0 r
    out="$OUT_DIR/wrk-$backend-$target-c$conns.txt"
    server0=$(tree_ticks "$server")
    jit0=$(jit_ticks "$server")
    upstream0=$(tree_ticks "$UPSTREAM_PID")
    BENCH_FILE_ID=file-benchdata0001 taskset -c "$LOAD_CPUS" wrk -t1 -c"$conns" -d"${seconds}s" --timeout 10s \
        --latency -s "$BENCH/responses.lua" "http://127.0.0.1:$port" >"$out" 2>&1 || die "wrk failed, see $out"
    r=$(grep '^BENCH_RESULT' "$out") || die "wrk printed no result, see $out"
    local requests server_t upstream_t jit_t
    requests=$(field "$r" requests)
    server_t=$(( $(tree_ticks "$server") - server0 ))
    jit_t=$(( $(jit_ticks "$server") - jit0 ))
    upstream_t=$(( $(tree_ticks "$UPSTREAM_PID") - upstream0 ))
    printf '%s\t%s\t%s\t%s\t%s\t%s\t%s\t%s\t%s\t%s\t%s\t%s\n' "$backend" "$conns" "$target" "$(field "$r" rps)" \
        "$(field "$r" p50_us)" "$(field "$r" p99_us)" \
        $(( $(field "$r" err_connect) + $(field "$r" err_read) + $(field "$r" err_write) + $(field "$r" err_status) + $(field "$r" err_timeout) )) \
        "$requests" \
        "$(awk -v t="$server_t" -v hz="$CLK_TCK" -v n="$requests" 'BEGIN { printf "%.0f", n ? t * 1e6 / hz / n : 0 }')" \
        "$(awk -v t="$upstream_t" -v hz="$CLK_TCK" -v n="$requests" 'BEGIN { printf "%.0f", n ? t * 1e6 / hz / n : 0 }')" \
        "$(load1)" "$(awk -v t="$jit_t" -v hz="$CLK_TCK" -v n="$requests" 'BEGIN { printf "%.0f", n ? t * 1e6 / hz / n : 0 }')" \
        >>"$RESULTS"
}
field() { tr ' ' '\n' <<<"$1" | awk -F= -v k="$2" '$1 == k { print $2 }'; }

# warm_up BACKEND CONNS MIN_SECONDS: 15 s loads through the gateway until the JIT compilers took under a tenth of its
# CPU in the last 15 s (a busy machine starves them), after at least MIN_SECONDS and at most WARMUP_MAX.
warm_up() {
    local warm=0
    while (( warm < WARMUP_MAX )); do
        measure "warmup-$1" gateway "$GW_PORT" "$GW_PID" "$2" 15
        warm=$(( warm + 15 ))
        (( warm >= $3 )) && tail -n 1 "$RESULTS" | awk -F'\t' '{ exit !($12 * 10 < $9) }' && break
    done
    log "gateway ($1): warm after ${warm}s ($(tail -n 1 "$RESULTS" | cut -f9,12 | tr '\t' '/') us/req CPU/JIT)"
}

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
    mkdir -p "$dir"
    case $backend in
        # The embedded H2 as the gateway configures it by default: a file (in this run's directory). Not
        # in memory: the tables would grow in the heap until full collections took most of the CPU.
        memory) state=(--gateway.state.backend=memory --spring.datasource.username=sa
                       '--spring.datasource.url=jdbc:h2:file:./data/bench;MODE=PostgreSQL;DATABASE_TO_LOWER=TRUE;DEFAULT_NULL_ORDERING=HIGH') ;;
        redis)
            psql -q -h 127.0.0.1 -U postgres -d test -c "DROP SCHEMA IF EXISTS $PG_SCHEMA CASCADE; CREATE SCHEMA $PG_SCHEMA" \
                >"$dir/psql.log" 2>&1 || die "could not prepare PostgreSQL schema $PG_SCHEMA, see $dir/psql.log"
            state=(--gateway.state.backend=redis --spring.data.redis.host=127.0.0.1 --spring.data.redis.port=6379
                   --spring.data.redis.database="$REDIS_DB"
                   --spring.datasource.url="jdbc:postgresql://127.0.0.1:5432/test?currentSchema=$PG_SCHEMA"
                   --spring.datasource.username=postgres) ;;
        *) die "unknown backend '$backend' (memory or redis)" ;;
    esac
    log "gateway ($backend): starting on CPUs $PROXY_CPUS with $GATEWAY_JAVA_OPTS"
    started=$(date +%s%N)
    # The limits are raised far beyond the load so every request takes the whole path (buckets and
    # budgets are still checked and charged) and none ends early in a 429. `exec` keeps $! the JVM.
    # shellcheck disable=SC2086 # GATEWAY_JAVA_OPTS and GATEWAY_ARGS are word-split on purpose
    (cd "$dir" && exec taskset -c "$PROXY_CPUS" "$JAVA" $GATEWAY_JAVA_OPTS -jar "$JAR" \
        --server.port="$GW_PORT" --management.server.port="$MGMT_PORT" \
        --gateway.upstream.base-url="http://127.0.0.1:$UPSTREAM_PORT" --gateway.upstream.api-key=sk-bench \
        --spring.profiles.active=dev "${state[@]}" \
        --gateway.policy.org.rate-limit.requests-per-minute=1000000000 --gateway.policy.org.rate-limit.burst=1000000000 \
        --gateway.policy.org.rate-limit.team-requests-per-minute=1000000000 \
        --gateway.policy.org.turns.max-per-user-per-day=1000000000 \
        --gateway.policy.org.spend.max-usd-per-team-per-day=1000000000 \
        --logging.level.root=WARN $GATEWAY_ARGS) >"$dir/gateway.log" 2>&1 &
    GW_PID=$!
    PIDS+=("$GW_PID")
    wait_for gateway "$GW_PID" "$dir/gateway.log" curl -sf "http://127.0.0.1:$MGMT_PORT/actuator/health/readiness"
    start_ms=$(( ($(date +%s%N) - started) / 1000000 ))
    rss_idle=$(proc_kib "$GW_PID" VmRSS)
    # The file every benchmark request references in its container's file_ids: uploaded through the
    # gateway (sanitized, its owner recorded), so the ownership check finds it the caller's.
    upload=$(curl -s -w ' %{http_code}' -H 'Authorization: Bearer sk-gw-dev-alice' -F purpose=user_data \
        -F "file=@$BENCH/proxy/data.csv;type=text/csv" "http://127.0.0.1:$GW_PORT/v1/files")
    [[ $upload == *' 200' ]] || die "the upload through the gateway failed: $upload"
    probe=$(curl -s -w ' %{http_code}' -H 'Authorization: Bearer sk-gw-dev-alice' -H 'Content-Type: application/json' \
        -d '{"model":"gpt-4.1","input":"hi","tools":[{"type":"code_interpreter","container":{"type":"auto","file_ids":["file-benchdata0001"]}}]}' \
        "http://127.0.0.1:$GW_PORT/v1/responses")
    [[ $probe == *' 200' ]] || die "a benchmark request through the gateway failed: ${probe: -400}"
    log "gateway ($backend): ready after ${start_ms} ms; warm-up at 16 connections, ${WARMUP}-${WARMUP_MAX}s"
    warm_up "$backend" 16 "$WARMUP"
    for conns in $CONNECTIONS; do
        log "gateway ($backend), $conns connections, ${DURATION}s (load $(load1))"
        measure "$backend" gateway "$GW_PORT" "$GW_PID" "$conns" "$DURATION"
    done
    rss_loaded=$(proc_kib "$GW_PID" VmRSS)
    if (( TTFE_N > 0 )); then
        # The warm-up above is non-streaming: the relay's event path is still to be compiled, and the JIT then runs
        # on the gateway's core while the first events are timed (after 15 s of streams C2 still took half the
        # gateway's CPU, and the time to first event measured the compiler). So streams until the JIT is quiet too.
        log "gateway ($backend): streams at 4 connections before the time to first event, up to ${WARMUP_MAX}s"
        BENCH_STREAM=true warm_up "$backend" 4 15
    fi
    ttfe "$backend" gateway "$GW_PORT"
    printf '%s\t%s\t%s\t%s\t%s\n' "$backend" "$rss_idle" "$rss_loaded" "$(proc_kib "$GW_PID" VmHWM)" "$start_ms" >>"$MEMORY"
    if [[ $PROFILE == 1 && $first_backend == 1 ]]; then
        log "profile: JFR during ${DURATION}s at 16 connections"
        "$JAVA_HOME/bin/jcmd" "$GW_PID" JFR.start name=bench settings=profile "filename=$dir/gateway.jfr" \
            'jdk.CPUTimeSample#enabled=true' 'jdk.CPUTimeSample#throttle=1ms' >"$dir/jfr-start.txt" 2>&1 \
            || die "JFR.start failed, see $dir/jfr-start.txt"
        measure "profile-$backend" gateway "$GW_PORT" "$GW_PID" 16 "$DURATION"
        "$JAVA_HOME/bin/jcmd" "$GW_PID" JFR.stop name=bench >/dev/null
        "$JAVA" "$BENCH/HotSpots.java" "$dir/gateway.jfr" >"$dir/hotspots.txt" 2>&1 || true
    fi
    first_backend=0
    kill "$GW_PID"
    for _ in $(seq 1 100); do kill -0 "$GW_PID" 2>/dev/null || break; sleep 0.1; done
    kill -9 "$GW_PID" 2>/dev/null || true
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
      cpu[key] = $9; up[key] = $10; load[key] = $11; jit[key] = $12
      if ($1 != "-" && !($1 in seen)) { seen[$1] = 1; backends[++nb] = $1 }
      if (!($2 in cseen)) { cseen[$2] = 1; conns[++nc] = $2 } }
    function row(label, key, dkey) {
        printf "%-18s %6s %9.0f %8.2f %8.2f %+9.2f %+9.2f %11s %8s %13s %6s %5s\n", label, c, rps[key], p50[key], p99[key],
            p50[key] - p50[dkey], p99[key] - p99[dkey], cpu[key], jit[key], up[key], err[key], load[key]
    }
    END {
        printf "%-18s %6s %9s %8s %8s %9s %9s %11s %8s %13s %6s %5s\n", "target", "conns", "req/s", "p50 ms", "p99 ms",
            "added p50", "added p99", "CPU us/req", "of it JIT", "upstr us/req", "errors", "load"
        for (i = 1; i <= nc; i++) {
            c = conns[i]; d = "-" SUBSEP c SUBSEP "direct"
            row("direct", d, d)
            row("nginx", "-" SUBSEP c SUBSEP "nginx", d)
            for (b = 1; b <= nb; b++) row("gateway " backends[b], backends[b] SUBSEP c SUBSEP "gateway", d)
        }
    }' "$RESULTS"
echo "(CPU us/req: utime+stime of the nginx proxy or the gateway JVM per completed request, of it JIT: its C1/C2"
echo " compiler threads; upstr: of the fake upstream; load: 1-minute load average when the cell ended)"
if (( TTFE_N > 0 )); then
    echo
    echo "Time to first SSE event, $TTFE_N sequential stream:true requests on one connection"
    awk -F'\t' 'NR == 1 { next }
        { label = $1 == "-" ? $2 : $2 " " $1; if ($2 == "direct") { d50 = $3; d90 = $4 }
          printf "%-18s median %6.3f ms (%+.3f)  p90 %6.3f ms (%+.3f)  p99 %6.3f ms  load %s\n", label, $3, $3 - d50, $4, $4 - d90, $5, $6 }' "$TTFE"
fi
echo
awk -F'\t' -v nginx="$NGINX_RSS" 'NR == 1 { next }
    { printf "gateway %-7s RSS %4.0f MiB idle, %4.0f MiB after the load, peak %4.0f MiB; start to ready %5.1f s\n",
        $1, $2 / 1024, $3 / 1024, $4 / 1024, $5 / 1000 }
    END { printf "nginx proxy      RSS %4.0f MiB (master + worker)\n", nginx / 1024 }' "$MEMORY"
echo "raw: $RESULTS, $TTFE, $MEMORY; logs in $OUT_DIR"
for backend in $BACKENDS; do
    if [[ -f "$OUT_DIR/gateway-$backend/hotspots.txt" ]]; then
        echo
        echo "Gateway profile ($backend, 16 connections; recording $OUT_DIR/gateway-$backend/gateway.jfr):"
        cat "$OUT_DIR/gateway-$backend/hotspots.txt"
    fi
done
} | tee "$OUT_DIR/report.txt"
