package com.sandboxgateway.audit;

import static com.github.tomakehurst.wiremock.client.WireMock.aResponse;
import static com.github.tomakehurst.wiremock.client.WireMock.equalTo;
import static com.github.tomakehurst.wiremock.client.WireMock.get;
import static com.github.tomakehurst.wiremock.client.WireMock.getRequestedFor;
import static com.github.tomakehurst.wiremock.client.WireMock.matchingJsonPath;
import static com.github.tomakehurst.wiremock.client.WireMock.okJson;
import static com.github.tomakehurst.wiremock.client.WireMock.post;
import static com.github.tomakehurst.wiremock.client.WireMock.postRequestedFor;
import static com.github.tomakehurst.wiremock.client.WireMock.urlEqualTo;
import static com.github.tomakehurst.wiremock.client.WireMock.urlPathEqualTo;
import static com.sandboxgateway.support.OpenAiStub.example;
import static org.assertj.core.api.Assertions.assertThat;

import java.net.http.HttpRequest;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.springframework.beans.factory.annotation.Autowired;

import com.openai.core.http.StreamResponse;
import com.openai.models.files.FileCreateParams;
import com.openai.models.files.FilePurpose;
import com.openai.models.responses.ResponseCreateParams;
import com.openai.models.responses.ResponseStreamEvent;
import com.openai.models.responses.Tool;
import com.sandboxgateway.support.GatewayIntegrationTest;

/** Every executed code block ends up in the audit trail, whichever way the client got the response. */
class CodeExecutionAuditTest extends GatewayIntegrationTest {

    private static final String EXAMPLE_CALL = "ci_68a93ab8671881a39e3ac17e69d804a6";
    private static final String EXAMPLE_CODE = "import pandas as pd\ndf = pd.read_csv('/mnt/data/file-9Xc2bT4kQm7Lz1RaPq3Wv8-sales.csv')\n"
            + "ax = df.plot(x='month', y='revenue')\nax.figure.savefig('/mnt/data/plot.png')\nprint(df.shape)";

    @Autowired
    AuditStore store;

    @Test
    void shouldRecordTheCodeOfANonStreamedResponseAndAskForItsOutputs() {
        String call = unique("ci_");
        openAi.stubFor(post("/v1/responses").willReturn(okJson(completedResponse(unique("resp_"), unique("cntr_"))
                .replace(EXAMPLE_CALL, call)).withHeader("x-request-id", "req_upstream42")));

        sdk(ALICE_KEY).responses().create(ResponseCreateParams.builder().model("gpt-4.1").input("plot")
                .addTool(Tool.CodeInterpreter.builder().container(Tool.CodeInterpreter.Container.CodeInterpreterToolAuto.builder().build())
                        .build()).build());

        AuditRecord record = recordOf(call);
        assertThat(record.code()).isEqualTo(EXAMPLE_CODE);
        assertThat(record.codeSha256()).hasSize(64);
        assertThat(record.outputs()).contains("(12, 3)");
        assertThat(record.user()).isEqualTo("alice");
        assertThat(record.team()).isEqualTo("analytics");
        assertThat(record.model()).isEqualTo("gpt-4.1-2025-04-14");
        assertThat(record.upstreamRequestId()).isEqualTo("req_upstream42");
        assertThat(record.status()).isEqualTo("completed");
        openAi.verify(postRequestedFor(urlEqualTo("/v1/responses"))
                .withRequestBody(matchingJsonPath("$.include[0]", equalTo("code_interpreter_call.outputs"))));
    }

    @Test
    void shouldRecordTheCodeOfAStreamedResponse() {
        String call = unique("ci_");
        String response = unique("resp_");
        openAi.stubFor(post("/v1/responses").willReturn(aResponse().withHeader("Content-Type", "text/event-stream")
                .withBody(example("responses.stream.code-interpreter.sse").replace(EXAMPLE_CALL, call)
                        .replace(EXAMPLE_RESPONSE_ID, response))));

        List<ResponseStreamEvent> events;
        try (StreamResponse<ResponseStreamEvent> stream = sdk(ALICE_KEY).responses().createStreaming(
                ResponseCreateParams.builder().model("gpt-4.1").input("plot").build())) {
            events = stream.stream().toList();
        }

        assertThat(events).hasSize(18);
        AuditRecord record = recordOf(call);
        assertThat(record.code()).isEqualTo(EXAMPLE_CODE);
        assertThat(record.responseId()).isEqualTo(response);
        assertThat(store.query(new AuditQuery(null, null, null, null, null, null, null, null, null, 100_000)))
                .filteredOn(stored -> call.equals(stored.record().callId())).hasSize(1);
    }

    @Test
    void shouldRecordABackgroundResponsesCodeOnceWhenItIsFetched() {
        String call = unique("ci_");
        String response = unique("resp_");
        String completed = completedResponse(response, unique("cntr_")).replace(EXAMPLE_CALL, call);
        openAi.stubFor(post("/v1/responses").willReturn(okJson(queued(completed))));
        sdk(ALICE_KEY).responses().create(ResponseCreateParams.builder().model("gpt-4.1").input("plot").background(true).build());
        assertThat(findRecord(call)).isNull();
        openAi.stubFor(get(urlPathEqualTo("/v1/responses/" + response)).willReturn(okJson(completed)));

        sdk(ALICE_KEY).responses().retrieve(response);
        sdk(ALICE_KEY).responses().retrieve(response);

        assertThat(recordOf(call).code()).isEqualTo(EXAMPLE_CODE);
        assertThat(store.query(new AuditQuery(null, null, null, null, null, null, null, null, null, 100_000)))
                .filteredOn(stored -> call.equals(stored.record().callId())).hasSize(1);
        openAi.verify(getRequestedFor(urlPathEqualTo("/v1/responses/" + response))
                .withQueryParam("include[]", equalTo("code_interpreter_call.outputs")));
    }

    @Test
    void shouldRecordAResumedStreamsCodeInTheSessionItsResponseWasCreatedIn() {
        String call = unique("ci_");
        String response = unique("resp_");
        String session = unique("session-");
        openAi.stubFor(post("/v1/responses").willReturn(okJson(queued(completedResponse(response, unique("cntr_"))))));
        sdk(ALICE_KEY).responses().create(ResponseCreateParams.builder().model("gpt-4.1").input("plot").background(true)
                .putAdditionalHeader("X-Gateway-Session", session).build());
        openAi.stubFor(get(urlPathEqualTo("/v1/responses/" + response)).willReturn(aResponse()
                .withHeader("Content-Type", "text/event-stream").withBody(example("responses.stream.code-interpreter.sse")
                        .replace(EXAMPLE_CALL, call).replace(EXAMPLE_RESPONSE_ID, response))));

        try (StreamResponse<ResponseStreamEvent> stream = sdk(ALICE_KEY).responses().retrieveStreaming(response)) {
            assertThat(stream.stream().toList()).hasSize(18);
        }

        assertThat(recordOf(call).session()).as("the session it was created in, which the fetch did not name")
                .isEqualTo(session);
    }

    @Test
    void shouldRecordAFailedCall() {
        String call = unique("ci_");
        openAi.stubFor(post("/v1/responses").willReturn(okJson(completedResponse(unique("resp_"), unique("cntr_"))
                .replace(EXAMPLE_CALL, call).replaceFirst("\"status\": \"completed\",\n      \"container_id\"",
                        "\"status\": \"failed\",\n      \"container_id\""))));

        sdk(ALICE_KEY).responses().create(ResponseCreateParams.builder().model("gpt-4.1").input("plot").build());

        assertThat(recordOf(call).status()).isEqualTo("failed");
    }

    @Test
    void shouldRecordRefusalsAndSanitizationsWithoutValues(@TempDir Path dir) throws Exception {
        raw(HttpRequest.newBuilder().header("Authorization", "Bearer " + BOB_KEY).GET(), "/v1/models");
        openAi.stubFor(post("/v1/files").willReturn(okJson(example("files.object.json"))));
        sdk(BOB_KEY).files().create(FileCreateParams.builder().purpose(FilePurpose.USER_DATA)
                .file(Files.writeString(dir.resolve("orders.csv"), "customer_id,customer_ssn\nC-77,123-45-6789\n")).build());

        List<StoredRecord> bobs = store.query(new AuditQuery("bob", "finance", null, null, null, null, null, null, null, 100_000));
        assertThat(bobs).anySatisfy(stored -> {
            assertThat(stored.record().kind()).isEqualTo(AuditRecord.Kind.POLICY_REFUSAL);
            assertThat(stored.record().status()).isEqualTo("route_not_allowed");
            assertThat(stored.record().details()).contains("(no route)");
        });
        assertThat(bobs).anySatisfy(stored -> {
            assertThat(stored.record().kind()).isEqualTo(AuditRecord.Kind.SANITIZATION);
            assertThat(stored.record().details()).contains("\"dropped\":[\"customer_ssn\"]").contains("\"rows\":1")
                    .contains("hmac-sha256:").doesNotContain("C-77").doesNotContain("123-45-6789");
        });
    }

    private AuditRecord recordOf(String call) {
        AuditRecord record = findRecord(call);
        assertThat(record).as("audit record of " + call).isNotNull();
        return record;
    }

    private AuditRecord findRecord(String call) {
        return store.query(new AuditQuery(null, null, null, null, null, null, null, null, null, 100_000)).stream()
                .filter(stored -> call.equals(stored.record().callId())).map(StoredRecord::record).findFirst().orElse(null);
    }
}
