package com.sandboxgateway.budget;

import static org.assertj.core.api.Assertions.assertThat;
import static org.junit.jupiter.api.Assertions.assertTimeoutPreemptively;

import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.UUID;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;

import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.springframework.boot.builder.SpringApplicationBuilder;
import org.springframework.context.ConfigurableApplicationContext;

import com.sandboxgateway.SandboxGatewayApplication;
import com.sandboxgateway.support.GatewayIntegrationTest;
import com.sandboxgateway.support.LocalPostgres;
import com.sandboxgateway.support.ScriptedUpstream;
import com.sandboxgateway.support.TcpProxy;

import io.lettuce.core.RedisClient;
import io.lettuce.core.api.StatefulRedisConnection;
import io.lettuce.core.codec.StringCodec;
import io.lettuce.core.output.StatusOutput;
import io.lettuce.core.protocol.CommandArgs;
import io.lettuce.core.protocol.CommandType;

/**
 * Two gateway instances sharing the local Redis and PostgreSQL, as replicas would: limits and budgets
 * hold exactly across them, survive Redis losing its data, and fail closed (or open, if configured)
 * within the state timeout when Redis is down or hanging.
 */
class RedisStateTest {

    private static final String ROOT_KEY = GatewayIntegrationTest.ADMIN_KEY;
    private static final String ALICE_KEY = GatewayIntegrationTest.ALICE_KEY;
    private static final String CODE_REQUEST =
            "{\"model\":\"gpt-4.1\",\"input\":\"plot\",\"tools\":[{\"type\":\"code_interpreter\",\"container\":{\"type\":\"auto\"}}]}";

    private static RedisClient redisClient;
    private static StatefulRedisConnection<String, String> redis;
    private static TcpProxy redisProxy;
    private static ConfigurableApplicationContext first;
    private static ConfigurableApplicationContext second;
    private static ConfigurableApplicationContext behindProxy;

    @BeforeAll
    static void startReplicas() throws Exception {
        LocalPostgres.recreateSchema();
        redisClient = RedisClient.create("redis://127.0.0.1:6379");
        redis = redisClient.connect();
        redis.sync().keys("*{root}*").forEach(key -> redis.sync().del(key));
        redis.sync().keys("bucket:*root*").forEach(key -> redis.sync().del(key));
        redis.sync().keys("*{alice}*").forEach(key -> redis.sync().del(key));
        redisProxy = new TcpProxy(6379);
        first = gateway(6379, "deny");
        second = gateway(6379, "deny");
        behindProxy = gateway(redisProxy.port(), "deny");
    }

    @AfterAll
    static void stopReplicas() throws Exception {
        for (ConfigurableApplicationContext context : new ConfigurableApplicationContext[] {first, second, behindProxy}) {
            if (context != null) {
                context.close();
            }
        }
        redisProxy.close();
        redis.close();
        redisClient.shutdown();
    }

    @Test
    void shouldLetExactlyTheBurstThroughAcrossBothReplicas() throws Exception {
        ScriptedUpstream.answerWith(new CodeRunningModel(0, 10));

        List<Integer> statuses = concurrently(40, i -> get(i % 2 == 0 ? first : second, "/v1/containers/cntr_x/files", ROOT_KEY)
                .statusCode());

        assertThat(statuses).as("refused by the rate limit: %s", statuses).filteredOn(status -> status == 429).hasSize(30);
        assertThat(statuses).as("let through (to an unknown container)").filteredOn(status -> status == 404).hasSize(10);
    }

    @Test
    void shouldNeverExecuteMoreTurnsThanTheSessionHasAcrossReplicas() throws Exception {
        CodeRunningModel model = new CodeRunningModel(2, 10);
        ScriptedUpstream.answerWith(model);
        String session = "session-" + UUID.randomUUID();

        for (int round = 0; round < 3; round++) {
            concurrently(8, i -> post(i % 2 == 0 ? first : second, "/v1/responses", ALICE_KEY, session, CODE_REQUEST));
        }

        assertThat(model.executed.get()).isEqualTo(3);
        HttpResponse<String> refused = post(first, "/v1/responses", ALICE_KEY, session, CODE_REQUEST);
        assertThat(refused.statusCode()).isEqualTo(429);
        assertThat(refused.body()).contains("turn_budget_exhausted");
    }

    @Test
    void shouldSeedBudgetsFromTheDatabaseWhenRedisLostThem() throws Exception {
        CodeRunningModel model = new CodeRunningModel(2, 10);
        ScriptedUpstream.answerWith(model);
        String session = "session-" + UUID.randomUUID();
        post(first, "/v1/responses", ALICE_KEY, session, CODE_REQUEST);

        redis.sync().keys("turns:{alice}:*").forEach(key -> redis.sync().del(key));
        HttpResponse<String> afterFlush = post(second, "/v1/responses", ALICE_KEY, session, CODE_REQUEST);

        assertThat(afterFlush.headers().firstValue("X-Gateway-Turns-Remaining")).hasValue("0");
        assertThat(model.executed.get()).as("2 turns, then the 1 the database says is left").isEqualTo(3);
    }

    @Test
    void shouldRefuseWithinTheTimeoutWhenRedisIsUnreachableAndSayItInHealth() throws Exception {
        ScriptedUpstream.answerWith(new CodeRunningModel(0, 10));
        redisProxy.cut();
        try {
            HttpResponse<String> refused = assertTimeoutPreemptively(Duration.ofSeconds(10),
                    () -> get(behindProxy, "/v1/containers/cntr_x/files", ALICE_KEY));

            assertThat(refused.statusCode()).isEqualTo(503);
            assertThat(refused.body()).contains("state_unavailable");
            assertThat(refused.headers().firstValue("Retry-After")).hasValue("1");
            HttpResponse<String> health = managementGet(behindProxy, "/actuator/health", null);
            assertThat(health.body()).contains("\"backend\":\"redis\"", "\"onFailure\":\"deny\"", "refused until Redis is back");
            assertThat(managementGet(behindProxy, "/actuator/health/readiness", null).statusCode())
                    .as("a pod that refuses every call is not ready").isEqualTo(503);
            assertThat(managementGet(behindProxy, "/actuator/health/liveness", null).statusCode()).isEqualTo(200);
            HttpResponse<String> buckets = managementGet(behindProxy, "/actuator/ratelimits", ROOT_KEY);
            assertThat(buckets.statusCode()).isEqualTo(503);
            assertThat(buckets.headers().firstValue("Content-Type")).hasValue("application/problem+json");
            assertThat(buckets.headers().firstValue("Retry-After")).hasValue("1");
            assertThat(buckets.body()).contains("Redis");
        } finally {
            redisProxy.start();
        }
    }

    @Test
    void shouldAnswerWithinTheTimeoutWhileRedisHangs() throws Exception {
        ScriptedUpstream.answerWith(new CodeRunningModel(0, 10));
        // Replicas of its own: a command that timed out in the pause must not be left on the pair the other tests count on.
        try (ConfigurableApplicationContext denying = gateway(6379, "deny");
             ConfigurableApplicationContext allowing = gateway(6379, "allow");
             StatefulRedisConnection<String, String> admin = redisClient.connect()) {
            get(denying, "/v1/containers/cntr_x/files", ALICE_KEY);
            get(allowing, "/v1/containers/cntr_x/files", ALICE_KEY);
            admin.sync().clientPause(3000);

            HttpResponse<String> denied = assertTimeoutPreemptively(Duration.ofSeconds(2),
                    () -> get(denying, "/v1/containers/cntr_x/files", ALICE_KEY));
            HttpResponse<String> allowed = assertTimeoutPreemptively(Duration.ofSeconds(2),
                    () -> get(allowing, "/v1/containers/cntr_x/files", ALICE_KEY));

            assertThat(denied.statusCode()).isEqualTo(503);
            assertThat(allowed.statusCode()).as("served unmetered: on to the ownership check").isEqualTo(404);
            HttpResponse<String> ready = managementGet(allowing, "/actuator/health/readiness", null);
            assertThat(ready.statusCode()).as("a pod that serves unmetered stays ready").isEqualTo(200);
            assertThat(ready.body()).contains("DEGRADED");
            admin.sync().dispatch(CommandType.CLIENT, new StatusOutput<>(StringCodec.UTF8),
                    new CommandArgs<>(StringCodec.UTF8).add("UNPAUSE"));
        }
    }

    private static ConfigurableApplicationContext gateway(int redisPort, String onFailure) {
        return new SpringApplicationBuilder(SandboxGatewayApplication.class).profiles("test", "postgres").run(
                "--server.port=0",
                "--gateway.upstream.base-url=" + ScriptedUpstream.baseUrl(),
                "--gateway.state.backend=redis",
                "--gateway.state.on-failure=" + onFailure,
                "--spring.data.redis.host=127.0.0.1",
                "--spring.data.redis.port=" + redisPort,
                "--gateway.policy.teams.platform.rate-limit.requests-per-minute=1",
                "--gateway.policy.teams.platform.rate-limit.burst=10",
                "--gateway.policy.teams.analytics.turns.max-per-session=3");
    }

    private static HttpResponse<String> get(ConfigurableApplicationContext gateway, String path, String key) throws Exception {
        return send(HttpRequest.newBuilder(uri(gateway, "local.server.port", path)).GET(), key, null);
    }

    private static HttpResponse<String> managementGet(ConfigurableApplicationContext gateway, String path, String key)
            throws Exception {
        return send(HttpRequest.newBuilder(uri(gateway, "local.management.port", path)).GET(), key, null);
    }

    private static HttpResponse<String> post(ConfigurableApplicationContext gateway, String path, String key, String session,
                                             String json) throws Exception {
        return send(HttpRequest.newBuilder(uri(gateway, "local.server.port", path)).header("Content-Type", "application/json")
                .POST(HttpRequest.BodyPublishers.ofString(json)), key, session);
    }

    private static URI uri(ConfigurableApplicationContext gateway, String portProperty, String path) {
        return URI.create("http://127.0.0.1:" + gateway.getEnvironment().getProperty(portProperty) + path);
    }

    private static HttpResponse<String> send(HttpRequest.Builder request, String key, String session) throws Exception {
        if (key != null) {
            request.header("Authorization", "Bearer " + key);
        }
        if (session != null) {
            request.header("X-Gateway-Session", session);
        }
        try (HttpClient http = HttpClient.newHttpClient()) {
            return http.send(request.build(), HttpResponse.BodyHandlers.ofString());
        }
    }

    private interface Call<T> {
        T call(int index) throws Exception;
    }

    private static <T> List<T> concurrently(int count, Call<T> call) throws Exception {
        try (ExecutorService threads = Executors.newVirtualThreadPerTaskExecutor()) {
            List<Future<T>> futures = new ArrayList<>();
            for (int i = 0; i < count; i++) {
                int index = i;
                futures.add(threads.submit(() -> call.call(index)));
            }
            List<T> results = new ArrayList<>();
            for (Future<T> future : futures) {
                results.add(future.get());
            }
            return results;
        }
    }
}
