package com.sandboxgateway.metrics;

import static org.assertj.core.api.Assertions.assertThat;

import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.security.SecureRandom;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;
import org.springframework.boot.test.system.CapturedOutput;
import org.springframework.boot.test.system.OutputCaptureExtension;
import org.springframework.test.context.TestPropertySource;

import com.sandboxgateway.support.GatewayIntegrationTest;

import tools.jackson.databind.JsonNode;
import tools.jackson.databind.json.JsonMapper;

/** With structured logging on, each line is one JSON object carrying the request id, and never a secret. */
@TestPropertySource(properties = "logging.structured.format.console=ecs")
@ExtendWith(OutputCaptureExtension.class)
class StructuredLogsTest extends GatewayIntegrationTest {

    @Test
    void shouldLogJsonWithTheRequestIdAndWithoutTheSecret(CapturedOutput output) throws Exception {
        String token = "ghp_" + new SecureRandom().ints(36, 0, 62)
                .mapToObj(i -> String.valueOf("ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789".charAt(i)))
                .reduce("", String::concat);

        HttpResponse<String> refused = raw(HttpRequest.newBuilder().header("Authorization", "Bearer " + ALICE_KEY)
                .header("Content-Type", "application/json")
                .POST(HttpRequest.BodyPublishers.ofString("{\"model\":\"gpt-4.1\",\"input\":\"clone with " + token + "\"}")),
                "/v1/responses");

        String requestId = refused.headers().firstValue("x-request-id").orElseThrow();
        JsonMapper json = JsonMapper.builder().build();
        assertThat(refused.statusCode()).isEqualTo(400);
        assertThat(output.getOut().lines().filter(line -> line.contains(requestId)))
                .isNotEmpty()
                .allSatisfy(line -> {
                    JsonNode entry = json.readTree(line);
                    assertThat(entry.path("requestId").asString()).isEqualTo(requestId);
                    assertThat(entry.path("message").asString()).contains("secret_detected");
                });
        assertThat(output.getAll()).doesNotContain(token);
    }
}
