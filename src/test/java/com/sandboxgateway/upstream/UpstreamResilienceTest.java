package com.sandboxgateway.upstream;

import static com.github.tomakehurst.wiremock.client.WireMock.aResponse;
import static com.github.tomakehurst.wiremock.client.WireMock.get;
import static com.github.tomakehurst.wiremock.client.WireMock.getRequestedFor;
import static com.github.tomakehurst.wiremock.client.WireMock.okJson;
import static com.github.tomakehurst.wiremock.client.WireMock.post;
import static com.github.tomakehurst.wiremock.client.WireMock.postRequestedFor;
import static com.github.tomakehurst.wiremock.client.WireMock.serverError;
import static com.github.tomakehurst.wiremock.client.WireMock.urlEqualTo;
import static com.github.tomakehurst.wiremock.client.WireMock.urlPathEqualTo;
import static com.sandboxgateway.support.OpenAiStub.example;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;

import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.springframework.beans.factory.annotation.Autowired;

import com.github.tomakehurst.wiremock.http.Fault;
import com.openai.client.OpenAIClient;
import com.openai.client.okhttp.OpenAIOkHttpClient;
import com.github.tomakehurst.wiremock.stubbing.Scenario;
import com.openai.errors.InternalServerException;
import com.openai.errors.OpenAIServiceException;
import com.openai.errors.RateLimitException;
import com.openai.models.responses.Response;
import com.openai.models.responses.ResponseCreateParams;
import com.sandboxgateway.support.GatewayIntegrationTest;

class UpstreamResilienceTest extends GatewayIntegrationTest {

    private static final ResponseCreateParams HELLO = ResponseCreateParams.builder().model("gpt-4.1").input("hi").build();

    @Autowired
    UpstreamClient upstream;

    @AfterEach
    void noConnectionStaysLeased() throws InterruptedException {
        for (int i = 0; i < 100 && upstream.poolStats().getLeased() > 0; i++) {
            Thread.sleep(50);
        }
        assertThat(upstream.poolStats().getLeased()).isZero();
    }

    @Test
    void shouldRetryAReadThatLostItsConnectionThenAnswerUpstreamError() {
        openAi.stubFor(get("/v1/files").willReturn(aResponse().withFault(Fault.CONNECTION_RESET_BY_PEER)));

        assertStatus(() -> sdk(ALICE_KEY).files().list(), 502, "upstream_error");
        openAi.verify(3, getRequestedFor(urlEqualTo("/v1/files")));
    }

    @Test
    void shouldNeverResendAResponsesCallThatReachedTheUpstream() {
        for (Fault fault : new Fault[] {Fault.EMPTY_RESPONSE, Fault.MALFORMED_RESPONSE_CHUNK, Fault.RANDOM_DATA_THEN_CLOSE,
                Fault.CONNECTION_RESET_BY_PEER}) {
            openAi.resetAll();
            openAi.stubFor(post("/v1/responses").willReturn(aResponse().withFault(fault)));

            assertStatus(() -> sdk(ALICE_KEY).responses().create(HELLO), 502, "upstream_error");
            openAi.verify(1, postRequestedFor(urlEqualTo("/v1/responses")));
        }
    }

    @Test
    void shouldTellTheSdkNotToResendAPostThatReachedTheUpstream() {
        OpenAIClient retrying = OpenAIOkHttpClient.builder().baseUrl(gatewayUrl() + "/v1").apiKey(ALICE_KEY).maxRetries(2).build();
        openAi.stubFor(post("/v1/responses").willReturn(aResponse().withFault(Fault.CONNECTION_RESET_BY_PEER)));

        assertNotRetried(() -> retrying.responses().create(HELLO), 502, "upstream_error");
        openAi.verify(1, postRequestedFor(urlEqualTo("/v1/responses")));

        openAi.resetAll();
        openAi.stubFor(post("/v1/responses").willReturn(okJson(example("responses.create.response.completed.json"))
                .withFixedDelay(4_000)));

        assertNotRetried(() -> retrying.responses().create(HELLO), 504, "upstream_timeout");
        openAi.verify(1, postRequestedFor(urlEqualTo("/v1/responses")));
    }

    @Test
    void shouldLetClientsResendAReadThatFailedUpstream() throws Exception {
        openAi.stubFor(get("/v1/files").willReturn(aResponse().withFault(Fault.CONNECTION_RESET_BY_PEER)));

        HttpResponse<String> answer = raw(HttpRequest.newBuilder().header("Authorization", "Bearer " + ALICE_KEY).GET(), "/v1/files");

        assertThat(answer.statusCode()).isEqualTo(502);
        assertThat(answer.headers().firstValue("x-should-retry")).hasValue("true");
    }

    @Test
    void shouldAnswerMalformedJsonWithUpstreamError() {
        openAi.stubFor(post("/v1/responses").willReturn(okJson("{\"id\":\"resp_1\",\"output\":[")));

        assertStatus(() -> sdk(ALICE_KEY).responses().create(HELLO), 502, "upstream_error");
    }

    @Test
    void shouldAnswerASlowUpstreamWithTimeoutWithoutRetrying() {
        openAi.stubFor(post("/v1/responses").willReturn(okJson(example("responses.create.response.completed.json"))
                .withFixedDelay(4_000)));

        assertStatus(() -> sdk(ALICE_KEY).responses().create(HELLO), 504, "upstream_timeout");
        openAi.verify(1, postRequestedFor(urlEqualTo("/v1/responses")));
    }

    @Test
    void shouldRetryA429HonouringRetryAfter() {
        openAi.stubFor(post("/v1/responses").inScenario("quota").whenScenarioStateIs(Scenario.STARTED)
                .willReturn(rateLimited("0")).willSetStateTo("second"));
        openAi.stubFor(post("/v1/responses").inScenario("quota").whenScenarioStateIs("second")
                .willReturn(rateLimited("1")).willSetStateTo("third"));
        openAi.stubFor(post("/v1/responses").inScenario("quota").whenScenarioStateIs("third")
                .willReturn(okJson(example("responses.create.response.completed.json"))));

        Response response = sdk(ALICE_KEY).responses().create(HELLO);

        assertThat(response.id()).isEqualTo(EXAMPLE_RESPONSE_ID);
        openAi.verify(3, postRequestedFor(urlEqualTo("/v1/responses")));
    }

    @Test
    void shouldRelayA429WhoseRetryAfterIsTooLong() throws Exception {
        openAi.stubFor(post("/v1/responses").willReturn(rateLimited("60")));

        HttpResponse<String> answer = raw(HttpRequest.newBuilder().header("Authorization", "Bearer " + ALICE_KEY)
                .header("Content-Type", "application/json")
                .POST(HttpRequest.BodyPublishers.ofString("{\"model\":\"gpt-4.1\",\"input\":\"hi\"}")), "/v1/responses");

        assertThat(answer.statusCode()).isEqualTo(429);
        assertThat(answer.headers().firstValue("retry-after")).hasValue("60");
        assertThat(answer.body()).contains("rate_limit_exceeded");
        openAi.verify(1, postRequestedFor(urlEqualTo("/v1/responses")));
    }

    @Test
    void shouldRetryServerErrorsOnlyOnReads() throws Exception {
        openAi.stubFor(post("/v1/responses").willReturn(serverError()));
        String file = createdFile(ALICE_KEY, unique("file-"));
        openAi.stubFor(get("/v1/files/" + file).inScenario("flaky").whenScenarioStateIs(Scenario.STARTED)
                .willReturn(aResponse().withStatus(503)).willSetStateTo("recovered"));
        openAi.stubFor(get("/v1/files/" + file).inScenario("flaky").whenScenarioStateIs("recovered")
                .willReturn(okJson(example("files.object.json").replace(EXAMPLE_FILE_ID, file))));

        assertStatus(() -> sdk(ALICE_KEY).responses().create(HELLO), 500, null);
        assertThat(sdk(ALICE_KEY).files().retrieve(file).id()).isEqualTo(file);
        openAi.verify(1, postRequestedFor(urlEqualTo("/v1/responses")));
        openAi.verify(2, getRequestedFor(urlEqualTo("/v1/files/" + file)));
    }

    @Test
    void shouldOpenTheBreakerAfterRepeatedFailuresAndCloseItOnRecovery() throws Exception {
        openAi.stubFor(post("/v1/responses").willReturn(serverError()));
        for (int i = 0; i < 6; i++) {
            assertStatus(() -> sdk(ALICE_KEY).responses().create(HELLO), 500, null);
        }

        HttpResponse<String> refused = raw(HttpRequest.newBuilder().header("Authorization", "Bearer " + ALICE_KEY)
                .header("Content-Type", "application/json")
                .POST(HttpRequest.BodyPublishers.ofString("{\"model\":\"gpt-4.1\",\"input\":\"hi\"}")), "/v1/responses");
        assertThat(refused.statusCode()).isEqualTo(503);
        assertThat(refused.body()).contains("upstream_unavailable");
        assertThat(refused.headers().firstValue("retry-after")).hasValue("2");
        openAi.verify(6, postRequestedFor(urlEqualTo("/v1/responses")));

        openAi.stubFor(post("/v1/responses").willReturn(okJson(example("responses.create.response.completed.json"))));
        Response recovered = null;
        for (int i = 0; i < 100 && recovered == null; i++) {
            try {
                recovered = sdk(ALICE_KEY).responses().create(HELLO);
            } catch (InternalServerException stillOpen) {
                Thread.sleep(100);
            }
        }
        assertThat(recovered).as("the breaker half-opens after its wait and closes on success").isNotNull();
    }

    @Test
    void shouldCapConcurrentCallsPerTeamWithoutStarvingOtherTeams() throws Exception {
        openAi.stubFor(post("/v1/responses").willReturn(okJson(example("responses.create.response.completed.json"))
                .withFixedDelay(1_500)));
        List<Future<Response>> running = new ArrayList<>();
        try (ExecutorService pool = Executors.newVirtualThreadPerTaskExecutor()) {
            for (int i = 0; i < 4; i++) {
                running.add(pool.submit(() -> sdk(ALICE_KEY).responses().create(HELLO)));
            }
            awaitRequests(4);

            assertThatThrownBy(() -> sdk(CAROL_KEY).responses().create(HELLO))
                    .isInstanceOfSatisfying(RateLimitException.class, e -> assertThat(e.code()).hasValue("rate_limit_exceeded"));
            assertThat(sdk(BOB_KEY).responses().create(HELLO).id()).isEqualTo(EXAMPLE_RESPONSE_ID);
            for (Future<Response> call : running) {
                assertThat(call.get().id()).isEqualTo(EXAMPLE_RESPONSE_ID);
            }
        }
    }

    @Test
    void shouldAnswerADownloadBrokenBeforeItsFirstByteWithUpstreamError() throws Exception {
        String file = createdFile(ALICE_KEY, unique("file-"));
        openAi.stubFor(get(urlPathEqualTo("/v1/files/" + file + "/content"))
                .willReturn(aResponse().withHeader("Content-Type", "text/csv").withFault(Fault.MALFORMED_RESPONSE_CHUNK)));

        assertStatus(() -> sdk(ALICE_KEY).files().content(file), 502, "upstream_error");
    }

    private void awaitRequests(int count) throws InterruptedException {
        for (int i = 0; i < 200 && openAi.findAll(postRequestedFor(urlEqualTo("/v1/responses"))).size() < count; i++) {
            Thread.sleep(20);
        }
    }

    private static com.github.tomakehurst.wiremock.client.ResponseDefinitionBuilder rateLimited(String retryAfter) {
        return aResponse().withStatus(429).withHeader("Content-Type", "application/json").withHeader("retry-after", retryAfter)
                .withBody(example("error.429-rate-limit.json"));
    }

    /** The SDK, allowed two retries, raised the gateway's first answer: {@code x-should-retry: false} held it back. */
    private static void assertNotRetried(org.junit.jupiter.api.function.Executable call, int status, String code) {
        assertThatThrownBy(call::execute).isInstanceOfSatisfying(OpenAIServiceException.class, e -> {
            assertThat(e.statusCode()).isEqualTo(status);
            assertThat(e.code()).hasValue(code);
            assertThat(e.headers().values("x-should-retry")).containsExactly("false");
        });
    }

    private static void assertStatus(org.junit.jupiter.api.function.Executable call, int status, String code) {
        assertThatThrownBy(call::execute).isInstanceOfSatisfying(OpenAIServiceException.class, e -> {
            assertThat(e.statusCode()).isEqualTo(status);
            if (code != null) {
                assertThat(e.code()).hasValue(code);
            }
        });
    }
}
