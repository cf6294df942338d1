#!/bin/sh
# The training run of the JDK's ahead-of-time cache (JEP 483/514/515), as the image's build makes it:
#
#   sh aot-training.sh [cache]        # in the folder of application.jar and lib/; cache: app.aot
#
# Starts the gateway as the image runs it (JDK_JAVA_OPTIONS from the environment) with -XX:AOTCacheOutput,
# serves it a few requests of each common kind through the bundled offline simulator (a file list, a CSV upload
# that is sanitized, code-interpreter responses plain and streamed), and stops it: the JVM writes the cache as it
# exits. So the cache holds what serving needs as well as what starting does (the web server, the management
# context, the request path), and a start from the image maps those classes and their profiles instead of
# loading them for its first request. Nothing of the run stays behind: its database is in memory, its audit
# spool, uploads and web server's files are in a scratch folder, and its gateway key and pseudonymization key are
# made up for it and die with it.
# Ports: SERVER_PORT (8080) and MANAGEMENT_SERVER_PORT (8081), read by the gateway too. Needs curl.
set -eu

cache=${1:-app.aot}
api=http://127.0.0.1:${SERVER_PORT:-8080}
management=http://127.0.0.1:${MANAGEMENT_SERVER_PORT:-8081}
scratch=$(mktemp -d)
random() { od -An -N16 -tx1 /dev/urandom | tr -d ' \n'; }
key="sk-aot-training-$(random)"
hash=$(printf '%s' "$key" | sha256sum | cut -d' ' -f1)

# No OpenAI key: the gateway forwards to its own offline simulator. Its memory is a container's (the chart's 1.5 GiB)
# whatever the building machine has: on one of more than ~80 GB, the image's heap percentage would pass 32 GB, the JVM
# would go without compressed object pointers, and no container (where they are on) could use the cache. Given in
# JDK_JAVA_OPTIONS, last, as the JVM that assembles the cache when this one exits reads that variable again.
JDK_JAVA_OPTIONS="${JDK_JAVA_OPTIONS:-} -XX:MaxRAM=1536m" \
env -u OPENAI_API_KEY java -XX:AOTCacheOutput="$cache" -Djava.io.tmpdir="$scratch" -jar application.jar \
    '--spring.datasource.url=jdbc:h2:mem:training;MODE=PostgreSQL;DATABASE_TO_LOWER=TRUE;DEFAULT_NULL_ORDERING=HIGH' \
    --gateway.audit.spool-dir="$scratch/spool" \
    --gateway.auth.keys[0].sha256="$hash" --gateway.auth.keys[0].user=training --gateway.auth.keys[0].team=training \
    --gateway.policy.org.sanitization.pseudonymization-key="$(random)" \
    >"$scratch/gateway.log" 2>&1 &
gateway=$!
trap 'kill "$gateway" 2>/dev/null; rm -rf "$scratch"; exit 130' INT TERM HUP

fail() {
    echo "AOT training: $1" >&2
    grep -v '^\[' "$scratch/gateway.log" | tail -n 40 >&2
    kill "$gateway" 2>/dev/null || true
    rm -rf "$scratch"
    exit 1
}

tries=0
until curl -fsS -o /dev/null "$management/actuator/health/readiness" 2>/dev/null; do
    kill -0 "$gateway" 2>/dev/null || fail "the gateway stopped before it was ready"
    tries=$((tries + 1))
    [ "$tries" -le 1200 ] || fail "the gateway was not ready within 120 s"
    sleep 0.1
done

call() {
    curl -fsS -o /dev/null -H "Authorization: Bearer $key" "$@" || fail "the request $* failed"
}

printf 'month,revenue,units\n1,720,55\n2,810,62\n3,905,70\n' >"$scratch/revenue.csv"
code='{"type":"code_interpreter","container":{"type":"auto"}}'
for _ in 1 2 3 4 5 6 7 8 9 10; do
    call "$api/v1/files"
    call "$api/v1/files" -F purpose=assistants -F "file=@$scratch/revenue.csv;type=text/csv"
    call "$api/v1/responses" -H 'Content-Type: application/json' \
        -d '{"model":"gpt-4.1","input":"Plot the revenue by month","tools":['"$code"']}'
    call "$api/v1/responses" -H 'Content-Type: application/json' \
        -d '{"model":"gpt-4.1","input":"Plot the revenue by month","stream":true,"tools":['"$code"']}'
done

kill -TERM "$gateway"
wait "$gateway" || true
rm -rf "$scratch"
[ -s "$cache" ] || { echo "AOT training: the JVM wrote no cache to $cache" >&2; exit 1; }
