#!/usr/bin/env bash
# Audit append throughput and latency on the local PostgreSQL (127.0.0.1:5432, db test, user postgres),
# with 1 and then 2 replicas: each replica is its own JVM (com.sandboxgateway.audit.AuditAppendBenchmark)
# with its own connection pool and WRITERS threads appending back to back, as the gateway's request
# threads do. See bench/audit/README.md.
#
# Knobs: WRITERS (per replica, default 16), DURATION (seconds per run, default 20), SCHEMA (default
# audit_append_bench; dropped and re-created before each run), JAVA_HOME.
set -euo pipefail
cd "$(dirname "$0")/../.."
WRITERS=${WRITERS:-16}
DURATION=${DURATION:-20}
SCHEMA=${SCHEMA:-audit_append_bench}
JAVA=${JAVA_HOME:+$JAVA_HOME/bin/}java

./mvnw -o -q test-compile dependency:build-classpath -Dmdep.outputFile=target/bench-cp.txt >/dev/null
CP="target/classes:target/test-classes:$(cat target/bench-cp.txt)"
MAIN=com.sandboxgateway.audit.AuditAppendBenchmark

run() { # replicas
    "$JAVA" -cp "$CP" "$MAIN" prepare "$SCHEMA" >/dev/null
    echo "load average before $1 replica(s): $(cut -d' ' -f1-3 /proc/loadavg) (2 cores: well above 2, the figures measure the other load)"
    local start=$(( $(date +%s%3N) + 8000 )) pids=() out
    out=$(mktemp)
    for r in $(seq 1 "$1"); do
        "$JAVA" -Xmx256m -cp "$CP" "$MAIN" "$SCHEMA" "$WRITERS" "$DURATION" "$start" "replica-$r" | grep '^replica-' >>"$out" &
        pids+=($!)
    done
    for pid in "${pids[@]}"; do wait "$pid"; done
    sed "s/^/  /" "$out"
    awk -F'\t' -v n="$1" -v w="$WRITERS" '{total+=$3; if ($5>p99) p99=$5; if ($4>p50) p50=$4; cpu+=$7*$2; count+=$2}
        END {printf "%d replica(s) x %d writers: %.0f appends/s, p50 %.2f ms, p99 %.2f ms (worst replica), %.0f us JVM CPU per append\n",
             n, w, total, p50, p99, cpu/count}' "$out"
    rm -f "$out"
}

echo "label	appends	appends/s	p50_ms	p99_ms	max_ms	jvm_cpu_us/append"
run 1
run 2
