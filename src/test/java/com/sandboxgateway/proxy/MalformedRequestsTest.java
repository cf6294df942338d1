package com.sandboxgateway.proxy;

import static com.github.tomakehurst.wiremock.client.WireMock.anyRequestedFor;
import static com.github.tomakehurst.wiremock.client.WireMock.anyUrl;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.net.Socket;
import java.nio.charset.StandardCharsets;
import java.util.List;

import org.junit.jupiter.api.Test;
import org.springframework.boot.test.web.server.LocalManagementPort;

import com.openai.client.okhttp.OpenAIOkHttpClient;
import com.openai.errors.BadRequestException;
import com.sandboxgateway.support.GatewayIntegrationTest;

import tools.jackson.databind.JsonNode;
import tools.jackson.databind.json.JsonMapper;

/**
 * Requests Tomcat rejects before the gateway's code runs still get an answer in the port's error
 * shape: OpenAI's on {@code /v1}, Problem Details on the management port; never an HTML page or a trace.
 */
class MalformedRequestsTest extends GatewayIntegrationTest {

    private static final JsonMapper JSON = JsonMapper.builder().build();

    @LocalManagementPort
    private int managementPort;

    @Test
    void shouldAnswerAnOversizedHeaderAndAnEncodedSlashInOpenAisShapeToTheSdk() {
        var oversized = OpenAIOkHttpClient.builder().baseUrl(gatewayUrl() + "/v1").apiKey(ALICE_KEY).maxRetries(0)
                .putHeader("X-Trace-Context", "a".repeat(20_000)).build();

        assertThatThrownBy(() -> oversized.files().list()).isInstanceOfSatisfying(BadRequestException.class, e -> {
            assertThat(e.code()).hasValue("invalid_request");
            assertThat(e.type()).hasValue("invalid_request_error");
        });
        assertThatThrownBy(() -> sdk(ALICE_KEY).files().retrieve("file-1/../../v1/models"))
                .isInstanceOfSatisfying(BadRequestException.class, e -> assertThat(e.code()).hasValue("invalid_request"));
        openAi.verify(0, anyRequestedFor(anyUrl()));
    }

    @Test
    void shouldAnswerEveryMalformedRequestLineInOpenAisShapeOnV1() throws IOException {
        for (String request : malformed("/v1/files")) {
            String answer = send(port, request);

            assertThat(answer).as(request.lines().findFirst().orElseThrow()).startsWith("HTTP/1.1 400")
                    .containsIgnoringCase("Content-Type: application/json").doesNotContain("<html").doesNotContain("Exception");
            JsonNode error = JSON.readTree(body(answer)).path("error");
            assertThat(error.path("code").asString()).isEqualTo("invalid_request");
            assertThat(error.path("message").asString()).contains("Nothing was forwarded");
            assertThat(error.has("param")).isTrue();
        }
        openAi.verify(0, anyRequestedFor(anyUrl()));
    }

    @Test
    void shouldAnswerEveryMalformedRequestLineWithProblemDetailsOnTheManagementPort() throws IOException {
        for (String request : malformed("/actuator/health")) {
            String answer = send(managementPort, request);

            assertThat(answer).as(request.lines().findFirst().orElseThrow()).startsWith("HTTP/1.1 400")
                    .containsIgnoringCase("Content-Type: application/problem+json").doesNotContain("<html");
            JsonNode problem = JSON.readTree(body(answer));
            assertThat(problem.path("status").asInt()).isEqualTo(400);
            assertThat(problem.path("title").asString()).isEqualTo("Bad Request");
            assertThat(problem.path("detail").asString()).contains("Nothing was forwarded");
        }
    }

    /** A header too large, an encoded slash, an encoded and a raw NUL, and broken percent-encoding. */
    private static List<String> malformed(String path) {
        String end = " HTTP/1.1\r\nHost: gateway\r\nAuthorization: Bearer " + ALICE_KEY + "\r\nConnection: close\r\n";
        return List.of("GET " + path + end + "X-Padding: " + "a".repeat(20_000) + "\r\n\r\n",
                "GET " + path + "/a%2Fb" + end + "\r\n",
                "GET " + path + "/a%00b" + end + "\r\n",
                "GET " + path + "/a\0b" + end + "\r\n",
                "GET " + path + "/a%zz" + end + "\r\n");
    }

    private static String send(int port, String request) throws IOException {
        try (Socket socket = new Socket("127.0.0.1", port)) {
            OutputStream out = socket.getOutputStream();
            out.write(request.getBytes(StandardCharsets.ISO_8859_1));
            out.flush();
            InputStream in = socket.getInputStream();
            return new String(in.readAllBytes(), StandardCharsets.UTF_8);
        }
    }

    private static String body(String answer) {
        return answer.substring(answer.indexOf("\r\n\r\n") + 4);
    }
}
