#!/usr/bin/env bash
# Upload sanitization benchmark: the gateway's streaming sanitizer vs the pandas script a user would
# otherwise write. See README.md next to this script.
#
#   bench/sanitize/run.sh
#
# Generates the 500,000- and 5,000,000-row orders files (once, in $DATA_DIR), builds the jar if
# missing, starts the gateway (dev profile, -Xmx256m, GC log) with a stand-in upstream, uploads each
# file $REPS times, runs the pandas reference $REPS times on the same files, checks once that the
# gateway's sanitized file equals the pandas output, and prints a table. Stops what it started on exit.
#
# Settings (environment):
#   ROWS="500000 5000000"   files to measure (row counts); the first one is also used for the warm-up
#                           upload and the correctness check
#   XLSX_ROWS=500000        also measure a workbook of this many rows (written by openpyxl from the CSV)
#                           against openpyxl_reference.py; empty: no workbook
#   REPS=2                  measured runs per file and tool
#   DATA_DIR=/tmp/sanitize-bench-data   where the generated files and results go (needs ~1.5 GB)
#   HEAP=256m               gateway -Xmx
#   GW_PORT=18080 MGMT_PORT=18081 SINK_PORT=18090   ports (all on 127.0.0.1)
#   UPSTREAM=sink           sink: a separate small Python process stands in for OpenAI (default);
#                           simulator: the gateway's embedded offline simulator (WireMock in the
#                           gateway's own JVM; it buffers the whole upload in the heap, see README)
#   JAVA_HOME=/usr/lib/jvm/temurin-25-jdk-amd64   PANDAS_PYTHON=/usr/bin/python3   PYTHON=python3
#   JFR=1                   also record a 30 s JFR profile during the first upload of the last file
#                           and print the hot spots in com.sandboxgateway.*
set -euo pipefail

HERE=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
ROOT=$(cd "$HERE/../.." && pwd)
export JAVA_HOME=${JAVA_HOME:-/usr/lib/jvm/temurin-25-jdk-amd64}
ROWS=${ROWS:-"500000 5000000"}
REPS=${REPS:-2}
DATA_DIR=${DATA_DIR:-/tmp/sanitize-bench-data}
HEAP=${HEAP:-256m}
GW_PORT=${GW_PORT:-18080}
MGMT_PORT=${MGMT_PORT:-18081}
SINK_PORT=${SINK_PORT:-18090}
UPSTREAM=${UPSTREAM:-sink}
PANDAS_PYTHON=${PANDAS_PYTHON:-/usr/bin/python3}
PYTHON=${PYTHON:-python3}
JFR=${JFR:-0}
XLSX_ROWS=${XLSX_ROWS-500000}
JAR="$ROOT/target/sandbox-gateway-0.1.0-SNAPSHOT.jar"
KEY=sk-gw-dev-alice

mkdir -p "$DATA_DIR"
WORK=$(mktemp -d "${TMPDIR:-/tmp}/sanitize-bench.XXXXXX")
STAMP=$(date -u +%Y%m%dT%H%M%SZ)
RESULTS="$DATA_DIR/results-$STAMP.tsv"
LOG="$DATA_DIR/run-$STAMP.log"
GC_LOG="$WORK/gw-gc.log"
SINK_LOG="$WORK/sink.log"
GW_PID=""
SINK_PID=""

cleanup() {
    local status=$?
    if [[ -n "$GW_PID" ]] && kill -0 "$GW_PID" 2>/dev/null; then
        kill "$GW_PID" 2>/dev/null || true
        for _ in $(seq 30); do kill -0 "$GW_PID" 2>/dev/null || break; sleep 1; done
        kill -9 "$GW_PID" 2>/dev/null || true
    fi
    if [[ -n "$SINK_PID" ]]; then kill "$SINK_PID" 2>/dev/null || true; fi
    if [[ -s "$GC_LOG" ]]; then cp "$GC_LOG" "$DATA_DIR/gc-$STAMP.log"; fi
    if [[ -s "$WORK/gateway.out" ]]; then cp "$WORK/gateway.out" "$DATA_DIR/gateway-$STAMP.log"; fi
    rm -rf "$WORK"
    exit $status
}
trap cleanup EXIT INT TERM

exec > >(tee -a "$LOG") 2>&1
say() { printf '%s\n' "$*"; }
load() { cut -d' ' -f1-3 /proc/loadavg; }

port_free() { ! (exec 3<>"/dev/tcp/127.0.0.1/$1") 2>/dev/null; }
for port in "$GW_PORT" "$MGMT_PORT" $([[ $UPSTREAM == sink ]] && echo "$SINK_PORT"); do
    if ! port_free "$port"; then
        say "Port $port is already in use (another gateway?). Pick free ones, e.g.: GW_PORT=18180 MGMT_PORT=18181 SINK_PORT=18190 $0"
        exit 2
    fi
done
[[ -x "$JAVA_HOME/bin/java" ]] || { say "No JDK at JAVA_HOME=$JAVA_HOME"; exit 2; }
"$PANDAS_PYTHON" -c 'import pandas' 2>/dev/null || {
    say "$PANDAS_PYTHON has no pandas: apt-get update && apt-get install -y python3-pandas"; exit 2; }

say "== Upload sanitization benchmark, $(date -u '+%Y-%m-%d %H:%M:%SZ'), $(nproc) cores, load average $(load)"
say "   results: $RESULTS   log: $LOG (gateway GC log and output: gc-$STAMP.log, gateway-$STAMP.log)"

# --- input files --------------------------------------------------------------------------------
FILES=()
for rows in $ROWS; do
    file="$DATA_DIR/orders_$rows.csv"
    if [[ ! -s "$file" ]]; then
        say "-- generating $file"
        "$PYTHON" "$HERE/generate_orders.py" "$rows" "$file.tmp" && mv "$file.tmp" "$file"
    fi
    FILES+=("$file")
done
UPLOADS=("${FILES[@]}")
if [[ -n $XLSX_ROWS ]]; then
    "$PANDAS_PYTHON" -c 'import openpyxl' 2>/dev/null || {
        say "$PANDAS_PYTHON has no openpyxl: apt-get update && apt-get install -y python3-openpyxl"; exit 2; }
    csv="$DATA_DIR/orders_$XLSX_ROWS.csv"
    [[ -s "$csv" ]] || "$PYTHON" "$HERE/generate_orders.py" "$XLSX_ROWS" "$csv"
    XLSX="$DATA_DIR/orders_$XLSX_ROWS.xlsx"
    if [[ ! -s "$XLSX" ]]; then
        say "-- generating $XLSX"
        "$PANDAS_PYTHON" "$HERE/generate_orders_xlsx.py" "$csv" "$XLSX.tmp" && mv "$XLSX.tmp" "$XLSX"
    fi
    UPLOADS+=("$XLSX")
fi

# --- gateway --------------------------------------------------------------------------------------
if [[ ! -s "$JAR" ]]; then
    say "-- building $JAR"
    (cd "$ROOT" && ./mvnw -q -DskipTests package)
fi

UPSTREAM_ARGS=()
if [[ $UPSTREAM == sink ]]; then
    "$PYTHON" "$HERE/upstream_sink.py" "$SINK_PORT" --save "$WORK/upstream-body.bin" --log "$SINK_LOG" \
        > "$WORK/sink.out" 2>&1 &
    SINK_PID=$!
    UPSTREAM_ARGS=(--gateway.upstream.base-url="http://127.0.0.1:$SINK_PORT" --gateway.upstream.api-key=sk-bench)
fi
mkdir -p "$WORK/audit-spool" "$WORK/upload-spool"
say "-- starting the gateway (-Xmx$HEAP, upstream: $UPSTREAM)"
"$JAVA_HOME/bin/java" -Xmx"$HEAP" -Xlog:gc:file="$GC_LOG" -jar "$JAR" \
    --spring.profiles.active=dev --server.port="$GW_PORT" --management.server.port="$MGMT_PORT" \
    --gateway.policy.org.files.max-upload-size=2GB --spring.datasource.url=jdbc:h2:mem:bench \
    --gateway.audit.spool-dir="$WORK/audit-spool" --gateway.proxy.upload-spool-dir="$WORK/upload-spool" \
    "${UPSTREAM_ARGS[@]}" > "$WORK/gateway.out" 2>&1 &
GW_PID=$!
for i in $(seq 180); do
    if curl -sf "http://127.0.0.1:$MGMT_PORT/actuator/health" > /dev/null 2>&1; then break; fi
    if ! kill -0 "$GW_PID" 2>/dev/null || [[ $i == 180 ]]; then
        say "The gateway did not start; its output:"; tail -40 "$WORK/gateway.out"; exit 1
    fi
    sleep 1
done
say "   up after ${i}s (pid $GW_PID)"

cpu_ticks() { awk '{print $14 + $15}' "/proc/$1/stat"; }
TICK=$(getconf CLK_TCK)

# Uploads $1 once; appends a result line to $RESULTS when the label $2 is "run N" (failures too).
upload() {
    local file=$1 label=$2 size before cpu0 cpu1 start out code seconds
    size=$(stat -c %s "$file")
    before=$(wc -l < "$GC_LOG")
    echo 5 > "/proc/$GW_PID/clear_refs" 2>/dev/null || true   # resets VmHWM to the current RSS
    : > "$SINK_LOG" 2>/dev/null || true
    cpu0=$(cpu_ticks "$GW_PID")
    start=$(date +%s.%N)
    out=$(curl -s -o "$WORK/response.json" -D "$WORK/headers.txt" -w '%{http_code} %{time_total}' \
        -H "Authorization: Bearer $KEY" -F purpose=user_data -F "file=@$file" \
        "http://127.0.0.1:$GW_PORT/v1/files") || true
    cpu1=$(cpu_ticks "$GW_PID")
    code=${out%% *}
    seconds=${out##* }
    local sanitized
    sanitized=$(grep -i '^X-Gateway-Sanitized:' "$WORK/headers.txt" | tr -d '\r' || true)
    if [[ $code != 200 ]]; then
        say "   FAILED: HTTP $code after ${seconds}s; ${sanitized:-no X-Gateway-Sanitized header}"
        say "   response: $(head -c 600 "$WORK/response.json" | tr '\n' ' ')"
        say "   gateway log tail:"; tail -5 "$WORK/gateway.out" | cut -c1-300
        if [[ $label == run* ]]; then
            printf 'gateway\t%s\t%s\tFAILED(HTTP %s)\t\t\t\t\t%s\n' "$(basename "$file")" "$size" "$code" \
                "$(load | cut -d' ' -f1)" >> "$RESULTS"
        fi
        return 1
    fi
    # Peak heap during this upload, from the GC log lines it produced: "Pause ... 93M->32M(104M)".
    local heap
    heap=$(tail -n +"$((before + 1))" "$GC_LOG" | "$PYTHON" -c '
import re, sys
mib = {"K": 1 / 1024, "M": 1, "G": 1024}
b = a = c = 0
for line in sys.stdin:
    for x, y, z in re.findall(r"(\d+[KMG])->(\d+[KMG])\((\d+[KMG])\)", line):
        f = lambda s: int(s[:-1]) * mib[s[-1]]
        b, c = max(b, f(x)), max(c, f(z))
        if "Pause Young" in line or "Pause Full" in line:  # Remark/Cleanup do not evacuate
            a = max(a, f(y))
print("%d %d %d" % (b, a, c))')
    local hwm split=""
    hwm=$(awk '/VmHWM/ {print int($2 / 1024)}' "/proc/$GW_PID/status")
    if [[ -s "$SINK_LOG" ]]; then
        split=$("$PYTHON" -c '
import json, sys
r = json.loads(open(sys.argv[1]).readline())
start = float(sys.argv[2])
print("%.2f %.2f" % (r["headers_at"] - start, r["last_byte_at"] - r["headers_at"]))' "$SINK_LOG" "$start")
    fi
    local cpu mbs
    cpu=$(awk -v a="$cpu0" -v b="$cpu1" -v t="$TICK" 'BEGIN {printf "%.2f", (b - a) / t}')
    mbs=$(awk -v s="$size" -v t="$seconds" 'BEGIN {printf "%.1f", s / 1e6 / t}')
    read -r hb ha hc <<< "$heap"
    say "   $label $(basename "$file"): HTTP 200 in ${seconds}s = $mbs MB/s, gateway CPU ${cpu}s," \
        "heap before/after GC max ${hb}/${ha} MiB (committed ${hc}), VmHWM ${hwm} MiB," \
        "${split:+sanitize+spool/forward ${split/ /s/}s,} load $(load)"
    say "     $sanitized"
    if [[ $label == run* ]]; then
        printf 'gateway\t%s\t%s\t%s\t%s\t%s\t%s\t%s\t%s\n' "$(basename "$file")" "$size" "$seconds" "$cpu" \
            "$hb" "$ha" "$hwm" "$(load | cut -d' ' -f1)" >> "$RESULTS"
    fi
}

# Runs the reference on $1 once, writing $2 (pandas for CSV, openpyxl for a workbook); appends a result line.
pandas_run() {
    local file=$1 out=$2 json rss cpu tool=pandas
    [[ $file == *.xlsx ]] && tool=openpyxl
    /usr/bin/time -v -o "$WORK/time.txt" "$PANDAS_PYTHON" "$HERE/${tool}_reference.py" "$file" "$out" > "$WORK/pandas.json"
    json=$(cat "$WORK/pandas.json")
    rss=$(awk -F': ' '/Maximum resident set size/ {print int($2 / 1024)}' "$WORK/time.txt")
    cpu=$(awk -F': ' '/User time/ {u = $2} /System time/ {s = $2} END {printf "%.2f", u + s}' "$WORK/time.txt")
    local seconds total mbs
    seconds=$("$PYTHON" -c 'import json, sys; print(json.loads(sys.argv[1])["seconds"])' "$json")
    total=$(awk -F': ' '/Elapsed \(wall clock\)/ {n = split($2, p, ":"); s = 0; for (i = 1; i <= n; i++) s = s * 60 + p[i]; print s}' "$WORK/time.txt")
    mbs=$("$PYTHON" -c 'import json, sys; print(json.loads(sys.argv[1])["mb_per_s"])' "$json")
    say "   $tool $(basename "$file"): ${seconds}s = $mbs MB/s (process incl. start-up and import ${total}s," \
        "CPU ${cpu}s), peak RSS ${rss} MiB, load $(load)"
    printf '%s\t%s\t%s\t%s\t%s\t\t\t%s\t%s\n' "$tool" "$(basename "$file")" "$(stat -c %s "$file")" "$seconds" "$cpu" \
        "$rss" "$(load | cut -d' ' -f1)" >> "$RESULTS"
}

printf 'tool\tfile\tbytes\tseconds\tcpu_seconds\theap_before_gc_max_mib\theap_after_gc_max_mib\tpeak_rss_mib\tload1\n' > "$RESULTS"

say "-- warm-up upload (not counted)"
upload "${FILES[0]}" warmup || true

if [[ $JFR == 1 ]]; then
    "$JAVA_HOME/bin/jcmd" "$GW_PID" JFR.start duration=30s filename="$WORK/profile.jfr" > /dev/null
    say "-- JFR recording 30 s from the next upload of ${FILES[-1]}"
    upload "${FILES[-1]}" profile || true
    while [[ ! -s "$WORK/profile.jfr" ]]; do sleep 2; done; sleep 2
    "$JAVA_HOME/bin/jfr" print --stack-depth 64 --events jdk.ExecutionSample "$WORK/profile.jfr" > "$WORK/samples.txt"
    "$PYTHON" "$HERE/jfr_hotspots.py" "$WORK/samples.txt"
fi

for file in "${UPLOADS[@]}"; do
    say "-- gateway: $(basename "$file") ($(stat -c %s "$file") bytes), $REPS runs"
    for rep in $(seq "$REPS"); do upload "$file" "run $rep" || true; done
done

if [[ $UPSTREAM == sink ]]; then
    say "-- capturing the gateway's sanitized ${FILES[0]##*/} at the sink"
    curl -s -X POST "http://127.0.0.1:$SINK_PORT/_bench/save?on=1" > /dev/null
    if upload "${FILES[0]}" check; then
        "$PYTHON" "$HERE/extract_part.py" "$WORK/upstream-body.bin" "$WORK/gateway-output.csv"
    fi
    curl -s -X POST "http://127.0.0.1:$SINK_PORT/_bench/save?on=0" > /dev/null
    rm -f "$WORK/upstream-body.bin"
else
    say "-- correctness check skipped: it needs UPSTREAM=sink to capture what the gateway sends"
fi

# The gateway is idle from here on; stop it so the pandas runs have the machine to themselves.
kill "$GW_PID"; wait "$GW_PID" 2>/dev/null || true; GW_PID=""

for file in "${UPLOADS[@]}"; do
    say "-- reference: $(basename "$file"), $REPS runs"
    for rep in $(seq "$REPS"); do pandas_run "$file" "$WORK/pandas-$(basename "$file")"; done
    if [[ -s "$WORK/gateway-output.csv" && $file == "${FILES[0]}" ]]; then
        say "-- correctness: the gateway's sanitized $(basename "$file") vs the pandas output and hmac"
        "$PYTHON" "$HERE/check_output.py" "$file" "$WORK/gateway-output.csv" "$WORK/pandas-$(basename "$file")" \
            > "$WORK/check.txt" || true
        sed 's/^/   /' "$WORK/check.txt"
    fi
    rm -f "$WORK/pandas-$(basename "$file")"
done

say ""
say "== Results (best of $REPS runs; every run is in $RESULTS)"
"$PYTHON" "$HERE/summarize.py" "$RESULTS"
if [[ -s "$WORK/check.txt" ]]; then
    say "   $(grep CORRECTNESS "$WORK/check.txt") (${FILES[0]##*/}: gateway output vs pandas output," \
        "$(grep -c ' OK$' "$WORK/check.txt") sample rows re-checked with hmac; byte-identical: $(grep -o 'identical files: .*' "$WORK/check.txt" | cut -d' ' -f3))"
else
    say "   correctness: not checked"
fi
say "   load average now: $(load)"
