package com.sandboxgateway.audit;

import static com.github.tomakehurst.wiremock.client.WireMock.aResponse;
import static com.github.tomakehurst.wiremock.client.WireMock.post;
import static org.assertj.core.api.Assertions.assertThat;

import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.function.BooleanSupplier;
import java.util.stream.IntStream;

import javax.sql.DataSource;

import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.Test;
import org.springframework.beans.factory.annotation.Autowired;
import org.springframework.jdbc.core.simple.JdbcClient;
import org.springframework.test.annotation.DirtiesContext;
import org.springframework.test.context.DynamicPropertyRegistry;
import org.springframework.test.context.DynamicPropertySource;

import com.sandboxgateway.support.GatewayIntegrationTest;
import com.sandboxgateway.support.PostgresCluster;

import io.micrometer.core.instrument.MeterRegistry;

/**
 * A real database outage: the gateway's PostgreSQL, a cluster of this test's own, crashes
 * ({@code pg_ctlcluster stop -m immediate}) in the middle of 1,000 code executions and starts again.
 * Every code block OpenAI ran is then stored exactly once, the hash chain and the Merkle tree verify,
 * and no request was answered with success unless its record was durable (committed, or in the
 * fsync'd spool that design.md §1.4 makes the fallback) — what was committed before the crash
 * survives it; a request the outage failed got a {@code 503} that says to retry.
 */
@DirtiesContext
class DatabaseOutageTest extends GatewayIntegrationTest {

    private static final int EXECUTIONS = 1000;
    private static final int CLIENTS = 8;
    private static PostgresCluster cluster;

    @Autowired
    AuditStore store;

    @Autowired
    AuditTree tree;

    @Autowired
    SpoolingAuditLog auditLog;

    @Autowired
    DataSource dataSource;

    @Autowired
    MeterRegistry meters;

    @DynamicPropertySource
    static void database(DynamicPropertyRegistry registry) throws Exception {
        cluster = PostgresCluster.create("sgw_outage");
        Path spool = Files.createTempDirectory("outage-spool");
        registry.add("spring.datasource.url", cluster::jdbcUrl);
        registry.add("spring.datasource.username", () -> "postgres");
        registry.add("spring.datasource.password", () -> "");
        // Fail over to the spool in a quarter of a second (Hikari's least), not in its default 30 s.
        registry.add("spring.datasource.hikari.connection-timeout", () -> "250");
        registry.add("gateway.audit.replay-interval", () -> "200ms");
        registry.add("gateway.audit.spool-dir", spool::toString);
        // Every answer OpenAI gives reaches the gateway (the test profile's 3 s read timeout would drop slow ones
        // on a busy machine: code OpenAI ran that no gateway ever saw), and all clients run at once.
        registry.add("gateway.upstream.read-timeout", () -> "5m");
        registry.add("resilience4j.bulkhead.configs.team.max-concurrent-calls", () -> String.valueOf(CLIENTS));
    }

    @AfterAll
    static void dropCluster() {
        if (cluster != null) {
            cluster.close();
        }
    }

    @Test
    void shouldStoreEveryExecutionOnceThroughADatabaseCrash() throws Exception {
        openAi.stubFor(post("/v1/responses").willReturn(aResponse().withHeader("Content-Type", "application/json")
                .withBody(completedResponse("resp_{{jsonPath request.body '$.input'}}", "cntr_{{jsonPath request.body '$.input'}}")
                        .replace("ci_68a93ab8671881a39e3ac17e69d804a6", "ci_{{jsonPath request.body '$.input'}}"))
                .withTransformers("response-template")));
        Map<String, Integer> statusByCall = new ConcurrentHashMap<>();
        AtomicInteger next = new AtomicInteger();
        AtomicInteger answered = new AtomicInteger();

        try (HttpClient http = HttpClient.newHttpClient(); ExecutorService clients = Executors.newFixedThreadPool(CLIENTS)) {
            List<Future<Object>> running = IntStream.range(0, CLIENTS).mapToObj(c -> clients.submit(() -> {
                for (int i = next.getAndIncrement(); i < EXECUTIONS; i = next.getAndIncrement()) {
                    String run = "exec" + i;
                    statusByCall.put("ci_" + run, execute(http, run).statusCode());
                    answered.incrementAndGet();
                }
                return null;
            })).toList();
            awaitUntil(() -> answered.get() >= 400, Duration.ofMinutes(3));
            cluster.crash();
            // While it is down the first requests wait out the pool's connection timeout, the others are refused at once.
            awaitUntil(() -> answered.get() >= 500, Duration.ofMinutes(5));
            cluster.start();
            for (Future<Object> client : running) {
                client.get();
            }
        }
        awaitUntil(() -> auditLog.spoolDepth() == 0, Duration.ofMinutes(2));

        JdbcClient jdbc = JdbcClient.create(dataSource);
        List<String> stored = jdbc.sql("SELECT call_id FROM audit_record WHERE call_id IS NOT NULL").query(String.class).list();
        List<String> executedUpstream = openAi.getAllServeEvents().stream()
                .map(event -> "ci_" + event.getRequest().getBodyAsString().replaceAll("(?s).*\"input\"\\s*:\\s*\"([^\"]*)\".*", "$1"))
                .toList();
        assertThat(stored).doesNotHaveDuplicates().containsExactlyInAnyOrderElementsOf(executedUpstream);
        assertThat(statusByCall.entrySet()).filteredOn(e -> e.getValue() == 200).extracting(Map.Entry::getKey)
                .allSatisfy(call -> assertThat(stored).contains(call));
        assertThat(statusByCall).hasSize(EXECUTIONS);
        // A request the outage failed is told to retry (503 state_unavailable, or audit_unavailable), never a 500.
        assertThat(statusByCall.values()).as("what the clients got").allMatch(status -> status == 200 || status == 503);
        assertThat(store.verify().intact()).isTrue();
        long records = jdbc.sql("SELECT COUNT(*) FROM audit_record").query(Long.class).single();
        assertThat(tree.head("outage").size()).isEqualTo(records);
        assertThat(tree.head("outage").root()).isEqualTo(MerkleRoots.of(store, records));
        System.out.printf("database outage: %d executions, %d answered 200, %d records stored, %d spooled and replayed%n",
                executedUpstream.size(), statusByCall.values().stream().filter(s -> s == 200).count(), stored.size(),
                (long) meters.get("gateway.audit.replays").counter().count());
    }

    private HttpResponse<String> execute(HttpClient http, String input) throws Exception {
        String body = "{\"model\":\"gpt-4.1\",\"input\":\"" + input + "\",\"tools\":[{\"type\":\"code_interpreter\","
                + "\"container\":{\"type\":\"auto\"}}]}";
        return http.send(HttpRequest.newBuilder(URI.create(gatewayUrl() + "/v1/responses"))
                .header("Authorization", "Bearer " + ALICE_KEY).header("Content-Type", "application/json")
                .timeout(Duration.ofMinutes(1)).POST(HttpRequest.BodyPublishers.ofString(body)).build(),
                HttpResponse.BodyHandlers.ofString());
    }

    private static void awaitUntil(BooleanSupplier condition, Duration limit) throws InterruptedException {
        Instant deadline = Instant.now().plus(limit);
        while (!condition.getAsBoolean()) {
            assertThat(Instant.now()).as("waited %s", limit).isBefore(deadline);
            Thread.sleep(20);
        }
    }
}
