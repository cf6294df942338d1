package com.sandboxgateway.audit;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;

import org.junit.jupiter.api.Test;
import org.springframework.boot.test.web.server.LocalManagementPort;

import com.sandboxgateway.support.GatewayIntegrationTest;

import tools.jackson.databind.json.JsonMapper;

/** Without a signing key the gateway runs, proofs still work, and the checkpoint endpoints say what to set. */
class AuditCheckpointsOffTest extends GatewayIntegrationTest {

    @LocalManagementPort
    int managementPort;

    @Test
    void shouldSayWhichSettingTurnsCheckpointsOn() throws Exception {
        createdResponse(CAROL_KEY, unique("resp_"));

        HttpResponse<String> checkpoint = get("/actuator/audit/checkpoint", ADMIN_KEY);
        HttpResponse<String> key = get("/actuator/audit/checkpoint/key", ADMIN_KEY);

        assertThat(checkpoint.statusCode()).isEqualTo(404);
        assertThat(checkpoint.headers().firstValue("Content-Type")).hasValueSatisfying(type -> assertThat(type)
                .startsWith("application/problem+json"));
        assertThat(JsonMapper.builder().build().readTree(checkpoint.body()).path("detail").asString())
                .contains("gateway.audit.signing-key");
        assertThat(key.statusCode()).isEqualTo(404);
        assertThat(get("/actuator/audit/proof/inclusion?seq=1&size=1", ADMIN_KEY).statusCode()).isEqualTo(200);
        assertThat(get("/actuator/audit/proof/inclusion?seq=1", ADMIN_KEY).statusCode()).isEqualTo(400);
        assertThat(get("/actuator/audit/proof/inclusion?seq=1&size=1", BOB_KEY).statusCode()).isEqualTo(403);
    }

    private HttpResponse<String> get(String path, String key) throws IOException, InterruptedException {
        HttpRequest request = HttpRequest.newBuilder(URI.create("http://127.0.0.1:" + managementPort + path))
                .header("Authorization", "Bearer " + key).build();
        try (HttpClient http = HttpClient.newHttpClient()) {
            return http.send(request, HttpResponse.BodyHandlers.ofString());
        }
    }
}
