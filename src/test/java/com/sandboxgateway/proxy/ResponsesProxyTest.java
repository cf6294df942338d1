package com.sandboxgateway.proxy;

import static com.github.tomakehurst.wiremock.client.WireMock.aResponse;
import static com.github.tomakehurst.wiremock.client.WireMock.badRequest;
import static com.github.tomakehurst.wiremock.client.WireMock.delete;
import static com.github.tomakehurst.wiremock.client.WireMock.deleteRequestedFor;
import static com.github.tomakehurst.wiremock.client.WireMock.equalTo;
import static com.github.tomakehurst.wiremock.client.WireMock.get;
import static com.github.tomakehurst.wiremock.client.WireMock.getRequestedFor;
import static com.github.tomakehurst.wiremock.client.WireMock.okJson;
import static com.github.tomakehurst.wiremock.client.WireMock.post;
import static com.github.tomakehurst.wiremock.client.WireMock.postRequestedFor;
import static com.github.tomakehurst.wiremock.client.WireMock.urlEqualTo;
import static com.github.tomakehurst.wiremock.client.WireMock.urlPathEqualTo;
import static com.sandboxgateway.support.OpenAiStub.example;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.util.List;

import org.junit.jupiter.api.Test;

import com.openai.core.JsonValue;
import com.openai.core.http.StreamResponse;
import com.openai.errors.BadRequestException;
import com.openai.models.responses.Response;
import com.openai.models.responses.ResponseCodeInterpreterToolCall;
import com.openai.models.responses.ResponseCreateParams;
import com.openai.models.responses.ResponseIncludable;
import com.openai.models.responses.ResponseRetrieveParams;
import com.openai.models.responses.ResponseStreamEvent;
import com.openai.models.responses.Tool;
import com.sandboxgateway.support.GatewayIntegrationTest;

class ResponsesProxyTest extends GatewayIntegrationTest {

    @Test
    void shouldCreateResponseWithOrgKeyAndRelayEveryField() {
        String completed = example("responses.create.response.completed.json")
                .replaceFirst("\\{", "{\"billing\":{\"payer\":\"developer\"},");
        openAi.stubFor(post("/v1/responses").willReturn(okJson(completed).withHeader("x-request-id", "req_abc")));

        Response response = sdk(ALICE_KEY).responses().create(ResponseCreateParams.builder()
                .model("gpt-4.1")
                .input("Load sales.csv and plot revenue per month")
                .addTool(Tool.CodeInterpreter.builder().container(Tool.CodeInterpreter.Container.CodeInterpreterToolAuto.builder().build()).build())
                .addInclude(ResponseIncludable.CODE_INTERPRETER_CALL_OUTPUTS)
                .putAdditionalBodyProperty("x_future_field", JsonValue.from("kept"))
                .build());

        assertThat(response.id()).isEqualTo(EXAMPLE_RESPONSE_ID);
        ResponseCodeInterpreterToolCall call = response.output().getFirst().asCodeInterpreterCall();
        assertThat(call.code()).hasValueSatisfying(code -> assertThat(code).contains("pd.read_csv"));
        assertThat(call.outputs().orElseThrow()).hasSize(1);
        assertThat(response.usage().orElseThrow().totalTokens()).isEqualTo(1830);
        assertThat(response._additionalProperties()).containsKey("billing");
        openAi.verify(postRequestedFor(urlEqualTo("/v1/responses"))
                .withHeader("Authorization", equalTo("Bearer " + ORG_KEY))
                .withRequestBody(com.github.tomakehurst.wiremock.client.WireMock.matchingJsonPath("$.x_future_field", equalTo("kept"))));
    }

    @Test
    void shouldForwardTheClientBodyByteForByte() throws Exception {
        openAi.stubFor(post("/v1/responses").willReturn(okJson(example("responses.create.response.completed.json"))));
        String body = "{ \"model\" : \"gpt-4.1\",\n  \"input\":\"hi\", \"zz_unknown\": [1, 2.50, {\"deep\": null}] }";

        HttpResponse<String> answer = raw(HttpRequest.newBuilder()
                .header("Authorization", "Bearer " + ALICE_KEY)
                .header("Content-Type", "application/json")
                .POST(HttpRequest.BodyPublishers.ofString(body)), "/v1/responses");

        assertThat(answer.statusCode()).isEqualTo(200);
        assertThat(answer.headers().firstValue("x-request-id")).hasValueSatisfying(id -> assertThat(id).startsWith("gwreq_"));
        openAi.verify(postRequestedFor(urlEqualTo("/v1/responses"))
                .withRequestBody(equalTo(body))
                .withoutHeader("X-Gateway-Session"));
    }

    @Test
    void shouldNeverSendTheClientKeyUpstream() {
        String id = createdResponse(ALICE_KEY, unique("resp_"));
        openAi.stubFor(get(urlPathEqualTo("/v1/responses/" + id)).willReturn(okJson(completedResponse(id, unique("cntr_")))));

        sdk(ALICE_KEY).responses().retrieve(id);

        assertThat(openAi.findAll(getRequestedFor(urlPathEqualTo("/v1/responses/" + id))))
                .singleElement()
                .satisfies(request -> {
                    assertThat(request.getHeader("Authorization")).isEqualTo("Bearer " + ORG_KEY);
                    assertThat(request.getBodyAsString()).doesNotContain(ALICE_KEY);
                    assertThat(request.getAllHeaderKeys()).noneMatch(name -> request.getHeader(name).contains(ALICE_KEY));
                });
    }

    @Test
    void shouldPassQueryParametersThroughOnRetrieve() {
        String id = createdResponse(ALICE_KEY, unique("resp_"));
        openAi.stubFor(get(urlEqualTo("/v1/responses/" + id + "?include%5B%5D=code_interpreter_call.outputs"))
                .willReturn(okJson(completedResponse(id, unique("cntr_")))));

        Response response = sdk(ALICE_KEY).responses().retrieve(id, ResponseRetrieveParams.builder()
                .addInclude(ResponseIncludable.CODE_INTERPRETER_CALL_OUTPUTS).build());

        assertThat(response.status()).hasValueSatisfying(status -> assertThat(status.asString()).isEqualTo("completed"));
    }

    @Test
    void shouldStreamEveryEventInOrder() {
        String sse = example("responses.stream.code-interpreter.sse");
        openAi.stubFor(post("/v1/responses").willReturn(aResponse().withStatus(200)
                .withHeader("Content-Type", "text/event-stream; charset=utf-8").withBody(sse)
                .withChunkedDribbleDelay(6, 150)));

        List<ResponseStreamEvent> events;
        try (StreamResponse<ResponseStreamEvent> stream = sdk(ALICE_KEY).responses().createStreaming(
                ResponseCreateParams.builder().model("gpt-4.1").input("plot it").build())) {
            events = stream.stream().toList();
        }

        assertThat(events).hasSize(18);
        assertThat(events.getFirst().isCreated()).isTrue();
        assertThat(events).anySatisfy(event -> assertThat(event.isCodeInterpreterCallCodeDelta()).isTrue());
        assertThat(events.getLast().completed()).hasValueSatisfying(done ->
                assertThat(done.response().usage()).isPresent());
    }

    @Test
    void shouldCancelThenDeleteResponses() {
        String id = createdResponse(ALICE_KEY, unique("resp_"));
        openAi.stubFor(post("/v1/responses/" + id + "/cancel").willReturn(okJson(
                completedResponse(id, unique("cntr_")).replace("\"completed\"", "\"cancelled\""))));
        openAi.stubFor(delete("/v1/responses/" + id).willReturn(okJson(
                "{\"id\":\"" + id + "\",\"object\":\"response\",\"deleted\":true}")));

        Response cancelled = sdk(ALICE_KEY).responses().cancel(id);
        sdk(ALICE_KEY).responses().delete(id);

        assertThat(cancelled.status()).hasValueSatisfying(status -> assertThat(status.asString()).isEqualTo("cancelled"));
        openAi.verify(deleteRequestedFor(urlEqualTo("/v1/responses/" + id)));
    }

    @Test
    void shouldRelayUpstreamErrorsWithTheirStatusAndBody() {
        openAi.stubFor(post("/v1/responses").willReturn(badRequest().withHeader("Content-Type", "application/json").withBody(
                "{\"error\":{\"message\":\"Invalid 'temperature': decimal below minimum value.\",\"type\":\"invalid_request_error\","
                        + "\"param\":\"temperature\",\"code\":\"decimal_below_min_value\"}}")));

        assertThatThrownBy(() -> sdk(ALICE_KEY).responses().create(ResponseCreateParams.builder()
                .model("gpt-4.1").input("hi").temperature(-1.0).build()))
                .isInstanceOfSatisfying(BadRequestException.class, e -> {
                    assertThat(e.code()).hasValue("decimal_below_min_value");
                    assertThat(e.param()).hasValue("temperature");
                });
    }
}
