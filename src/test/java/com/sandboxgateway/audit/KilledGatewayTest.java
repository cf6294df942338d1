package com.sandboxgateway.audit;

import static com.github.tomakehurst.wiremock.client.WireMock.aResponse;
import static com.github.tomakehurst.wiremock.client.WireMock.containing;
import static com.github.tomakehurst.wiremock.client.WireMock.notContaining;
import static com.github.tomakehurst.wiremock.client.WireMock.post;
import static com.github.tomakehurst.wiremock.client.WireMock.postRequestedFor;
import static com.github.tomakehurst.wiremock.client.WireMock.urlPathEqualTo;
import static com.sandboxgateway.support.OpenAiStub.example;
import static org.assertj.core.api.Assertions.assertThat;

import java.io.ByteArrayInputStream;
import java.io.IOException;
import java.io.InputStream;
import java.io.SequenceInputStream;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.function.BooleanSupplier;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.IntStream;
import java.util.stream.Stream;

import javax.sql.DataSource;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.springframework.jdbc.core.simple.JdbcClient;

import com.github.tomakehurst.wiremock.WireMockServer;
import com.sandboxgateway.support.GatewayIntegrationTest;
import com.sandboxgateway.support.GatewayProcess;
import com.sandboxgateway.support.OpenAiStub;
import com.sandboxgateway.support.TcpProxy;

/**
 * A gateway JVM is killed with {@code SIGKILL} while it relays slow streamed responses and reads uploads,
 * with audit records waiting in its spool: a database outage put the first ones there (refusals: without
 * the database budgets cannot be read), and while anything is spooled new records queue behind it (the first
 * gateway offers its spool to the database only hourly, so the spool is still full when it dies). A new gateway on the same spool directory replays every spooled
 * record exactly once; each cut stream's client got an error and never the terminal
 * {@code response.completed}; a cut upload never reached OpenAI.
 */
class KilledGatewayTest {

    private static final String EXAMPLE_CALL = "ci_68a93ab8671881a39e3ac17e69d804a6";
    private static final String INPUT = "{{jsonPath request.body '$.input'}}";
    private static final Pattern CALL_ID = Pattern.compile("\"call_id\"\\s*:\\s*\"([^\"]+)\"");
    private static final int REFUSED = 3;
    private static final int STREAMS = 4;
    private static final int UPLOADS = 2;

    private final WireMockServer openAi = OpenAiStub.server();

    @Test
    void shouldReplayEverySpooledRecordOnceAfterAKillAndCutEveryStreamWithAnError(@TempDir Path dir) throws Exception {
        String schema = "killed_gateway_" + ProcessHandle.current().pid();
        Path spoolDir = dir.resolve("spool");
        openAi.resetAll();
        openAi.stubFor(post("/v1/responses").withRequestBody(notContaining("\"stream\":true")).willReturn(aResponse()
                .withHeader("Content-Type", "application/json").withTransformers("response-template")
                .withBody(example("responses.create.response.completed.json").replace(EXAMPLE_CALL, "ci_" + INPUT)
                        .replace(GatewayIntegrationTest.EXAMPLE_RESPONSE_ID, "resp_" + INPUT))));
        // 18 chunks over 40 s: the code call completes about halfway, the response some 15 s after that.
        openAi.stubFor(post("/v1/responses").withRequestBody(containing("\"stream\":true")).willReturn(aResponse()
                .withHeader("Content-Type", "text/event-stream").withTransformers("response-template")
                .withBody(example("responses.stream.code-interpreter.sse").replace(EXAMPLE_CALL, "ci_" + INPUT)
                        .replace(GatewayIntegrationTest.EXAMPLE_RESPONSE_ID, "resp_" + INPUT))
                .withChunkedDribbleDelay(18, 40_000)));

        HttpClient http = HttpClient.newHttpClient();
        CountDownLatch uploadsMayEnd = new CountDownLatch(1);
        try (TcpProxy database = new TcpProxy(5432)) {
            DataSource dataSource = AuditStores.postgres(schema, database.port());
            List<String> settings = List.of("--gateway.upstream.base-url=" + openAi.baseUrl(),
                    "--spring.datasource.url=jdbc:postgresql://127.0.0.1:" + database.port() + "/test?currentSchema=" + schema,
                    "--spring.datasource.username=postgres", "--spring.datasource.password=", "--spring.flyway.schemas=" + schema,
                    "--spring.datasource.hikari.connection-timeout=1000", "--gateway.audit.spool-dir=" + spoolDir,
                    "--gateway.upstream.read-timeout=5m", "--gateway.upstream.stream-idle-timeout=5m");

            List<String> streamedCalls = new ArrayList<>();
            List<CutStream> streams = new ArrayList<>();
            List<CompletableFuture<HttpResponse<String>>> uploads;
            try (GatewayProcess first = GatewayProcess.start(dir.resolve("first"),
                    with(settings, "--gateway.audit.replay-interval=1h"))) {
                database.cut();
                for (int i = 0; i < REFUSED; i++) {
                    // Budgets cannot be read without the database: refused before OpenAI, and the refusal is spooled.
                    assertThat(http.send(responses(first, "refused" + i, false), HttpResponse.BodyHandlers.ofString()).body())
                            .contains("state_unavailable");
                }
                database.start();
                // Until the gateway reads its database again: a foreign file id is then a plain 404.
                awaitUntil(() -> status(http, first, "/v1/files/file-probe") == 404);
                for (int i = 0; i < STREAMS; i++) {
                    streams.add(CutStream.open(http, responses(first, "streamed" + i, true)));
                    streamedCalls.add("ci_streamed" + i);
                }
                uploads = IntStream.range(0, UPLOADS).mapToObj(i -> http.sendAsync(halfUpload(first, uploadsMayEnd),
                        HttpResponse.BodyHandlers.ofString())).toList();
                for (CutStream stream : streams) {
                    assertThat(stream.callCompleted.await(2, TimeUnit.MINUTES)).as("the code call's completion was relayed").isTrue();
                }

                first.kill();
            }
            uploadsMayEnd.countDown();
            String spool = Files.readString(spoolDir.resolve("audit-spool.jsonl"));
            long spooledRecords = spool.lines().filter(line -> !line.isBlank()).count();

            for (CutStream stream : streams) {
                stream.reader.join();
                assertThat(stream.failure).as("a cut stream ends in an error, not a clean end").isNotNull();
                assertThat(stream.events).doesNotContain("response.completed");
            }
            // The client notices the dead connection in its own time: wait for each upload to end, then it must have failed.
            assertThat(uploads).allSatisfy(upload -> assertThat(upload).failsWithin(Duration.ofMinutes(1)));
            openAi.verify(0, postRequestedFor(urlPathEqualTo("/v1/files")));
            assertThat(callIds(spool)).as("each relayed code call was spooled before its completion was relayed")
                    .containsExactlyInAnyOrderElementsOf(streamedCalls);
            assertThat(spooledRecords).isGreaterThanOrEqualTo(REFUSED + STREAMS);

            JdbcClient jdbc = JdbcClient.create(dataSource);
            try (GatewayProcess second = GatewayProcess.start(dir.resolve("second"),
                    with(settings, "--gateway.audit.replay-interval=200ms"))) {
                awaitUntil(() -> Files.notExists(spoolDir.resolve("audit-spool.jsonl")));
                List<String> stored = jdbc.sql("SELECT call_id FROM audit_record WHERE call_id IS NOT NULL").query(String.class).list();
                assertThat(stored).doesNotHaveDuplicates().containsExactlyInAnyOrderElementsOf(streamedCalls);
                assertThat(jdbc.sql("SELECT COUNT(*) FROM audit_record").query(Long.class).single()).isEqualTo(spooledRecords);
            }
            assertThat(AuditStores.store(dataSource).verify().intact()).isTrue();
            System.out.printf("killed gateway: %d records spooled, %d replayed once, %d streams cut with an error, %d uploads cut%n",
                    spooledRecords, spooledRecords, streams.size(), uploads.size());
        } finally {
            uploadsMayEnd.countDown();
            http.shutdownNow();
        }
    }

    private static List<String> with(List<String> settings, String setting) {
        List<String> all = new ArrayList<>(settings);
        all.add(setting);
        return all;
    }

    private static HttpRequest responses(GatewayProcess gateway, String input, boolean stream) {
        String body = "{\"model\":\"gpt-4.1\",\"input\":\"" + input + "\",\"stream\":" + stream
                + ",\"tools\":[{\"type\":\"code_interpreter\",\"container\":{\"type\":\"auto\"}}]}";
        return HttpRequest.newBuilder(URI.create(gateway.url() + "/v1/responses"))
                .header("Authorization", "Bearer " + GatewayIntegrationTest.ALICE_KEY).header("Content-Type", "application/json")
                .POST(HttpRequest.BodyPublishers.ofString(body)).build();
    }

    /** A CSV upload whose body stops halfway until {@code mayEnd}: the gateway is killed while it reads it. */
    private static HttpRequest halfUpload(GatewayProcess gateway, CountDownLatch mayEnd) {
        String head = "--cut\r\nContent-Disposition: form-data; name=\"purpose\"\r\n\r\nuser_data\r\n"
                + "--cut\r\nContent-Disposition: form-data; name=\"file\"; filename=\"orders.csv\"\r\nContent-Type: text/csv\r\n\r\n"
                + "order_id,amount\r\n" + "1,9.99\r\n".repeat(10_000);
        InputStream stalled = new InputStream() {
            @Override
            public int read() throws IOException {
                try {
                    mayEnd.await();
                } catch (InterruptedException e) {
                    Thread.currentThread().interrupt();
                }
                return -1;
            }
        };
        return HttpRequest.newBuilder(URI.create(gateway.url() + "/v1/files"))
                .header("Authorization", "Bearer " + GatewayIntegrationTest.ALICE_KEY)
                .header("Content-Type", "multipart/form-data; boundary=cut")
                .POST(HttpRequest.BodyPublishers.ofInputStream(() -> new SequenceInputStream(
                        new ByteArrayInputStream(head.getBytes(StandardCharsets.UTF_8)), stalled))).build();
    }

    private static int status(HttpClient http, GatewayProcess gateway, String path) {
        try {
            return http.send(HttpRequest.newBuilder(URI.create(gateway.url() + path))
                    .header("Authorization", "Bearer " + GatewayIntegrationTest.ALICE_KEY).build(),
                    HttpResponse.BodyHandlers.discarding()).statusCode();
        } catch (IOException e) {
            return -1;
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            return -1;
        }
    }

    private static List<String> callIds(String spool) {
        List<String> ids = new ArrayList<>();
        Matcher matcher = CALL_ID.matcher(spool);
        while (matcher.find()) {
            ids.add(matcher.group(1));
        }
        return ids;
    }

    private static void awaitUntil(BooleanSupplier condition) throws InterruptedException {
        Instant deadline = Instant.now().plus(Duration.ofMinutes(2));
        while (!condition.getAsBoolean()) {
            assertThat(Instant.now()).as("waited two minutes").isBefore(deadline);
            Thread.sleep(50);
        }
    }

    /** A streamed response read event by event on a thread of its own, until it ends or breaks. */
    private static final class CutStream {

        final List<String> events = new CopyOnWriteArrayList<>();
        final CountDownLatch callCompleted = new CountDownLatch(1);
        volatile Exception failure;
        Thread reader;

        static CutStream open(HttpClient http, HttpRequest request) {
            CutStream stream = new CutStream();
            stream.reader = Thread.ofPlatform().start(() -> stream.read(http, request));
            return stream;
        }

        private void read(HttpClient http, HttpRequest request) {
            try {
                HttpResponse<Stream<String>> response = http.send(request, HttpResponse.BodyHandlers.ofLines());
                response.body().filter(line -> line.startsWith("event: ")).map(line -> line.substring(7)).forEach(event -> {
                    events.add(event);
                    // The code call's output item is done once the next item begins.
                    if ("response.output_item.added".equals(event) && events.stream().filter(event::equals).count() == 2) {
                        callCompleted.countDown();
                    }
                });
            } catch (Exception e) {
                failure = e;
            }
        }
    }
}
