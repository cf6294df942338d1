package com.sandboxgateway.review;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;

import com.sandboxgateway.support.GatewayIntegrationTest;

import tools.jackson.databind.JsonNode;
import tools.jackson.databind.json.JsonMapper;

/** The audit endpoint as a reviewer calls it (admin key, management port). */
final class ReviewAudit {

    private static final JsonMapper JSON = JsonMapper.builder().build();

    private ReviewAudit() {
    }

    static JsonNode query(int managementPort, String query) throws IOException, InterruptedException {
        HttpResponse<String> answer = get(managementPort, "/actuator/audit?" + query);
        assertThat(answer.statusCode()).as(answer.body()).isEqualTo(200);
        return JSON.readTree(answer.body());
    }

    static boolean verify(int managementPort) throws IOException, InterruptedException {
        JsonNode verification = JSON.readTree(get(managementPort, "/actuator/audit/verify").body());
        assertThat(verification.path("intact").asBoolean()).as(verification.toString()).isTrue();
        return true;
    }

    /** The one record of the page made by this gateway request. */
    static JsonNode only(JsonNode page, String requestId) {
        return single(page, "requestId", requestId);
    }

    /** The record of the page for this code-interpreter call. */
    static JsonNode call(JsonNode page, String callId) {
        return single(page, "callId", callId);
    }

    private static JsonNode single(JsonNode page, String field, String value) {
        JsonNode found = null;
        for (JsonNode stored : page.path("records")) {
            if (value.equals(stored.path("record").path(field).asString(null))) {
                assertThat(found).as("one record with " + field + " " + value).isNull();
                found = stored.path("record");
            }
        }
        assertThat(found).as("a record with " + field + " " + value + " in " + page).isNotNull();
        return found;
    }

    private static HttpResponse<String> get(int managementPort, String path) throws IOException, InterruptedException {
        HttpRequest request = HttpRequest.newBuilder(URI.create("http://127.0.0.1:" + managementPort + path))
                .header("Accept", "application/json").header("Authorization", "Bearer " + GatewayIntegrationTest.ADMIN_KEY).build();
        try (HttpClient http = HttpClient.newHttpClient()) {
            return http.send(request, HttpResponse.BodyHandlers.ofString());
        }
    }
}
