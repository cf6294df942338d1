package com.sandboxgateway.budget;

import static org.assertj.core.api.Assertions.assertThat;

import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.Statement;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.UUID;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.atomic.AtomicBoolean;

import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.springframework.boot.builder.SpringApplicationBuilder;
import org.springframework.context.ConfigurableApplicationContext;

import com.sandboxgateway.SandboxGatewayApplication;
import com.sandboxgateway.support.GatewayIntegrationTest;
import com.sandboxgateway.support.LocalPostgres;
import com.sandboxgateway.support.RedisServer;
import com.sandboxgateway.support.ScriptedUpstream;

/**
 * Two replicas share a redis-server of this test's own, which is killed under concurrent load across both
 * and started again empty, with {@code on-failure: deny}: while it is down nothing is admitted (every
 * request {@code 503 state_unavailable}, no code runs upstream); once it is back the rate limit is exact
 * again (a fresh bucket: exactly the burst across both replicas) and turn budgets are reseeded from the
 * database, so a session never runs more turns than it has, restart or not.
 */
class RedisRestartTest {

    private static final String ROOT_KEY = GatewayIntegrationTest.ADMIN_KEY;
    private static final String ALICE_KEY = GatewayIntegrationTest.ALICE_KEY;
    private static final String CODE_REQUEST =
            "{\"model\":\"gpt-4.1\",\"input\":\"plot\",\"tools\":[{\"type\":\"code_interpreter\",\"container\":{\"type\":\"auto\"}}]}";
    private static final String SCHEMA = "redis_restart_" + ProcessHandle.current().pid();
    private static final int BURST = 10;
    private static final int TURNS = 3;

    private static RedisServer redis;
    private static ConfigurableApplicationContext first;
    private static ConfigurableApplicationContext second;

    @BeforeAll
    static void startReplicas() {
        redis = RedisServer.start();
        first = gateway();
        second = gateway();
    }

    @AfterAll
    static void stopReplicas() throws Exception {
        for (ConfigurableApplicationContext context : new ConfigurableApplicationContext[] {first, second}) {
            if (context != null) {
                context.close();
            }
        }
        if (redis != null) {
            redis.close();
        }
        try (Connection connection = DriverManager.getConnection(LocalPostgres.URL, "postgres", "");
             Statement statement = connection.createStatement()) {
            statement.execute("DROP SCHEMA IF EXISTS " + SCHEMA + " CASCADE");
        }
    }

    @Test
    void shouldAdmitNothingWhileRedisIsDownAndExactlyTheLimitOnceItIsBack() throws Exception {
        CodeRunningModel model = new CodeRunningModel(1, 10);
        ScriptedUpstream.answerWith(model);
        String session = "session-" + UUID.randomUUID();
        awaitReady(first);
        awaitReady(second);
        assertThat(responses(1, session)).containsExactly(200);
        List<Integer> before = containerFiles(4 * BURST);
        List<Integer> whileDown;
        List<Integer> turnsWhileDown;

        List<Integer> background = new CopyOnWriteArrayList<>();
        AtomicBoolean loading = new AtomicBoolean(true);
        try (ExecutorService load = Executors.newVirtualThreadPerTaskExecutor()) {
            for (int t = 0; t < 4; t++) {
                int replica = t;
                load.submit(() -> {
                    while (loading.get()) {
                        background.add(send(replica, HttpRequest.newBuilder(uri(replica, "/v1/containers/cntr_y/files")).GET(),
                                ALICE_KEY, null));
                    }
                    return null;
                });
            }
            redis.kill();
            whileDown = containerFiles(2 * BURST);
            turnsWhileDown = responses(8, session);
            redis.restart();
            awaitReady(first);
            awaitReady(second);
            loading.set(false);
        }
        List<Integer> after = containerFiles(4 * BURST);
        List<Integer> turnsAfter = new ArrayList<>();
        for (int round = 0; round < 3; round++) {
            turnsAfter.addAll(responses(8, session));
        }

        assertThat(background).as("load across the restart: served, or refused while down").containsOnly(404, 503).contains(404, 503);
        assertThat(before).as("before: the burst, across both replicas: %s", before).filteredOn(s -> s == 404).hasSize(BURST);
        assertThat(before).filteredOn(s -> s == 429).hasSize(3 * BURST);
        assertThat(whileDown).as("down: refused, none let through").containsOnly(503);
        assertThat(turnsWhileDown).containsOnly(503);
        assertThat(after).as("back: a fresh bucket, exact again: %s", after).filteredOn(s -> s == 404).hasSize(BURST);
        assertThat(after).filteredOn(s -> s == 429).hasSize(3 * BURST);
        assertThat(turnsAfter).as("reseeded from the database: the turns left, then refused").filteredOn(s -> s == 200)
                .hasSize(TURNS - 1);
        assertThat(model.executed.get()).as("code run upstream, restart or not").isEqualTo(TURNS);
    }

    /** {@code count} concurrent reads of an unknown container's files, half on each replica: 404 when admitted. */
    private static List<Integer> containerFiles(int count) throws Exception {
        return concurrently(count, i -> send(i, HttpRequest.newBuilder(uri(i, "/v1/containers/cntr_x/files")).GET(), ROOT_KEY, null));
    }

    /** {@code count} concurrent code-running responses in one session, half on each replica. */
    private static List<Integer> responses(int count, String session) throws Exception {
        return concurrently(count, i -> send(i, HttpRequest.newBuilder(uri(i, "/v1/responses"))
                .header("Content-Type", "application/json").POST(HttpRequest.BodyPublishers.ofString(CODE_REQUEST)), ALICE_KEY, session));
    }

    /** Until the replica's state component is up (its Redis client has connected, again after a restart). */
    private static void awaitReady(ConfigurableApplicationContext gateway) throws Exception {
        URI readiness = URI.create("http://127.0.0.1:" + gateway.getEnvironment().getProperty("local.management.port")
                + "/actuator/health/readiness");
        Instant deadline = Instant.now().plus(Duration.ofMinutes(1));
        try (HttpClient http = HttpClient.newHttpClient()) {
            while (http.send(HttpRequest.newBuilder(readiness).build(), HttpResponse.BodyHandlers.discarding()).statusCode() != 200) {
                assertThat(Instant.now()).as("the replica saw Redis back within a minute").isBefore(deadline);
                Thread.sleep(50);
            }
        }
    }

    private static ConfigurableApplicationContext gateway() {
        return new SpringApplicationBuilder(SandboxGatewayApplication.class).profiles("test", "postgres").run(
                "--server.port=0",
                "--spring.datasource.url=jdbc:postgresql://127.0.0.1:5432/test?currentSchema=" + SCHEMA,
                "--spring.flyway.schemas=" + SCHEMA,
                "--gateway.upstream.base-url=" + ScriptedUpstream.baseUrl(),
                "--gateway.state.backend=redis",
                "--gateway.state.on-failure=deny",
                // Room for a busy machine: a killed Redis drops the connection, so refusals come at once anyway.
                "--gateway.state.timeout=2s",
                "--spring.data.redis.host=127.0.0.1",
                "--spring.data.redis.port=" + redis.port(),
                "--gateway.policy.teams.platform.rate-limit.requests-per-minute=1",
                "--gateway.policy.teams.platform.rate-limit.burst=" + BURST,
                "--gateway.policy.teams.analytics.turns.max-per-session=" + TURNS);
    }

    private static URI uri(int index, String path) {
        ConfigurableApplicationContext gateway = index % 2 == 0 ? first : second;
        return URI.create("http://127.0.0.1:" + gateway.getEnvironment().getProperty("local.server.port") + path);
    }

    private static int send(int index, HttpRequest.Builder request, String key, String session) throws Exception {
        request.header("Authorization", "Bearer " + key);
        if (session != null) {
            request.header("X-Gateway-Session", session);
        }
        try (HttpClient http = HttpClient.newHttpClient()) {
            return http.send(request.build(), HttpResponse.BodyHandlers.discarding()).statusCode();
        }
    }

    private interface Call {
        int call(int index) throws Exception;
    }

    private static List<Integer> concurrently(int count, Call call) throws Exception {
        try (ExecutorService threads = Executors.newVirtualThreadPerTaskExecutor()) {
            List<Future<Integer>> futures = new ArrayList<>();
            for (int i = 0; i < count; i++) {
                int index = i;
                futures.add(threads.submit(() -> call.call(index)));
            }
            List<Integer> statuses = new ArrayList<>();
            for (Future<Integer> future : futures) {
                statuses.add(future.get());
            }
            return statuses;
        }
    }
}
