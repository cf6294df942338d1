package com.sandboxgateway.proxy;

import static com.github.tomakehurst.wiremock.client.WireMock.aResponse;
import static com.github.tomakehurst.wiremock.client.WireMock.equalTo;
import static com.github.tomakehurst.wiremock.client.WireMock.get;
import static com.github.tomakehurst.wiremock.client.WireMock.getRequestedFor;
import static com.github.tomakehurst.wiremock.client.WireMock.okJson;
import static com.github.tomakehurst.wiremock.client.WireMock.post;
import static com.github.tomakehurst.wiremock.client.WireMock.urlPathEqualTo;
import static com.sandboxgateway.support.OpenAiStub.example;
import static org.assertj.core.api.Assertions.assertThat;

import java.net.http.HttpRequest;
import java.net.http.HttpResponse;

import org.junit.jupiter.api.Test;
import org.springframework.beans.factory.annotation.Autowired;

import com.openai.models.responses.ResponseCreateParams;
import com.sandboxgateway.audit.AuditRecord;
import com.sandboxgateway.budget.Budgets;
import com.sandboxgateway.budget.Charges;
import com.sandboxgateway.support.GatewayIntegrationTest;

/**
 * A background response whose client never fetches it again: the gateway fetches it as its owner until it finished,
 * so the code it ran is audited and its turns settled all the same (the passes run here by hand; the test profile
 * schedules none).
 */
class BackgroundResponseFetcherTest extends GatewayIntegrationTest {

    private static final String EXAMPLE_CALL = "ci_68a93ab8671881a39e3ac17e69d804a6";

    @Autowired
    BackgroundResponseFetcher fetcher;
    @Autowired
    Budgets budgets;

    @Test
    void shouldAuditAndSettleABackgroundResponseNobodyFetches() throws InterruptedException {
        String call = unique("ci_");
        String response = unique("resp_");
        String session = unique("session-");
        String completed = completedResponse(response, unique("cntr_")).replace(EXAMPLE_CALL, call);
        openAi.stubFor(post("/v1/responses").willReturn(okJson(queued(completed))));
        sdk(ALICE_KEY).responses().create(ResponseCreateParams.builder().model("gpt-4.1").input("plot").background(true)
                .putAdditionalHeader("X-Gateway-Session", session).build());
        openAi.stubFor(get(urlPathEqualTo("/v1/responses/" + response)).willReturn(okJson(queued(completed))));

        passAfterTheInterval();
        assertThat(audited(record -> call.equals(record.callId()))).as("still running: nothing ran yet that the answer shows").isEmpty();
        assertThat(turns(response)).isNull();

        openAi.stubFor(get(urlPathEqualTo("/v1/responses/" + response)).willReturn(okJson(completed)));
        passAfterTheInterval();
        passAfterTheInterval();

        assertThat(audited(record -> call.equals(record.callId()))).singleElement().satisfies(record -> {
            assertThat(record).extracting(AuditRecord::user, AuditRecord::session, AuditRecord::responseId)
                    .containsExactly("alice", session, response);
            assertThat(record.code()).contains("pd.read_csv");
        });
        assertThat(turns(response)).as("settled to the one call it ran").isEqualTo(1);
        openAi.verify(2, getRequestedFor(urlPathEqualTo("/v1/responses/" + response))
                .withQueryParam("include[]", equalTo("code_interpreter_call.outputs")));
    }

    @Test
    void shouldFetchAuditAndSettleAResponseWhoseStreamEndedBeforeIt() throws Exception {
        String call = unique("ci_");
        String response = unique("resp_");
        String session = unique("session-");
        String events = example("responses.stream.code-interpreter.sse").replace(EXAMPLE_RESPONSE_ID, response);
        // The stream names the response, then ends: the upstream broke off while the response runs on.
        openAi.stubFor(post("/v1/responses").willReturn(aResponse().withHeader("Content-Type", "text/event-stream")
                .withBody(events.substring(0, events.indexOf("\n\n") + 2))));

        HttpResponse<String> stream = raw(HttpRequest.newBuilder().header("Authorization", "Bearer " + ALICE_KEY)
                .header("Content-Type", "application/json").header("X-Gateway-Session", session)
                .POST(HttpRequest.BodyPublishers.ofString("""
                        {"model":"gpt-4.1","input":"plot","stream":true,"tools":[{"type":"code_interpreter","container":{"type":"auto"}}]}""")),
                "/v1/responses");
        assertThat(stream.body()).contains(response).contains("\"code\":\"upstream_error\"");
        assertThat(turns(response)).as("its reservation counts until it is fetched finished").isNull();

        openAi.stubFor(get(urlPathEqualTo("/v1/responses/" + response))
                .willReturn(okJson(completedResponse(response, unique("cntr_")).replace(EXAMPLE_CALL, call))));
        passAfterTheInterval();

        assertThat(audited(record -> call.equals(record.callId()))).singleElement().satisfies(record -> assertThat(record)
                .extracting(AuditRecord::user, AuditRecord::session, AuditRecord::responseId).containsExactly("alice", session, response));
        assertThat(turns(response)).as("settled to the one call it ran").isEqualTo(1);
    }

    @Test
    void shouldLeaveABackgroundResponseItsClientFetchedFinished() throws InterruptedException {
        String response = unique("resp_");
        String completed = completedResponse(response, unique("cntr_")).replace(EXAMPLE_CALL, unique("ci_"));
        openAi.stubFor(post("/v1/responses").willReturn(okJson(queued(completed))));
        sdk(ALICE_KEY).responses().create(ResponseCreateParams.builder().model("gpt-4.1").input("plot").background(true).build());
        openAi.stubFor(get(urlPathEqualTo("/v1/responses/" + response)).willReturn(okJson(completed)));
        sdk(ALICE_KEY).responses().retrieve(response);

        passAfterTheInterval();

        openAi.verify(1, getRequestedFor(urlPathEqualTo("/v1/responses/" + response)));
        assertThat(turns(response)).isEqualTo(1);
    }

    @Test
    void shouldStopFetchingABackgroundResponseDeletedUpstream() throws InterruptedException {
        String response = backgroundResponse();
        openAi.stubFor(get(urlPathEqualTo("/v1/responses/" + response)).willReturn(aResponse().withStatus(404)
                .withHeader("Content-Type", "application/json").withBody(example("error.404.json"))));

        passAfterTheInterval();
        passAfterTheInterval();

        openAi.verify(1, getRequestedFor(urlPathEqualTo("/v1/responses/" + response)));
        assertThat(turns(response)).as("its reservation keeps counting").isNull();
    }

    @Test
    void shouldFetchTheOthersWhenOneAnswersMalformedJson() throws InterruptedException {
        String broken = backgroundResponse();
        String fine = backgroundResponse();
        openAi.stubFor(get(urlPathEqualTo("/v1/responses/" + broken)).willReturn(okJson("{\"id\": ")));
        openAi.stubFor(get(urlPathEqualTo("/v1/responses/" + fine))
                .willReturn(okJson(completedResponse(fine, unique("cntr_")).replace(EXAMPLE_CALL, unique("ci_")))));

        passAfterTheInterval();

        assertThat(turns(broken)).as("left for the next pass").isNull();
        assertThat(turns(fine)).isEqualTo(1);
    }

    /** A background response of alice's, answered queued; its id. */
    private String backgroundResponse() {
        String response = unique("resp_");
        openAi.stubFor(post("/v1/responses").willReturn(okJson(queued(completedResponse(response, unique("cntr_"))))));
        sdk(ALICE_KEY).responses().create(ResponseCreateParams.builder().model("gpt-4.1").input("plot").background(true).build());
        return response;
    }

    /** A pass once the interval (a millisecond in the test profile) has passed since anything was last taken. */
    private void passAfterTheInterval() throws InterruptedException {
        Thread.sleep(5);
        fetcher.fetchDue();
    }

    /** The turns charged to alice's response, {@code null} while pending. */
    private Integer turns(String response) {
        return Charges.turns(budgets, response, "alice").getFirst();
    }
}
