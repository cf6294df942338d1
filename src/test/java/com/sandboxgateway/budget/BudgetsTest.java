package com.sandboxgateway.budget;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.io.IOException;
import java.math.BigDecimal;
import java.net.InetSocketAddress;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.time.LocalDate;
import java.time.ZoneOffset;
import java.util.ArrayList;
import java.util.List;
import java.util.UUID;
import java.util.concurrent.Callable;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.atomic.AtomicInteger;

import org.junit.jupiter.api.Test;
import org.springframework.beans.factory.annotation.Autowired;
import org.springframework.boot.test.web.server.LocalManagementPort;
import org.springframework.test.context.TestPropertySource;

import com.openai.client.OpenAIClient;
import com.openai.client.okhttp.OpenAIOkHttpClient;
import com.openai.core.http.StreamResponse;
import com.openai.errors.RateLimitException;
import com.openai.models.containers.ContainerCreateParams;
import com.openai.models.responses.Response;
import com.openai.models.responses.ResponseCreateParams;
import com.openai.models.responses.ResponseRetrieveParams;
import com.openai.models.responses.ResponseStreamEvent;
import com.openai.models.responses.Tool;
import com.sandboxgateway.support.GatewayIntegrationTest;
import com.sandboxgateway.support.PlantedSecrets;
import com.sandboxgateway.support.OpenAiStub;
import com.sandboxgateway.support.ScriptedUpstream;
import com.sandboxgateway.support.ScriptedUpstreamIntegrationTest;

import com.sun.net.httpserver.HttpServer;

/**
 * Rate limits, turn budgets and spend caps on the memory backend, through the official SDK against a
 * scripted model that executes as much code as a request lets it.
 */
@TestPropertySource(properties = {
        "gateway.policy.teams.platform.rate-limit.requests-per-minute=1",
        "gateway.policy.teams.platform.rate-limit.burst=3",
        "gateway.policy.teams.analytics.turns.max-per-session=3",
        "gateway.policy.teams.finance.spend.max-usd-per-team-per-day=1",
})
class BudgetsTest extends ScriptedUpstreamIntegrationTest {

    private static final String ROOT_KEY = GatewayIntegrationTest.ADMIN_KEY;
    private static final String BOB_KEY = GatewayIntegrationTest.BOB_KEY;

    @Autowired
    private Budgets budgets;


    @LocalManagementPort
    private int managementPort;

    @Test
    void shouldRefuseRequestsBeyondTheBurstWithRetryAfterAndRateLimitHeaders() throws Exception {
        ScriptedUpstream.answerWith(new CodeRunningModel(0, 10));
        for (int i = 0; i < 3; i++) {
            HttpResponse<String> allowed = get("/v1/containers/cntr_none/files", ROOT_KEY, null);
            assertThat(allowed.headers().firstValue("RateLimit-Limit")).as("the quota of the window").hasValue("1");
            assertThat(allowed.headers().firstValue("RateLimit-Policy")).hasValue("1;w=60;burst=3");
            assertThat(allowed.headers().firstValue("RateLimit-Remaining")).hasValue(Integer.toString(2 - i));
            assertThat(allowed.headers().firstValueAsLong("RateLimit-Reset").orElseThrow()).isPositive();
        }

        assertThatThrownBy(() -> sdk(ROOT_KEY).responses().create(request("gpt-4.1", null)))
                .isInstanceOfSatisfying(RateLimitException.class, e -> {
                    assertThat(e.code()).hasValue("rate_limit_exceeded");
                    assertThat(e.headers().values("x-should-retry")).containsExactly("true");
                    assertThat(e.headers().values("Retry-After")).singleElement()
                            .satisfies(seconds -> assertThat(Long.parseLong(seconds)).isBetween(1L, 60L));
                    assertThat(e.headers().values("RateLimit-Remaining")).containsExactly("0");
                    assertThat(e.getMessage()).contains("your limit of 1 requests per minute (bursts of 3)");
                });

        HttpResponse<String> refill = send(HttpRequest.newBuilder(URI.create("http://127.0.0.1:" + managementPort
                + "/actuator/ratelimits/root")).DELETE(), ROOT_KEY, null);
        assertThat(refill.statusCode()).isEqualTo(200);
        assertThat(get("/v1/containers/cntr_none/files", ROOT_KEY, null).headers().firstValue("RateLimit-Remaining")).hasValue("2");
    }

    @Test
    void shouldGiveConcurrentRequestsOfOneSessionNoMoreTurnsThanItHas() throws Exception {
        CodeRunningModel model = new CodeRunningModel(2, 10);
        ScriptedUpstream.answerWith(model);
        String session = "session-" + UUID.randomUUID();

        List<HttpResponse<String>> answers = concurrently(8, () -> post("/v1/responses", ALICE_KEY, session,
                "{\"model\":\"gpt-4.1\",\"input\":\"plot\",\"tools\":[{\"type\":\"code_interpreter\",\"container\":{\"type\":\"auto\"}}]}"));

        int executed = model.executed.get();
        assertThat(executed).as("never more than the session's 3 turns").isBetween(2, 3);
        assertThat(answers).filteredOn(answer -> answer.statusCode() == 429).hasSizeGreaterThanOrEqualTo(6)
                .allSatisfy(answer -> assertThat(answer.body()).contains("turn_budget_exhausted"));
        assertThat(budgets.sessionTurns("alice", session)).as("unused turns went back").hasValueSatisfying(turns -> {
            assertThat(turns.used()).isEqualTo(executed);
            assertThat(turns.remaining()).isEqualTo(3 - executed);
        });

        concurrently(8, () -> post("/v1/responses", ALICE_KEY, session,
                "{\"model\":\"gpt-4.1\",\"input\":\"plot\",\"tools\":[{\"type\":\"code_interpreter\",\"container\":{\"type\":\"auto\"}}]}"));
        assertThat(model.executed.get()).isEqualTo(3);
    }

    @Test
    void shouldGiveBackTheTurnsAResponseDidNotUse() throws Exception {
        CodeRunningModel model = new CodeRunningModel(1, 10);
        ScriptedUpstream.answerWith(model);
        String session = "session-" + UUID.randomUUID();

        HttpResponse<String> first = post("/v1/responses", ALICE_KEY, session, codeRequest(false, false));

        assertThat(first.statusCode()).isEqualTo(200);
        assertThat(first.headers().firstValue("X-Gateway-Turns-Remaining")).hasValue("2");
        assertThat(first.headers().firstValue("X-Gateway-Session")).hasValue(session);
        HttpResponse<String> second = post("/v1/responses", ALICE_KEY, session, codeRequest(false, false));
        assertThat(second.headers().firstValue("X-Gateway-Turns-Remaining")).hasValue("1");
        assertThat(model.executed.get()).isEqualTo(2);
        assertThat(get("/v1/files", ALICE_KEY, session).headers().firstValue("X-Gateway-Turns-Remaining"))
                .as("on any route, for the session the client names").hasValue("1");
    }

    @Test
    void shouldGiveAllTurnsBackWhenTheUpstreamRefusedTheRequest() throws Exception {
        ScriptedUpstream.answerWith(exchange -> {
            byte[] error = "{\"error\":{\"message\":\"bad model\",\"type\":\"invalid_request_error\",\"param\":\"model\",\"code\":null}}"
                    .getBytes(StandardCharsets.UTF_8);
            exchange.getResponseHeaders().set("Content-Type", "application/json");
            exchange.sendResponseHeaders(400, error.length);
            exchange.getResponseBody().write(error);
        });
        String session = "session-" + UUID.randomUUID();

        HttpResponse<String> refused = post("/v1/responses", ALICE_KEY, session, codeRequest(false, false));

        assertThat(refused.statusCode()).isEqualTo(400);
        assertThat(get("/v1/files", ALICE_KEY, session).headers().firstValue("X-Gateway-Turns-Remaining"))
                .as("the reservation went back: nothing ran").hasValue("3");
    }

    @Test
    void shouldGiveAllTurnsBackWhenALaterStepRefusedTheRequest() throws Exception {
        String session = "session-" + UUID.randomUUID();
        String withSecret = codeRequest(false, false).replace("\"input\":\"plot\"",
                "\"input\":\"plot, then deploy with " + PlantedSecrets.githubToken() + "\"");

        HttpResponse<String> refused = post("/v1/responses", ALICE_KEY, session, withSecret);

        assertThat(refused.statusCode()).as(refused.body()).isEqualTo(400);
        assertThat(refused.body()).contains("secret_detected");
        assertThat(refused.headers().firstValue("X-Gateway-Turns-Remaining")).as("reserved by the admission, before the refusal")
                .hasValue("3");
        assertThat(get("/v1/files", ALICE_KEY, session).headers().firstValue("X-Gateway-Turns-Remaining"))
                .as("the reservation went back: the request never went upstream").hasValue("3");
    }

    @Test
    void shouldContinueTheSessionOfThePreviousResponseAndLowerMaxToolCalls() {
        CodeRunningModel model = new CodeRunningModel(2, 10);
        ScriptedUpstream.answerWith(model);
        OpenAIClient alice = sdk(ALICE_KEY);

        Response first = alice.responses().create(request("gpt-4.1", null));
        Response second = alice.responses().create(request("gpt-4.1", first.id()));

        assertThat(model.executed.get()).as("2 turns, then the 1 left of the session's 3").isEqualTo(3);
        assertThat(budgets.sessionTurns("alice", first.id())).hasValueSatisfying(turns -> assertThat(turns.used()).isEqualTo(3));
        assertThatThrownBy(() -> alice.responses().create(request("gpt-4.1", second.id())))
                .isInstanceOfSatisfying(RateLimitException.class, e -> assertThat(e.code()).hasValue("turn_budget_exhausted"));
        assertThat(model.executed.get()).isEqualTo(3);
    }

    @Test
    void shouldTellTheSdksNotToRetryASpentBudget() throws Exception {
        ScriptedUpstream.answerWith(new CodeRunningModel(3, 10));
        String session = "session-" + UUID.randomUUID();
        AtomicInteger sent = new AtomicInteger();
        HttpServer counting = countingProxy(sent);
        try {
            OpenAIClient retrying = OpenAIOkHttpClient.builder().baseUrl("http://127.0.0.1:" + counting.getAddress().getPort() + "/v1")
                    .apiKey(ALICE_KEY).maxRetries(2).putHeader("X-Gateway-Session", session).build();
            retrying.responses().create(request("gpt-4.1", null));

            assertThatThrownBy(() -> retrying.responses().create(request("gpt-4.1", null)))
                    .isInstanceOfSatisfying(RateLimitException.class, e -> {
                        assertThat(e.code()).hasValue("turn_budget_exhausted");
                        assertThat(e.headers().values("x-should-retry")).containsExactly("false");
                    });
            assertThat(sent.get()).as("the refusal was not sent again").isEqualTo(2);
        } finally {
            counting.stop(0);
        }
    }

    @Test
    void shouldCountStreamedTurnsAndSpendFromTheFinalEvent() {
        CodeRunningModel model = new CodeRunningModel(2, 10);
        ScriptedUpstream.answerWith(model);
        String session = "session-" + UUID.randomUUID();
        OpenAIClient alice = sdkWithSession(ALICE_KEY, session);
        BigDecimal spentBefore = budgets.teamSpend("analytics").spentUsd();

        try (StreamResponse<ResponseStreamEvent> stream = alice.responses().createStreaming(request("gpt-4.1", null))) {
            assertThat(stream.stream().filter(ResponseStreamEvent::isCompleted).count()).isEqualTo(1);
        }

        assertThat(budgets.sessionTurns("alice", session)).hasValueSatisfying(turns -> assertThat(turns.used()).isEqualTo(2));
        assertThat(budgets.teamSpend("analytics").spentUsd().subtract(spentBefore))
                .as("1,000 input and 10 output tokens of gpt-4.1, one 1g container").isEqualByComparingTo("0.03208");
    }

    @Test
    void shouldAnswerAStreamWithTheTurnsItsSessionHasBeforeTheStreamRuns() throws Exception {
        ScriptedUpstream.answerWith(new CodeRunningModel(1, 10));
        String session = "session-" + UUID.randomUUID();

        HttpResponse<String> fresh = post("/v1/responses", ALICE_KEY, session, codeRequest(true, false));
        HttpResponse<String> second = post("/v1/responses", ALICE_KEY, session, codeRequest(true, false));
        HttpResponse<String> newSession = post("/v1/responses", ALICE_KEY, null, codeRequest(true, false));

        assertThat(fresh.body()).contains("response.completed");
        assertThat(fresh.headers().firstValue("X-Gateway-Turns-Remaining")).as("all 3 of a fresh session").hasValue("3");
        assertThat(second.headers().firstValue("X-Gateway-Turns-Remaining")).as("the first stream ran one").hasValue("2");
        assertThat(newSession.headers().firstValue("X-Gateway-Turns-Remaining")).hasValue("3");
        assertThat(get("/v1/files", ALICE_KEY, session).headers().firstValue("X-Gateway-Turns-Remaining")).hasValue("1");
    }

    @Test
    void shouldSettleABackgroundResponseWhenItIsFetched() {
        CodeRunningModel model = new CodeRunningModel(1, 10);
        ScriptedUpstream.answerWith(model);
        String session = "session-" + UUID.randomUUID();
        OpenAIClient alice = sdkWithSession(ALICE_KEY, session);
        BigDecimal spentBefore = budgets.teamSpend("analytics").spentUsd();

        Response queued = alice.responses().create(request("gpt-4.1", null).toBuilder().background(true).build());
        assertThat(budgets.sessionTurns("alice", session)).as("reserved while it runs")
                .hasValueSatisfying(turns -> assertThat(turns.used()).isEqualTo(3));

        Response finished = alice.responses().retrieve(queued.id(), ResponseRetrieveParams.none());
        alice.responses().retrieve(queued.id(), ResponseRetrieveParams.none());

        assertThat(finished.output()).hasSize(1);
        assertThat(budgets.sessionTurns("alice", session)).as("settled once, to the one turn it ran")
                .hasValueSatisfying(turns -> {
                    assertThat(turns.used()).isEqualTo(1);
                    assertThat(turns.remaining()).isEqualTo(2);
                });
        assertThat(budgets.teamSpend("analytics").spentUsd().subtract(spentBefore)).as("charged once, when fetched finished")
                .isEqualByComparingTo("0.03208");
    }

    @Test
    void shouldPriceABackgroundResponsesContainerAtTheTierItsRequestAskedFor() {
        ScriptedUpstream.answerWith(new CodeRunningModel(1, 10));
        OpenAIClient alice = sdkWithSession(ALICE_KEY, "session-" + UUID.randomUUID());
        BigDecimal spentBefore = budgets.teamSpend("analytics").spentUsd();

        Response queued = alice.responses().create(request("gpt-4.1", null).toBuilder().background(true)
                .tools(List.of(Tool.ofCodeInterpreter(Tool.CodeInterpreter.builder().container(
                        Tool.CodeInterpreter.Container.CodeInterpreterToolAuto.builder()
                                .memoryLimit(Tool.CodeInterpreter.Container.CodeInterpreterToolAuto.MemoryLimit._4G).build())
                        .build()))).build());
        alice.responses().retrieve(queued.id(), ResponseRetrieveParams.none());

        assertThat(budgets.teamSpend("analytics").spentUsd().subtract(spentBefore))
                .as("1,000 input and 10 output tokens of gpt-4.1, one 4g container").isEqualByComparingTo("0.12208");
    }

    @Test
    void shouldChargeAResponseTheUpstreamShowsTwiceOnlyOnce() throws Exception {
        // The same finished response (one code block, its container, its tokens) answers two requests of one session.
        String answer = OpenAiStub.example("responses.create.response.completed.json")
                .replace(GatewayIntegrationTest.EXAMPLE_RESPONSE_ID, "resp_" + UUID.randomUUID())
                .replace(GatewayIntegrationTest.EXAMPLE_CONTAINER_ID, "cntr_" + UUID.randomUUID())
                .replace("ci_68a93ab8671881a39e3ac17e69d804a6", "ci_" + UUID.randomUUID())
                .replace("msg_68a93abc0f7c81a3b2e1d0c9f8e7d6c5", "msg_" + UUID.randomUUID());
        ScriptedUpstream.answerWith(exchange -> {
            byte[] body = answer.getBytes(StandardCharsets.UTF_8);
            exchange.getResponseHeaders().add("Content-Type", "application/json");
            exchange.sendResponseHeaders(200, body.length);
            exchange.getResponseBody().write(body);
        });
        String session = "session-" + UUID.randomUUID();
        Counter spend = budgets.spendCounter("analytics", LocalDate.now(ZoneOffset.UTC));
        HttpResponse<String> first = post("/v1/responses", ALICE_KEY, session, codeRequest(false, false));
        BigDecimal spentOnce = budgets.teamSpend("analytics").spentUsd();
        long spendLeftOnce = budgets.counters().remaining(List.of(spend));

        HttpResponse<String> second = post("/v1/responses", ALICE_KEY, session, codeRequest(false, false));

        assertThat(first.headers().firstValue("X-Gateway-Turns-Remaining")).hasValue("2");
        assertThat(second.statusCode()).isEqualTo(200);
        assertThat(second.headers().firstValue("X-Gateway-Turns-Remaining")).as("its reservation given back whole").hasValue("2");
        assertThat(budgets.sessionTurns("alice", session)).hasValueSatisfying(turns -> {
            assertThat(turns.used()).isEqualTo(1);
            assertThat(turns.remaining()).isEqualTo(2);
        });
        assertThat(budgets.teamSpend("analytics").spentUsd()).as("tokens and container charged once").isEqualByComparingTo(spentOnce);
        assertThat(budgets.counters().remaining(List.of(spend))).as("the spend counter moved once").isEqualTo(spendLeftOnce);
    }

    @Test
    void shouldRefuseAPaidRequestOnceTheTeamSpentItsDailyCap() {
        ScriptedUpstream.answerWith(new CodeRunningModel(1, 200_000));
        OpenAIClient bob = sdk(BOB_KEY);
        budgets.resetTeamSpend("finance");

        bob.responses().create(request("gpt-4.1", null));

        assertThat(budgets.teamSpend("finance").spentUsd())
                .as("1,000 input tokens at $2/M, 200,000 output tokens at $8/M, one 1g container at $0.03")
                .isEqualByComparingTo(new BigDecimal("1.632"));
        assertThatThrownBy(() -> bob.containers().create(ContainerCreateParams.builder().name("more").build()))
                .isInstanceOfSatisfying(RateLimitException.class, e -> {
                    assertThat(e.code()).hasValue("spend_budget_exhausted");
                    assertThat(e.headers().values("Retry-After")).isNotEmpty();
                    assertThat(e.headers().values("x-should-retry")).containsExactly("false");
                });

        budgets.resetTeamSpend("finance");
        bob.containers().create(ContainerCreateParams.builder().name("more").build());
        assertThat(budgets.teamSpend("finance").spentUsd()).isEqualByComparingTo(new BigDecimal("0.03"));
    }

    /** Counts the requests an SDK sends (on arrival, so the count is final once the SDK returned) and passes them on. */
    private HttpServer countingProxy(AtomicInteger sent) throws IOException {
        HttpServer proxy = HttpServer.create(new InetSocketAddress("127.0.0.1", 0), 0);
        HttpClient http = HttpClient.newHttpClient();
        proxy.createContext("/", exchange -> {
            sent.incrementAndGet();
            HttpRequest.Builder forwarded = HttpRequest.newBuilder(URI.create("http://127.0.0.1:" + port + exchange.getRequestURI()))
                    .method(exchange.getRequestMethod(), HttpRequest.BodyPublishers.ofByteArray(exchange.getRequestBody().readAllBytes()));
            for (String name : List.of("Authorization", "Content-Type", "X-Gateway-Session")) {
                String value = exchange.getRequestHeaders().getFirst(name);
                if (value != null) {
                    forwarded.header(name, value);
                }
            }
            try {
                HttpResponse<byte[]> answer = http.send(forwarded.build(), HttpResponse.BodyHandlers.ofByteArray());
                answer.headers().map().forEach((name, values) -> {
                    if (!name.equalsIgnoreCase("content-length") && !name.startsWith(":")) {
                        exchange.getResponseHeaders().put(name, values);
                    }
                });
                exchange.sendResponseHeaders(answer.statusCode(), answer.body().length);
                exchange.getResponseBody().write(answer.body());
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
            } finally {
                exchange.close();
            }
        });
        proxy.start();
        return proxy;
    }

    private static ResponseCreateParams request(String model, String previousResponseId) {
        ResponseCreateParams.Builder request = ResponseCreateParams.builder().model(model).input("Plot revenue by month")
                .addTool(Tool.CodeInterpreter.builder().container(Tool.CodeInterpreter.Container.CodeInterpreterToolAuto.builder().build())
                        .build());
        if (previousResponseId != null) {
            request.previousResponseId(previousResponseId);
        }
        return request.build();
    }

    private static String codeRequest(boolean stream, boolean background) {
        return "{\"model\":\"gpt-4.1\",\"input\":\"plot\",\"stream\":" + stream + ",\"background\":" + background
                + ",\"tools\":[{\"type\":\"code_interpreter\",\"container\":{\"type\":\"auto\"}}]}";
    }

    private OpenAIClient sdk(String key) {
        return OpenAIOkHttpClient.builder().baseUrl("http://127.0.0.1:" + port + "/v1").apiKey(key).maxRetries(0).build();
    }

    private OpenAIClient sdkWithSession(String key, String session) {
        return OpenAIOkHttpClient.builder().baseUrl("http://127.0.0.1:" + port + "/v1").apiKey(key).maxRetries(0)
                .putHeader("X-Gateway-Session", session).build();
    }

    private HttpResponse<String> get(String path, String key, String session) throws Exception {
        return send(HttpRequest.newBuilder(URI.create("http://127.0.0.1:" + port + path)).GET(), key, session);
    }

    private HttpResponse<String> post(String path, String key, String session, String json) throws Exception {
        return send(HttpRequest.newBuilder(URI.create("http://127.0.0.1:" + port + path))
                .header("Content-Type", "application/json").POST(HttpRequest.BodyPublishers.ofString(json)), key, session);
    }

    private static HttpResponse<String> send(HttpRequest.Builder request, String key, String session) throws Exception {
        request.header("Authorization", "Bearer " + key);
        if (session != null) {
            request.header("X-Gateway-Session", session);
        }
        try (HttpClient http = HttpClient.newHttpClient()) {
            return http.send(request.build(), HttpResponse.BodyHandlers.ofString());
        }
    }

    private static <T> List<T> concurrently(int count, Callable<T> call) throws Exception {
        try (ExecutorService threads = Executors.newVirtualThreadPerTaskExecutor()) {
            List<Future<T>> futures = new ArrayList<>();
            for (int i = 0; i < count; i++) {
                futures.add(threads.submit(call));
            }
            List<T> results = new ArrayList<>();
            for (Future<T> future : futures) {
                results.add(future.get());
            }
            return results;
        }
    }
}
