#!/usr/bin/env bash
# Soak: a long run at about 70 % of one replica's capacity, mixed traffic; does anything grow?
#
#   bash bench/soak.sh                 # 30 minutes
#   DURATION=600 bash bench/soak.sh    # 10 minutes
#
# Starts the offline simulator and a gateway (audit in an H2 file under OUT_DIR/data, the embedded
# default, so records go to disk and not to the heap), measures capacity (wrk, closed loop, 16
# connections, plain POST /v1/responses, after a warm-up) unless CAPACITY is given, then runs hey at
# SHARE % of it for DURATION seconds, rate-limited:
#   70 % plain POST /v1/responses, 20 % streamed (stream:true, the simulator's 18 events over ~300 ms),
#   10 % POST /v1/files of a 2,000-row CSV (sanitized on the way).
# At the start of the load, every SAMPLE seconds and at the end it records the gateway's heap after a
# full GC (jcmd GC.run, GC.heap_info), RSS, threads, open file descriptors (/proc/<pid>/fd) and the
# audit spool's size: OUT_DIR/samples.tsv, and a start/end table in OUT_DIR/report.txt with each hey's
# summary (status codes, latency). Needs wrk and hey (apt-get install -y wrk hey).
# Knobs: DURATION=1800 SHARE=70 CAPACITY= SAMPLE=300 WARMUP=60, and bench/run.sh's SIM_PORT, GW_PORT,
# MGMT_PORT, GATEWAY_JAVA_OPTS, SIM_JAVA_OPTS, GATEWAY_ARGS, OUT_DIR, JAR; DB_URL overrides the H2 file.
set -euo pipefail
DURATION=${DURATION:-1800}
SHARE=${SHARE:-70}
CAPACITY=${CAPACITY:-}
SAMPLE=${SAMPLE:-300}
WARMUP=${WARMUP:-60}
source "$(dirname "${BASH_SOURCE[0]}")/common.sh"
command -v hey >/dev/null 2>&1 || die "hey is not installed. On Debian/Ubuntu: sudo apt-get install -y hey"
[[ "$DB_URL" == "jdbc:h2:mem:bench" ]] && DB_URL="jdbc:h2:file:$OUT_DIR/data/soak;MODE=PostgreSQL;DATABASE_TO_LOWER=TRUE;DEFAULT_NULL_ORDERING=HIGH"

start_servers --logging.level.root=WARN

KEY='Authorization: Bearer sk-gw-dev-alice'
PLAIN='{"model":"gpt-4.1","input":"hi","tools":[{"type":"code_interpreter","container":{"type":"auto"}}]}'
STREAMED='{"model":"gpt-4.1","input":"hi","stream":true,"tools":[{"type":"code_interpreter","container":{"type":"auto"}}]}'
UPLOAD="$OUT_DIR/upload.multipart"
{
    printf -- '--soak\r\nContent-Disposition: form-data; name="purpose"\r\n\r\nuser_data\r\n'
    printf -- '--soak\r\nContent-Disposition: form-data; name="file"; filename="orders.csv"\r\nContent-Type: text/csv\r\n\r\n'
    printf 'order_id,customer_id,amount,order_date\r\n'
    for i in $(seq 1 2000); do printf '%d,c-%d,%d.50,2026-11-%02d\r\n' "$i" $(( i % 97 )) $(( i % 500 )) $(( i % 28 + 1 )); done
    printf -- '\r\n--soak--\r\n'
} >"$UPLOAD"

log "warm-up: ${WARMUP}s, 16 connections"
wrk -t1 -c16 -d"${WARMUP}s" -s "$BENCH/responses.lua" "$URL_GATEWAY" >"$OUT_DIR/wrk-warmup.txt" 2>&1
if [[ -z "$CAPACITY" ]]; then
    wrk -t1 -c16 -d20s -s "$BENCH/responses.lua" "$URL_GATEWAY" >"$OUT_DIR/wrk-capacity.txt" 2>&1
    CAPACITY=$(grep '^BENCH_RESULT' "$OUT_DIR/wrk-capacity.txt" | tr ' ' '\n' | awk -F= '$1 == "rps" { printf "%d", $2 }')
    log "capacity: $CAPACITY req/s (plain, 16 connections)"
fi
RATE=$(( CAPACITY * SHARE / 100 ))
# hey's -q is per worker: workers x q = the rate of each kind.
hey_load() { # NAME SHARE_OF_RATE WORKERS hey-args...
    local name=$1 part=$2 workers=$3
    shift 3
    local q
    q=$(awk -v r="$RATE" -v p="$part" -v w="$workers" 'BEGIN { printf "%.2f", r * p / 100 / w }')
    hey -z "${DURATION}s" -c "$workers" -q "$q" -t 60 -H "$KEY" "$@" >"$OUT_DIR/hey-$name.txt" 2>&1 &
    echo $!
}

spool_bytes() { du -sb "$OUT_DIR/data/audit-spool" 2>/dev/null | awk '{ print $1 }' || echo 0; }
sample() { # LABEL
    require_alive
    printf '%s\t%s\t%s\t%s\t%s\t%s\t%s\n' "$1" "$(date +%s)" "$(heap_after_gc_kib "$GW_PID")" "$(proc_kib "$GW_PID" VmRSS)" \
        "$(proc_threads "$GW_PID")" "$(proc_fds "$GW_PID")" "$(spool_bytes)" >>"$OUT_DIR/samples.tsv"
}
printf 'label\tepoch\theap_after_gc_kib\trss_kib\tthreads\tfds\tspool_bytes\n' >"$OUT_DIR/samples.tsv"

log "soak: ${DURATION}s at $RATE req/s ($SHARE % of $CAPACITY): 70 % plain, 20 % streamed, 10 % uploads"
PIDS="$(hey_load plain 70 16 -m POST -T application/json -d "$PLAIN" "$URL_GATEWAY/v1/responses")"
PIDS="$PIDS $(hey_load streamed 20 16 -m POST -T application/json -d "$STREAMED" "$URL_GATEWAY/v1/responses")"
PIDS="$PIDS $(hey_load uploads 10 8 -m POST -T 'multipart/form-data; boundary=soak' -D "$UPLOAD" "$URL_GATEWAY/v1/files")"
sleep 10
sample start
START=$(date +%s)
END=$(( START + DURATION - 20 ))
while (( $(date +%s) + SAMPLE < END )); do
    sleep "$SAMPLE"
    sample "t+$(( $(date +%s) - START ))s"
done
sleep $(( END > $(date +%s) ? END - $(date +%s) : 0 ))
sample end
# shellcheck disable=SC2086
wait $PIDS || true
sleep 5
sample after

{
    echo "Soak: $DURATION s at $RATE req/s ($SHARE % of $CAPACITY req/s measured plain at 16 connections), gateway $GATEWAY_JAVA_OPTS"
    column -t -s $'\t' "$OUT_DIR/samples.tsv"
    for name in plain streamed uploads; do
        echo "--- $name"
        grep -E 'Requests/sec|Total:|Slowest|Average|99%|\[[0-9]+\]|Error' "$OUT_DIR/hey-$name.txt" | sed 's/^/  /'
    done
} | tee "$OUT_DIR/report.txt"
