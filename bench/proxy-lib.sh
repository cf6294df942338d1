# What bench/proxy.sh and bench/ab.sh share (sourced, not run): the fast fake upstream and the plain proxy in
# front of it (both nginx), a gateway started with its whole pipeline on against that upstream, and one wrk
# load through any of them measured (requests/s, latency, the server's CPU per request and its JIT's share).
# Needs ROOT, BENCH and OUT_DIR set; the knobs below keep what the caller set. See bench/README.md.
PROXY_CPUS=${PROXY_CPUS:-0}
LOAD_CPUS=${LOAD_CPUS:-1}
UPSTREAM_PORT=${UPSTREAM_PORT:-18189}
PROXY_PORT=${PROXY_PORT:-18190}
WARMUP_MAX=${WARMUP_MAX:-240}
REDIS_DB=${REDIS_DB:-13}
PG_SCHEMA=${PG_SCHEMA:-bench_proxy}
H2_URL=${H2_URL:-}

# shellcheck source=bench/lib.sh
source "$BENCH/lib.sh"
GATEWAY_JAVA_OPTS=${GATEWAY_JAVA_OPTS:-$ONE_CPU_JAVA_OPTS}

for tool in wrk nginx curl taskset; do
    command -v "$tool" >/dev/null 2>&1 || [[ -x /usr/sbin/$tool ]] \
        || die "$tool is missing (Debian: apt-get install -y wrk nginx-light curl util-linux)"
done
NGINX=$(command -v nginx || echo /usr/sbin/nginx)
# needs_psql BACKEND...: the redis backend prepares its PostgreSQL schema with psql.
needs_psql() {
    if [[ " $* " == *" redis "* ]]; then
        command -v psql >/dev/null 2>&1 || die "psql is needed to prepare the PostgreSQL schema (apt-get install -y postgresql-client)"
    fi
    return 0
}

JAVA=$(find_java) || die "no Java 21+ found; set JAVA_HOME"
JAVA_HOME=$(dirname "$(dirname "$(readlink -f "$JAVA")")")
JAR=$(gateway_jar)

require_free_ports "$UPSTREAM_PORT" "$PROXY_PORT"

# --- the fake upstream and the plain proxy (nginx) -----------------------------------------------

# nginx_conf NAME HTTP: writes OUT_DIR/NAME/nginx.conf, one worker with its log, pid and temporary files under
# OUT_DIR/NAME, HTTP (that server's own directives and servers) in its http block.
nginx_conf() {
    cat >"$OUT_DIR/$1/nginx.conf" <<EOF
worker_processes 1;
error_log $OUT_DIR/$1/error.log warn;
pid $OUT_DIR/$1/nginx.pid;
events { worker_connections 1024; }
http {
    access_log off;
    keepalive_requests 10000000;
    client_body_temp_path $OUT_DIR/$1/body;
$2
}
EOF
}

# $request_id (32 random hex digits) in place of REQUEST_ID makes every answer's response, item,
# container and file ids new, so the gateway records fresh ownership rows and a fresh audit record for
# each, as it would upstream. Like OpenAI's, whose ids begin with the object's created_at (8 hex digits:
# resp_67ccd2be... was created at 0x67ccd2be), they begin with the time, here the request's in milliseconds
# ($msec without its dot, 13 digits), so they sort in the order they were made: with uniformly random ids every
# row the gateway keys by them would land in a random page of its index, a cost OpenAI's ids do not cause.
# The stream (10 KB, too long for one nginx parameter) is a file whose ids sub_filter replaces; error_page
# turns the static module's 405 for a POST into the file.
mkdir -p "$OUT_DIR/upstream" "$OUT_DIR/proxy"
nginx_conf upstream "$(cat <<EOF
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
EOF
)"
nginx_conf proxy "$(cat <<EOF
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
EOF
)"

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
printf 'backend\tconns\ttarget\trps\tp50_us\tp99_us\terrors\trequests\tserver_cpu_us_per_req\tupstream_cpu_us_per_req\tload1\tjit_cpu_us_per_req\talloc_kb_per_req\tyoung_gcs\tfull_gcs\tgc_ms\n' >"$RESULTS"

# gc_counters PID: a JVM's eden capacity and use (KB), its young and full collections so far and the seconds they took
# (jstat, which reads the JVM's shared counters without stopping it); nothing for a server that is not a JVM (nginx).
gc_counters() {
    taskset -c "$LOAD_CPUS" "$JAVA_HOME/bin/jstat" -gc "$1" 2>/dev/null \
        | awk 'NR == 1 { for (i = 1; i <= NF; i++) col[$i] = i }
               NR == 2 { print $col["EC"], $col["EU"], $col["YGC"], $col["YGCT"], $col["FGC"], $col["FGCT"] }' || true
}

# gc_columns BEFORE AFTER REQUESTS: KB allocated per request (every collection empties eden, as Serial's do), young and
# full collections and their milliseconds between two gc_counters; "-" for each when there are none.
gc_columns() {
    if [[ -z "$1" || -z "$2" ]]; then
        printf -- '-\t-\t-\t-'
        return
    fi
    awk -v n="$3" -v before="$1" -v after="$2" 'BEGIN {
        split(before, b, " "); split(after, a, " ")
        printf "%.1f\t%d\t%d\t%.0f", n ? (b[1] * (a[3] - b[3]) + a[2] - b[2]) / n : 0, a[3] - b[3], a[5] - b[5],
            (a[4] - b[4] + a[6] - b[6]) * 1000 }'
}

# measure BACKEND TARGET PORT SERVER_PID CONNS SECONDS: one wrk run, appended to results.tsv.
measure() {
    local backend=$1 target=$2 port=$3 server=$4 conns=$5 seconds=$6 out server0 upstream0 jit0 gc0 r
    out="$OUT_DIR/wrk-$backend-$target-c$conns.txt"
    gc0=$(gc_counters "$server")
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
    printf '%s\t%s\t%s\t%s\t%s\t%s\t%s\t%s\t%s\t%s\t%s\t%s\t%s\n' "$backend" "$conns" "$target" "$(field "$r" rps)" \
        "$(field "$r" p50_us)" "$(field "$r" p99_us)" \
        $(( $(field "$r" err_connect) + $(field "$r" err_read) + $(field "$r" err_write) + $(field "$r" err_status) + $(field "$r" err_timeout) )) \
        "$requests" \
        "$(awk -v t="$server_t" -v hz="$CLK_TCK" -v n="$requests" 'BEGIN { printf "%.0f", n ? t * 1e6 / hz / n : 0 }')" \
        "$(awk -v t="$upstream_t" -v hz="$CLK_TCK" -v n="$requests" 'BEGIN { printf "%.0f", n ? t * 1e6 / hz / n : 0 }')" \
        "$(load1)" "$(awk -v t="$jit_t" -v hz="$CLK_TCK" -v n="$requests" 'BEGIN { printf "%.0f", n ? t * 1e6 / hz / n : 0 }')" \
        "$(gc_columns "$gc0" "$(gc_counters "$server")" "$requests")" >>"$RESULTS"
}
field() { tr ' ' '\n' <<<"$1" | awk -F= -v k="$2" '$1 == k { print $2 }'; }

# warm_up NAME PORT PID CONNS MIN_SECONDS [SHARE]: 15 s loads through a gateway until the JIT compilers took under
# 1/SHARE (default a tenth) of its CPU in the last 15 s (a busy machine starves them), after at least MIN_SECONDS and at
# most WARMUP_MAX.
warm_up() {
    local warm=0
    while (( warm < WARMUP_MAX )); do
        measure "warmup-$1" gateway "$2" "$3" "$4" 15
        warm=$(( warm + 15 ))
        (( warm >= $5 )) && tail -n 1 "$RESULTS" | awk -F'\t' -v share="${6:-10}" '{ exit !($12 * share < $9) }' && break
    done
    log "gateway ($1): warm after ${warm}s ($(tail -n 1 "$RESULTS" | cut -f9,12 | tr '\t' '/') us/req CPU/JIT)"
}

# --- a gateway on its whole pipeline ------------------------------------------------------------

# start_gateway NAME BACKEND PORT MGMT_PORT JAR JAVA_OPTS ARGS: starts a gateway in OUT_DIR/gateway-NAME against the
# fake upstream, on PROXY_CPUS, uploads the file the benchmark's requests reference and sends one of them; sets GW_PID
# and GW_START_MS (start to ready). BACKEND is memory (in-memory state, the embedded H2 file) or redis (Redis DB
# REDIS_DB, PostgreSQL schema PG_SCHEMA of db test, dropped and created afresh); H2_URL, if set, replaces the
# gateway's default H2 URL.
start_gateway() {
    local name=$1 backend=$2 port=$3 mgmt=$4 jar=$5 opts=$6 args=$7 dir="$OUT_DIR/gateway-$1" state started upload probe
    mkdir -p "$dir"
    case $backend in
        # The embedded H2 as the gateway configures it by default (a file under the gateway's directory), or H2_URL.
        memory) state=(--gateway.state.backend=memory ${H2_URL:+"--spring.datasource.url=$H2_URL"}) ;;
        redis)
            psql -q -h 127.0.0.1 -U postgres -d test -c "DROP SCHEMA IF EXISTS $PG_SCHEMA CASCADE; CREATE SCHEMA $PG_SCHEMA" \
                >"$dir/psql.log" 2>&1 || die "could not prepare PostgreSQL schema $PG_SCHEMA, see $dir/psql.log"
            state=(--gateway.state.backend=redis --spring.data.redis.host=127.0.0.1 --spring.data.redis.port=6379
                   --spring.data.redis.database="$REDIS_DB"
                   --spring.datasource.url="jdbc:postgresql://127.0.0.1:5432/test?currentSchema=$PG_SCHEMA"
                   --spring.datasource.username=postgres) ;;
        floor) state=() ;;   # bench/floor/Floor.java: it takes the ports and the upstream, and ignores the rest
        *) die "unknown backend '$backend' (memory, redis or floor)" ;;
    esac
    log "gateway ($name, $backend): starting on CPUs $PROXY_CPUS with $opts"
    started=$(date +%s%N)
    # The limits are raised far beyond the load so every request takes the whole path (buckets and
    # budgets are still checked and charged) and none ends early in a 429. `exec` keeps $! the JVM.
    # shellcheck disable=SC2086 # opts and args are word-split on purpose
    (cd "$dir" && exec taskset -c "$PROXY_CPUS" "$JAVA" $opts -jar "$jar" \
        --server.port="$port" --management.server.port="$mgmt" \
        --gateway.upstream.base-url="http://127.0.0.1:$UPSTREAM_PORT" --gateway.upstream.api-key=sk-bench \
        --spring.profiles.active=dev "${state[@]}" \
        --gateway.policy.org.rate-limit.requests-per-minute=1000000000 --gateway.policy.org.rate-limit.burst=1000000000 \
        --gateway.policy.org.rate-limit.team-requests-per-minute=1000000000 \
        --gateway.policy.org.turns.max-per-user-per-day=1000000000 \
        --gateway.policy.org.spend.max-usd-per-team-per-day=1000000000 \
        --logging.level.root=WARN $args) >"$dir/gateway.log" 2>&1 &
    GW_PID=$!
    PIDS+=("$GW_PID")
    wait_for "gateway $name" "$GW_PID" "$dir/gateway.log" curl -sf "http://127.0.0.1:$mgmt/actuator/health/readiness"
    GW_START_MS=$(( ($(date +%s%N) - started) / 1000000 ))
    # The file every benchmark request references in its container's file_ids: uploaded through the
    # gateway (sanitized, its owner recorded), so the ownership check finds it the caller's.
    upload=$(curl -s -w ' %{http_code}' -H 'Authorization: Bearer sk-gw-dev-alice' -F purpose=user_data \
        -F "file=@$BENCH/proxy/data.csv;type=text/csv" "http://127.0.0.1:$port/v1/files")
    [[ $upload == *' 200' ]] || die "the upload through gateway $name failed: $upload"
    probe=$(curl -s -w ' %{http_code}' -H 'Authorization: Bearer sk-gw-dev-alice' -H 'Content-Type: application/json' \
        -d '{"model":"gpt-4.1","input":"hi","tools":[{"type":"code_interpreter","container":{"type":"auto","file_ids":["file-benchdata0001"]}}]}' \
        "http://127.0.0.1:$port/v1/responses")
    [[ $probe == *' 200' ]] || die "a benchmark request through gateway $name failed: ${probe: -400}"
    log "gateway ($name, $backend): ready after ${GW_START_MS} ms"
}

# stop_gateway PID: SIGTERM, then SIGKILL after 10 s.
stop_gateway() {
    kill "$1"
    for _ in $(seq 1 100); do kill -0 "$1" 2>/dev/null || return 0; sleep 0.1; done
    kill -9 "$1" 2>/dev/null || true
}
