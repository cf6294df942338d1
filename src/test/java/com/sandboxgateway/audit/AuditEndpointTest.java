package com.sandboxgateway.audit;

import static com.github.tomakehurst.wiremock.client.WireMock.okJson;
import static com.github.tomakehurst.wiremock.client.WireMock.post;
import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;

import org.junit.jupiter.api.Test;
import org.springframework.boot.test.web.server.LocalManagementPort;

import com.openai.models.responses.ResponseCreateParams;
import com.sandboxgateway.support.GatewayIntegrationTest;

import tools.jackson.databind.JsonNode;
import tools.jackson.databind.json.JsonMapper;

class AuditEndpointTest extends GatewayIntegrationTest {

    private final JsonMapper json = JsonMapper.builder().build();

    @LocalManagementPort
    int managementPort;

    @Test
    void shouldKeepTheTrailFromAnyoneButAdmins() throws Exception {
        HttpResponse<String> anonymous = get("/actuator/audit", null, "application/json");
        HttpResponse<String> user = get("/actuator/audit", BOB_KEY, "application/json");

        assertThat(anonymous.statusCode()).isEqualTo(401);
        assertThat(anonymous.headers().firstValue("Content-Type")).hasValue("application/problem+json");
        assertThat(json.readTree(anonymous.body()).path("status").asInt()).isEqualTo(401);
        assertThat(user.statusCode()).isEqualTo(403);
        assertThat(json.readTree(user.body()).path("detail").asString()).contains("admin role");
        assertThat(get("/actuator/health", null, "application/json").statusCode()).isEqualTo(200);
    }

    @Test
    void shouldQueryVerifyAndExportForAdmins() throws Exception {
        String session = unique("s-");
        String container = unique("cntr_");
        openAi.stubFor(post("/v1/responses").willReturn(okJson(completedResponse(unique("resp_"), container)
                .replace("ci_68a93ab8671881a39e3ac17e69d804a6", unique("ci_")))));
        sdk(CAROL_KEY).responses().create(ResponseCreateParams.builder().model("gpt-4.1").input("plot")
                .putAdditionalHeader("X-Gateway-Session", session).build());

        JsonNode page = json.readTree(get("/actuator/audit?session=" + session + "&limit=5", ADMIN_KEY, "application/json").body());
        JsonNode byContainer = json.readTree(get("/actuator/audit?container=" + container, ADMIN_KEY, "application/json").body());
        JsonNode verify = json.readTree(get("/actuator/audit/verify", ADMIN_KEY, "application/json").body());
        HttpResponse<String> export = get("/actuator/audit/export?user=carol&kind=CODE_EXECUTION", ADMIN_KEY, "application/x-ndjson");

        assertThat(page.path("records")).hasSize(1);
        assertThat(page.path("records").get(0).path("record").path("user").asString()).isEqualTo("carol");
        assertThat(page.path("records").get(0).path("record").path("code").asString()).contains("pd.read_csv");
        assertThat(page.path("records").get(0).path("record").path("outputs").isArray()).as("outputs as JSON, not JSON in a string").isTrue();
        assertThat(byContainer.path("records")).hasSize(1);
        assertThat(verify.path("intact").asBoolean()).isTrue();
        assertThat(export.statusCode()).isEqualTo(200);
        assertThat(export.body().lines()).isNotEmpty().allSatisfy(line -> assertThat(json.readTree(line).path("record")
                .path("user").asString()).isEqualTo("carol"));
        assertThat(export.body().lines()).allSatisfy(line -> assertThat(json.readTree(line).path("record").path("outputs").isArray()).isTrue());
        HttpResponse<String> negotiated = get("/actuator/audit?user=carol&kind=CODE_EXECUTION", ADMIN_KEY, "application/x-ndjson");
        assertThat(negotiated.statusCode()).isEqualTo(200);
        assertThat(negotiated.headers().firstValue("Content-Type")).hasValueSatisfying(type -> assertThat(type)
                .startsWith("application/x-ndjson"));
        assertThat(negotiated.body()).isEqualTo(export.body());
        assertThat(get("/actuator/audit?since=yesterday", ADMIN_KEY, "application/json").statusCode()).isEqualTo(400);
    }

    private HttpResponse<String> get(String path, String key, String accept) throws IOException, InterruptedException {
        HttpRequest.Builder request = HttpRequest.newBuilder(URI.create("http://127.0.0.1:" + managementPort + path)).header("Accept", accept);
        if (key != null) {
            request.header("Authorization", "Bearer " + key);
        }
        try (HttpClient http = HttpClient.newHttpClient()) {
            return http.send(request.build(), HttpResponse.BodyHandlers.ofString());
        }
    }
}
