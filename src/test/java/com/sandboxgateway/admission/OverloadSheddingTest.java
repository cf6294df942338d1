package com.sandboxgateway.admission;

import static com.github.tomakehurst.wiremock.client.WireMock.okJson;
import static com.github.tomakehurst.wiremock.client.WireMock.post;
import static com.github.tomakehurst.wiremock.core.WireMockConfiguration.wireMockConfig;
import static com.sandboxgateway.support.OpenAiStub.example;
import static org.assertj.core.api.Assertions.assertThat;

import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.Semaphore;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.function.BooleanSupplier;
import java.util.stream.IntStream;

import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.Test;
import org.springframework.beans.factory.annotation.Autowired;
import org.springframework.boot.test.context.SpringBootTest;
import org.springframework.boot.test.web.server.LocalServerPort;
import org.springframework.test.context.ActiveProfiles;
import org.springframework.test.context.DynamicPropertyRegistry;
import org.springframework.test.context.DynamicPropertySource;

import com.github.tomakehurst.wiremock.WireMockServer;
import com.github.tomakehurst.wiremock.extension.ResponseDefinitionTransformerV2;
import com.github.tomakehurst.wiremock.http.ResponseDefinition;
import com.github.tomakehurst.wiremock.stubbing.ServeEvent;
import com.sandboxgateway.support.GatewayIntegrationTest;

import io.micrometer.core.instrument.Counter;
import io.micrometer.core.instrument.MeterRegistry;

/**
 * Past its capacity a replica sheds load instead of queueing it: with every place taken by requests
 * OpenAI has not answered yet (WireMock holds them at a gate), further requests are answered {@code 503
 * overloaded} with {@code Retry-After} while those are still held, never reach OpenAI, and once the
 * held ones finish the gateway serves normally again. Nothing here depends on how fast the machine is.
 */
@SpringBootTest(webEnvironment = SpringBootTest.WebEnvironment.RANDOM_PORT, properties = {
        "gateway.overload.max-in-flight=4", "gateway.overload.max-waiting=2", "gateway.overload.max-queue-wait=20ms",
        "gateway.overload.retry-after=2s", "gateway.upstream.read-timeout=5m"})
@ActiveProfiles("test")
class OverloadSheddingTest {

    private static final int PLACES = 4;
    private static final Gate GATE = new Gate();
    private static final WireMockServer slowOpenAi = new WireMockServer(wireMockConfig().dynamicPort()
            .bindAddress("127.0.0.1").containerThreads(32).extensions(GATE));

    @LocalServerPort
    int port;

    @Autowired
    MeterRegistry meters;

    @DynamicPropertySource
    static void upstream(DynamicPropertyRegistry registry) {
        slowOpenAi.start();
        slowOpenAi.stubFor(post("/v1/responses").willReturn(okJson(example("responses.create.response.completed.json"))));
        registry.add("gateway.upstream.base-url", slowOpenAi::baseUrl);
    }

    @AfterAll
    static void stopOpenAi() {
        GATE.open();
        slowOpenAi.stop();
    }

    @Test
    void shouldShedWhatFindsNoPlaceAndServeAgainOnceThePlacesFree() throws Exception {
        try (HttpClient http = HttpClient.newHttpClient()) {
            List<CompletableFuture<HttpResponse<String>>> held = IntStream.range(0, PLACES).mapToObj(i -> send(http)).toList();
            awaitUntil(() -> GATE.arrived.get() == PLACES);

            List<HttpResponse<String>> shed = IntStream.range(0, 10).mapToObj(i -> send(http)).toList().stream()
                    .map(CompletableFuture::join).toList();

            assertThat(shed).allSatisfy(response -> {
                assertThat(response.statusCode()).isEqualTo(503);
                assertThat(response.body()).contains("\"code\":\"overloaded\"", "\"type\":\"server_error\"");
                assertThat(response.headers().firstValue("Retry-After")).hasValue("2");
                assertThat(response.headers().firstValue("x-should-retry")).hasValue("true");
            });
            assertThat(held).noneMatch(CompletableFuture::isDone);
            assertThat(GATE.arrived.get()).as("shed requests never reach OpenAI").isEqualTo(PLACES);
            assertThat(meters.get(OverloadShedding.SHED).counters().stream().mapToDouble(Counter::count).sum()).isEqualTo(10.0);

            GATE.open();
            assertThat(held).allSatisfy(response -> assertThat(response.join().statusCode()).isEqualTo(200));
            assertThat(IntStream.range(0, PLACES).mapToObj(i -> send(http)).toList())
                    .allSatisfy(response -> assertThat(response.join().statusCode()).isEqualTo(200));
            // A place is given back just after the answer's last byte, so the client may be a moment ahead.
            awaitUntil(() -> meters.get("gateway.overload.in_flight").gauge().value() == 0);
        }
    }

    private CompletableFuture<HttpResponse<String>> send(HttpClient http) {
        return http.sendAsync(HttpRequest.newBuilder(URI.create("http://127.0.0.1:" + port + "/v1/responses"))
                .header("Authorization", "Bearer " + GatewayIntegrationTest.ALICE_KEY).header("Content-Type", "application/json")
                .POST(HttpRequest.BodyPublishers.ofString("{\"model\":\"gpt-4.1\",\"input\":\"hi\"}")).build(),
                HttpResponse.BodyHandlers.ofString());
    }

    private static void awaitUntil(BooleanSupplier condition) throws InterruptedException {
        Instant deadline = Instant.now().plus(Duration.ofMinutes(1));
        while (!condition.getAsBoolean()) {
            assertThat(Instant.now()).as("waited a minute").isBefore(deadline);
            Thread.sleep(10);
        }
    }

    /** Holds every request OpenAI gets until {@link #open()}: requests in flight for as long as the test needs. */
    private static final class Gate implements ResponseDefinitionTransformerV2 {

        final AtomicInteger arrived = new AtomicInteger();
        private final Semaphore opened = new Semaphore(0);
        private volatile boolean open;

        @Override
        public ResponseDefinition transform(ServeEvent serveEvent) {
            arrived.incrementAndGet();
            if (!open) {
                opened.acquireUninterruptibly();
                opened.release();
            }
            return serveEvent.getResponseDefinition();
        }

        void open() {
            open = true;
            opened.release();
        }

        @Override
        public String getName() {
            return "gate";
        }
    }
}
