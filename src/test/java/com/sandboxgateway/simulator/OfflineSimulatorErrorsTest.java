package com.sandboxgateway.simulator;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.net.http.HttpResponse.BodyHandlers;

import com.fasterxml.jackson.databind.JsonNode;
import com.openai.client.OpenAIClient;
import com.openai.client.okhttp.OpenAIOkHttpClient;
import com.openai.core.ObjectMappers;
import com.openai.errors.NotFoundException;
import com.openai.errors.UnauthorizedException;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

class OfflineSimulatorErrorsTest extends SimulatorTest {

    @Test
    void shouldAnswerUnknownRoutesWithNotFoundInOpenAiErrorShape() {
        // An endpoint the simulator does not imitate, reached through the SDK's generic escape hatch.
        OpenAIClient misdirected = openAi.withOptions(options -> options.baseUrl(simulator.baseUrl() + "/v1/nope"));

        assertThatThrownBy(() -> misdirected.files().list())
                .isInstanceOfSatisfying(NotFoundException.class, e -> {
                    assertThat(e.statusCode()).isEqualTo(404);
                    assertThat(e.code()).contains("unknown_url");
                    assertThat(e.type()).contains("invalid_request_error");
                    assertThat(e.getMessage()).contains("Invalid URL (GET /v1/nope/files)");
                });
    }

    @Test
    void shouldAnswerIdsThatDoNotExistWithNotFound() {
        assertThatThrownBy(() -> openAi.files().retrieve("file-doesnotexist"))
                .isInstanceOfSatisfying(NotFoundException.class,
                        e -> assertThat(e.getMessage()).contains("No such File: file-doesnotexist"));
        assertThatThrownBy(() -> openAi.containers().retrieve("cntr_doesnotexist"))
                .isInstanceOf(NotFoundException.class);
        assertThatThrownBy(() -> openAi.responses().retrieve("resp_doesnotexist"))
                .isInstanceOf(NotFoundException.class);
    }

    @Test
    void shouldRejectCallsWithoutABearerKey() throws Exception {
        HttpResponse<String> response = send(HttpRequest.newBuilder(uri("/v1/files")).GET());
        JsonNode error = ObjectMappers.jsonMapper().readTree(response.body()).get("error");

        assertThat(response.statusCode()).isEqualTo(401);
        assertThat(error.get("type").asText()).isEqualTo("invalid_request_error");
        assertThat(error.get("code").asText()).isEqualTo("invalid_api_key");
        assertThat(error.get("param").isNull()).isTrue();
        assertThat(error.get("message").asText()).contains("API key");
    }

    @Test
    void shouldRejectNonBearerAuthorizationThroughTheSdk() {
        OpenAIClient basicAuth = OpenAIOkHttpClient.builder()
                .baseUrl(simulator.baseUrl() + "/v1")
                .apiKey("sk-test")
                .putHeader("Authorization", "Basic dXNlcjpwYXNz")
                .maxRetries(0)
                .build();
        try {
            assertThatThrownBy(() -> basicAuth.files().list()).isInstanceOf(UnauthorizedException.class);
        } finally {
            basicAuth.close();
        }
    }

    @ParameterizedTest
    @ValueSource(strings = {
            "/v1/responses/resp_1", "/v1/files", "/v1/files/file-1/content", "/v1/containers",
            "/v1/containers/cntr_1/files/cfile_1/content", "/v1/nope", "/v1/files/file-doesnotexist"})
    void shouldTagEveryAnswerWithRequestIdAndProcessingTime(String path) throws Exception {
        HttpResponse<String> response = send(
                HttpRequest.newBuilder(uri(path)).header("Authorization", "Bearer sk-test").GET());

        assertThat(response.headers().firstValue("x-request-id")).hasValueSatisfying(
                id -> assertThat(id).matches("req_[0-9a-f]{32}"));
        assertThat(response.headers().firstValue("openai-processing-ms")).hasValueSatisfying(
                millis -> assertThat(Integer.parseInt(millis)).isPositive());
    }

    @Test
    void shouldGiveEachAnswerItsOwnRequestId() {
        try (var first = openAi.files().withRawResponse().list();
                var second = openAi.files().withRawResponse().list()) {
            assertThat(first.requestId()).isPresent().isNotEqualTo(second.requestId());
        }
    }

    private static URI uri(String path) {
        return URI.create(simulator.baseUrl() + path);
    }

    private static HttpResponse<String> send(HttpRequest.Builder request) throws Exception {
        try (HttpClient http = HttpClient.newHttpClient()) {
            return http.send(request.build(), BodyHandlers.ofString());
        }
    }
}
