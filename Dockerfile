# syntax=docker/dockerfile:1
# Sandbox Gateway image: build with the Maven wrapper, run the layered Spring Boot jar on a JRE as a
# non-root user. Build: `docker build -t sandbox-gateway .`  Run: see docker-compose.yml or the Helm chart.

FROM eclipse-temurin:21-jdk-noble AS build
WORKDIR /build
COPY mvnw pom.xml ./
COPY .mvn/ .mvn/
COPY src/ src/
# Tests need PostgreSQL and Redis; CI runs them before it builds the image.
RUN --mount=type=cache,target=/root/.m2 \
    ./mvnw -B -q -DskipTests package \
 && cp target/sandbox-gateway-*.jar application.jar \
 && java -Djarmode=tools -jar application.jar extract --layers --launcher --destination extracted

FROM eclipse-temurin:21-jre-noble
RUN groupadd --system --gid 10001 gateway \
 && useradd --system --uid 10001 --gid gateway --home-dir /app --shell /usr/sbin/nologin gateway
WORKDIR /app
# Least to most often changed, so a code change rebuilds only the last layer.
COPY --from=build /build/extracted/dependencies/ ./
COPY --from=build /build/extracted/spring-boot-loader/ ./
COPY --from=build /build/extracted/snapshot-dependencies/ ./
COPY --from=build /build/extracted/application/ ./
# ./data holds the audit spool (and the embedded H2 file when no PostgreSQL is configured): mount a
# volume here, or point GATEWAY_AUDIT_SPOOL_DIR at one, so spooled audit records outlive the container.
RUN mkdir /app/data && chown gateway:gateway /app/data
USER 10001:10001

# Heap sized from the container's memory limit, leaving room for metaspace, thread stacks and direct
# buffers; a JVM out of memory exits so that the orchestrator restarts it instead of limping on.
ENV JDK_JAVA_OPTIONS="-XX:MaxRAMPercentage=75 -XX:InitialRAMPercentage=50 -XX:+ExitOnOutOfMemoryError"

# 8080: the OpenAI-compatible API (/v1). 8081: management (health, prometheus, admin endpoints).
EXPOSE 8080 8081
HEALTHCHECK --interval=15s --timeout=3s --start-period=90s --retries=3 \
    CMD curl -fsS -o /dev/null http://127.0.0.1:8081/actuator/health/liveness || exit 1
ENTRYPOINT ["java", "org.springframework.boot.loader.launch.JarLauncher"]
