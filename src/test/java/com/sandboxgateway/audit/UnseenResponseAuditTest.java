package com.sandboxgateway.audit;

import static com.github.tomakehurst.wiremock.client.WireMock.aResponse;
import static com.github.tomakehurst.wiremock.client.WireMock.okJson;
import static com.github.tomakehurst.wiremock.client.WireMock.post;
import static com.sandboxgateway.support.OpenAiStub.example;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.io.IOException;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

import org.junit.jupiter.api.Test;
import org.springframework.boot.test.web.server.LocalManagementPort;

import com.github.tomakehurst.wiremock.http.Fault;
import com.openai.errors.OpenAIServiceException;
import com.openai.models.responses.ResponseCreateParams;
import com.openai.models.responses.Tool;
import com.sandboxgateway.support.GatewayIntegrationTest;

import tools.jackson.databind.JsonNode;
import tools.jackson.databind.json.JsonMapper;

/**
 * A request offering code execution that reached OpenAI and got no answer naming its response may have run code the
 * gateway can neither see nor fetch: the audit says so, in a record of its own.
 */
class UnseenResponseAuditTest extends GatewayIntegrationTest {

    private final JsonMapper json = JsonMapper.builder().build();

    @LocalManagementPort
    int managementPort;

    @Test
    void shouldRecordACodeRunningRequestWhoseAnswerNeverCame() throws Exception {
        String session = unique("s-");
        String container = createdContainer(ALICE_KEY, unique("cntr_"));
        double unseenBefore = unseenResponses("analytics");
        // Slower than the tests' upstream read timeout (3 s): the gateway gives up after OpenAI took the request.
        openAi.stubFor(post("/v1/responses").willReturn(okJson(example("responses.create.response.completed.json"))
                .withFixedDelay(4_000)));

        assertThatThrownBy(() -> sdk(ALICE_KEY).responses().create(ResponseCreateParams.builder().model("gpt-4.1").input("plot")
                .addTool(Tool.CodeInterpreter.builder().container(container).build())
                .putAdditionalHeader("X-Gateway-Session", session).build()))
                .isInstanceOfSatisfying(OpenAIServiceException.class, e -> assertThat(e.statusCode()).isEqualTo(504));

        JsonNode record = onlyRecord("session=" + session);
        assertThat(record.path("kind").asString()).isEqualTo("UNSEEN_RESPONSE");
        assertThat(record.path("user").asString()).isEqualTo("alice");
        assertThat(record.path("team").asString()).isEqualTo("analytics");
        assertThat(record.path("model").asString()).isEqualTo("gpt-4.1");
        assertThat(record.path("containerId").asString()).isEqualTo(container);
        assertThat(record.path("status").asString()).isEqualTo("upstream_timeout");
        assertThat(record.path("responseId").asString(null)).isNull();
        assertThat(record.path("details").path("tools")).extracting(JsonNode::asString).containsExactly("code_interpreter");
        assertThat(record.path("details").path("stream").asBoolean()).isFalse();
        assertThat(record.path("details").path("unseen").asString()).contains("no answer named its response");
        assertThat(unseenResponses("analytics")).isEqualTo(unseenBefore + 1);
        Matcher link = Pattern.compile("href=\"/console/records/(\\d+)\"")
                .matcher(management("/console/search?by=session&q=" + session, "text/html"));
        assertThat(link.find()).as("the console finds it by its session").isTrue();
        assertThat(management("/console/records/" + link.group(1), "text/html"))
                .contains("<h1>Unseen response #" + link.group(1) + "</h1>", "upstream_timeout");
    }

    @Test
    void shouldRecordAStreamThatBrokeOffBeforeItNamedItsResponse() throws Exception {
        String session = unique("s-");
        openAi.stubFor(post("/v1/responses").willReturn(aResponse().withFault(Fault.CONNECTION_RESET_BY_PEER)));

        HttpResponse<String> answer = raw(HttpRequest.newBuilder().header("Authorization", "Bearer " + BOB_KEY)
                .header("Content-Type", "application/json").header("X-Gateway-Session", session)
                .POST(HttpRequest.BodyPublishers.ofString("""
                        {"model":"gpt-4.1","input":"plot","stream":true,
                         "tools":[{"type":"code_interpreter","container":{"type":"auto"}}]}""")), "/v1/responses");

        assertThat(answer.statusCode()).isEqualTo(502);
        JsonNode record = onlyRecord("session=" + session);
        assertThat(record.path("kind").asString()).isEqualTo("UNSEEN_RESPONSE");
        assertThat(record.path("user").asString()).isEqualTo("bob");
        assertThat(record.path("status").asString()).isEqualTo("upstream_error");
        assertThat(record.path("containerId").asString(null)).as("an auto container, which only the answer would name").isNull();
        assertThat(record.path("details").path("tools")).extracting(JsonNode::asString).containsExactly("code_interpreter");
        assertThat(record.path("details").path("stream").asBoolean()).isTrue();
    }

    @Test
    void shouldRecordAStreamThatEndedBeforeItsFirstEvent() throws Exception {
        String session = unique("s-");
        openAi.stubFor(post("/v1/responses").willReturn(aResponse().withHeader("Content-Type", "text/event-stream").withBody("")));

        HttpResponse<String> answer = raw(HttpRequest.newBuilder().header("Authorization", "Bearer " + ALICE_KEY)
                .header("Content-Type", "application/json").header("X-Gateway-Session", session)
                .POST(HttpRequest.BodyPublishers.ofString("""
                        {"model":"gpt-4.1","input":"plot","stream":true,
                         "tools":[{"type":"code_interpreter","container":{"type":"auto"}}]}""")), "/v1/responses");

        assertThat(answer.body()).contains("\"code\":\"upstream_error\"");
        JsonNode record = onlyRecord("session=" + session);
        assertThat(record.path("kind").asString()).isEqualTo("UNSEEN_RESPONSE");
        assertThat(record.path("status").asString()).as("the stream began, so no error status reached the exchange")
                .isEqualTo("unanswered");
        assertThat(record.path("details").path("upstream_status").asInt()).isEqualTo(200);
    }

    @Test
    void shouldRecordNothingForARequestThatOfferedNoCodeExecution() throws Exception {
        String session = unique("s-");
        openAi.stubFor(post("/v1/responses").willReturn(aResponse().withFault(Fault.CONNECTION_RESET_BY_PEER)));

        assertThatThrownBy(() -> sdk(ALICE_KEY).responses().create(ResponseCreateParams.builder().model("gpt-4.1").input("hi")
                .putAdditionalHeader("X-Gateway-Session", session).build()))
                .isInstanceOfSatisfying(OpenAIServiceException.class, e -> assertThat(e.statusCode()).isEqualTo(502));

        assertThat(records("session=" + session)).isEmpty();
    }

    /** The team's count as Prometheus scrapes it (the name alert rules use), 0 before the first. */
    private double unseenResponses(String team) throws IOException, InterruptedException {
        return management("/actuator/prometheus", "text/plain").lines()
                .filter(line -> line.startsWith("gateway_code_unseen_responses_total{") && line.contains("team=\"" + team + "\""))
                .mapToDouble(line -> Double.parseDouble(line.substring(line.lastIndexOf(' ') + 1))).sum();
    }

    private JsonNode onlyRecord(String query) throws IOException, InterruptedException {
        JsonNode records = records(query);
        assertThat(records).as("the audit records of " + query).hasSize(1);
        return records.get(0).path("record");
    }

    /** The records the admin endpoint answers for the query. */
    private JsonNode records(String query) throws IOException, InterruptedException {
        return json.readTree(management("/actuator/audit?" + query, "application/json")).path("records");
    }

    /** What the management port answers an admin, as an operator asks it. */
    private String management(String path, String accept) throws IOException, InterruptedException {
        HttpRequest request = HttpRequest.newBuilder(URI.create("http://127.0.0.1:" + managementPort + path))
                .header("Accept", accept).header("Authorization", "Bearer " + ADMIN_KEY).build();
        try (HttpClient http = HttpClient.newHttpClient()) {
            HttpResponse<String> answer = http.send(request, HttpResponse.BodyHandlers.ofString());
            assertThat(answer.statusCode()).as(path).isEqualTo(200);
            return answer.body();
        }
    }
}
