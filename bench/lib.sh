# Helpers every bench script shares (sourced, not run): logging, the Java 21+ and gateway jar lookup, free
# ports, waiting for a server, reading a process from /proc. Needs ROOT (the repository) set first.

# The image's recommendation for one CPU (Dockerfile), with the heap fixed at 160 MB (bench/README.md, "Memory"): what
# bench/proxy.sh, bench/ab.sh and bench/floor.sh start a gateway (or the floor) with, unless GATEWAY_JAVA_OPTS says.
ONE_CPU_JAVA_OPTS="-XX:+UseSerialGC -Xmx160m -Xss512k -XX:MaxMetaspaceSize=160m"

log() { printf '[%s %s] %s\n' "$(basename "$0" .sh)" "$(date +%H:%M:%S)" "$*" >&2; }
die() { log "ERROR: $*"; exit 1; }

# nginx_text FILE [ID]: FILE as a text for nginx's `return 200 '...'`: nginx unescapes \\ and \' inside quotes, so
# double them; REQUEST_ID becomes ID, by default the time of the request ($id_time, bench/proxy-lib.sh) and nginx's
# $request_id, so every answer's ids are new.
nginx_text() {
    local id=${2:-'${id_time}$request_id'}
    sed -e 's/\\/\\\\/g' -e "s/'/\\\\'/g" -e "s/REQUEST_ID/$id/g" "$1"
}

java_major() {
    "$1" -XshowSettings:properties -version 2>&1 \
        | awk -F'= ' '/java.specification.version/ { split($2, v, "."); print (v[1] == 1 ? v[2] : v[1]); exit }'
}

# The project targets Java 21, but a machine's default `java` may be older (Debian 12 ships 17), so
# look past it: JAVA_HOME first, then PATH, then whatever is installed under /usr/lib/jvm.
find_java() {
    local candidate
    for candidate in ${JAVA_HOME:+"$JAVA_HOME/bin/java"} "$(command -v java || true)" /usr/lib/jvm/*/bin/java; do
        [[ -n "$candidate" && -x "$candidate" ]] || continue
        if [[ "$(java_major "$candidate")" -ge 21 ]] 2>/dev/null; then
            echo "$candidate"
            return 0
        fi
    done
    return 1
}

find_jar() { ls "$ROOT"/target/sandbox-gateway-*.jar 2>/dev/null | grep -v '\.original$' | head -n 1; }

# gateway_jar: $JAR if set, else target/'s fat jar, built when missing; its absolute path.
gateway_jar() {
    local jar=${JAR:-$(find_jar || true)}
    if [[ -z "$jar" ]]; then
        log "building the gateway jar (./mvnw -q -DskipTests package)"
        (cd "$ROOT" && ./mvnw -q -DskipTests package) >&2 || die "build failed"
        jar=$(find_jar) || die "build produced no target/sandbox-gateway-*.jar"
    fi
    readlink -f "$jar"
}

# floor_jar GATEWAY_JAR DIR: bench/floor/Floor.java compiled against the libraries GATEWAY_JAR holds (the same
# Tomcat, HttpClient and Jackson), as DIR/floor.jar, whose manifest names each library by its absolute path; its path.
floor_jar() {
    local jar=$1 dir=$2 bin lib
    bin=$(dirname "$(find_java)")
    mkdir -p "$dir/classes"
    (cd "$dir" && "$bin/jar" xf "$jar" BOOT-INF/lib) || die "could not unpack the libraries of $jar"
    "$bin/javac" -nowarn -d "$dir/classes" -cp "$dir/BOOT-INF/lib/*" "$ROOT/bench/floor/Floor.java" >&2 \
        || die "bench/floor/Floor.java did not compile"
    printf 'Main-Class: Floor\nClass-Path:' >"$dir/manifest.txt"
    for lib in "$dir"/BOOT-INF/lib/*.jar; do printf ' \n %s' "$lib" >>"$dir/manifest.txt"; done
    printf '\n' >>"$dir/manifest.txt"
    "$bin/jar" cfm "$dir/floor.jar" "$dir/manifest.txt" -C "$dir/classes" . || die "could not make $dir/floor.jar"
    echo "$dir/floor.jar"
}

port_in_use() { (exec 3<>"/dev/tcp/127.0.0.1/$1") 2>/dev/null; }

# require_free_ports PORT...: stops the bench when one is taken.
require_free_ports() {
    local port
    for port in "$@"; do
        port_in_use "$port" && die "port $port is already in use; pick others with the *_PORT variables"
    done
    return 0
}

# wait_for NAME PID LOG COMMAND...: polls COMMAND until it succeeds (at most 300 s); fails fast if PID dies.
wait_for() {
    local what=$1 pid=$2 logfile=$3
    shift 3
    for _ in $(seq 1 1200); do
        "$@" >/dev/null 2>&1 && return 0
        kill -0 "$pid" 2>/dev/null || { tail -n 30 "$logfile" >&2; die "$what exited during start-up (log: $logfile)"; }
        sleep 0.25
    done
    die "$what did not become ready in 300 s (log: $logfile)"
}

# Any HTTP answer (the simulator says 401 without a key) means it is serving.
answers() { [[ "$(curl -s -o /dev/null -w '%{http_code}' "$1")" != "000" ]]; }

proc_kib() { awk -v key="$2:" '$1 == key { print $2 }' "/proc/$1/status"; }
