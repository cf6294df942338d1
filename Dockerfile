# syntax=docker/dockerfile:1
# Sandbox Gateway image: build with the Maven wrapper, run the layered Spring Boot jar on a JRE as a
# non-root user. Build: `docker build -t sandbox-gateway .`  Run: see docker-compose.yml or the Helm chart.

FROM eclipse-temurin:25-jdk-noble AS build
WORKDIR /build
COPY mvnw pom.xml ./
COPY .mvn/ .mvn/
COPY src/ src/
# Tests need PostgreSQL and Redis; CI runs them before it builds the image.
RUN --mount=type=cache,target=/root/.m2 \
    ./mvnw -B -q -DskipTests package \
 && cp target/sandbox-gateway-*.jar application.jar \
 && java -Djarmode=tools -jar application.jar extract --layers --destination extracted

# JDK 25: the ahead-of-time cache (below) needs it; the code still targets Java 21.
FROM eclipse-temurin:25-jre-noble
# curl: the HEALTHCHECK below and the cache's training run call the gateway with it, and the JRE image has none.
RUN apt-get update \
 && DEBIAN_FRONTEND=noninteractive apt-get install -y --no-install-recommends curl \
 && rm -rf /var/lib/apt/lists/* \
 && groupadd --system --gid 10001 gateway \
 && useradd --system --uid 10001 --gid gateway --home-dir /app --shell /usr/sbin/nologin gateway
WORKDIR /app
# Least to most often changed, so a code change rebuilds only the last layer. Plain jars (application.jar
# and lib/), not the launcher's nested ones: the AOT cache holds classes of the JDK's own class loaders only.
COPY --from=build /build/extracted/dependencies/ ./
COPY --from=build /build/extracted/spring-boot-loader/ ./
COPY --from=build /build/extracted/snapshot-dependencies/ ./
COPY --from=build /build/extracted/application/ ./
# Heap sized from the container's memory limit, leaving room for the ~250 MB the JVM needs beside it
# (metaspace, code cache, the AOT cache mapping, thread stacks, buffers; bench/README.md, "Memory"); a JVM out of memory exits so that the orchestrator restarts it instead of limping on. The serial
# collector suits the one or two CPUs a gateway replica gets (bench/README.md, "Memory"): no GC threads
# competing with requests, the smallest footprint; 512 KB stacks are plenty (requests run on virtual
# threads, whose stacks live on the heap) and cap what Tomcat's and the pools' platform threads reserve.
ENV JDK_JAVA_OPTIONS="-XX:MaxRAMPercentage=40 -XX:InitialRAMPercentage=20 -XX:+UseSerialGC -Xss512k -XX:MaxMetaspaceSize=192m -XX:+ExitOnOutOfMemoryError"

# Ahead-of-time cache (JEP 483/514/515): one training run records the classes the gateway loaded and linked and
# the methods' profiles, and every start then maps them instead of loading, verifying and profiling again. The run
# (src/main/docker/aot-training.sh) starts the gateway with the runtime's flags (JDK_JAVA_OPTIONS) and classpath,
# serves it requests of each common kind through the bundled simulator and stops it, so the cache covers serving as
# well as starting (bench/startup.sh measures both ways). A JVM that cannot use the cache warns and starts without
# it. The run's database is in memory and its files in a scratch folder, so the image keeps neither.
COPY src/main/docker/aot-training.sh /tmp/aot-training.sh
RUN sh /tmp/aot-training.sh app.aot && rm /tmp/aot-training.sh

# ./data holds the audit spool (and the embedded H2 file when no PostgreSQL is configured): mount a
# volume here, or point GATEWAY_AUDIT_SPOOL_DIR at one, so spooled audit records outlive the container.
RUN mkdir /app/data && chown gateway:gateway /app/data
USER 10001:10001

# 8080: the OpenAI-compatible API (/v1). 8081: management (health, prometheus, admin endpoints).
EXPOSE 8080 8081
HEALTHCHECK --interval=15s --timeout=3s --start-period=90s --retries=3 \
    CMD curl -fsS -o /dev/null http://127.0.0.1:8081/actuator/health/liveness || exit 1
ENTRYPOINT ["java", "-XX:AOTCache=app.aot", "-jar", "application.jar"]
