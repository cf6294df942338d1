package com.sandboxgateway.admin;

import static com.github.tomakehurst.wiremock.client.WireMock.aResponse;
import static com.github.tomakehurst.wiremock.client.WireMock.delete;
import static com.github.tomakehurst.wiremock.client.WireMock.deleteRequestedFor;
import static com.github.tomakehurst.wiremock.client.WireMock.okJson;
import static com.github.tomakehurst.wiremock.client.WireMock.post;
import static com.github.tomakehurst.wiremock.client.WireMock.urlEqualTo;
import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;
import org.springframework.boot.test.web.server.LocalManagementPort;

import com.openai.models.responses.ResponseCreateParams;
import com.sandboxgateway.support.GatewayIntegrationTest;

import tools.jackson.databind.JsonNode;
import tools.jackson.databind.json.JsonMapper;

/** The admin actuator endpoints: who may call them, what they show, and that every write is audited. */
class AdminEndpointsTest extends GatewayIntegrationTest {

    private final JsonMapper json = JsonMapper.builder().build();

    @LocalManagementPort
    int managementPort;

    @ParameterizedTest
    @ValueSource(strings = {"/actuator/ratelimits", "/actuator/ratelimits/alice", "/actuator/budgets/teams/analytics",
            "/actuator/policies", "/actuator/containers"})
    void shouldAnswerOnlyAdmins(String path) throws Exception {
        assertThat(call("GET", path, null).statusCode()).isEqualTo(401);
        assertThat(call("DELETE", path, null).statusCode()).isEqualTo(401);
        HttpResponse<String> user = call("GET", path, BOB_KEY);
        assertThat(user.statusCode()).isEqualTo(403);
        assertThat(user.headers().firstValue("Content-Type")).hasValue("application/problem+json");
        assertThat(call("GET", path, ADMIN_KEY).statusCode()).isEqualTo(200);
    }

    @Test
    void shouldReadAndRefillAUsersBucketAndAuditTheReset() throws Exception {
        raw(HttpRequest.newBuilder().header("Authorization", "Bearer " + CAROL_KEY).GET(), "/v1/files");
        long before = read("/actuator/ratelimits/carol").path("available").asLong();

        JsonNode refilled = json.readTree(call("DELETE", "/actuator/ratelimits/carol", ADMIN_KEY).body());

        assertThat(refilled.path("available").asLong()).isEqualTo(refilled.path("burst").asLong())
                .isGreaterThanOrEqualTo(before);
        assertThat(refilled.path("team").asString()).isEqualTo("analytics");
        assertProblem(call("GET", "/actuator/ratelimits/nobody", ADMIN_KEY), 404, "nobody");
        assertProblem(call("DELETE", "/actuator/ratelimits/nobody", ADMIN_KEY), 404, "nobody");
        assertProblem(call("GET", "/actuator/ratelimits/carol?user=alice", ADMIN_KEY), 400, "named twice");
        assertThat(read("/actuator/ratelimits?user=carol").path("user").asString()).isEqualTo("carol");
        assertThat(call("DELETE", "/actuator/ratelimits?user=carol", ADMIN_KEY).statusCode()).isEqualTo(200);
        assertThat(adminActions()).anySatisfy(record -> assertThat(record.path("details").toString())
                .contains("reset_rate_limit").contains("carol"));
    }

    @Test
    void shouldReadAndResetASessionsTurnsAndATeamsSpend() throws Exception {
        String session = unique("s-");
        openAi.stubFor(post("/v1/responses").willReturn(okJson(completedResponse(unique("resp_"), unique("cntr_"))
                .replace("ci_68a93ab8671881a39e3ac17e69d804a6", unique("ci_")))));
        sdk(CAROL_KEY).responses().create(ResponseCreateParams.builder().model("gpt-4.1").input("plot")
                .putAdditionalHeader("X-Gateway-Session", session).build());

        JsonNode turns = read("/actuator/budgets/sessions/carol/" + session);
        JsonNode spend = read("/actuator/budgets/teams/analytics");
        assertThat(read("/actuator/budgets?user=carol&session=" + session)).isEqualTo(turns);
        assertThat(read("/actuator/budgets?team=analytics").path("spentUsd")).isEqualTo(spend.path("spentUsd"));
        JsonNode resetTurns = json.readTree(call("DELETE", "/actuator/budgets/sessions/carol/" + session, ADMIN_KEY).body());
        JsonNode resetSpend = json.readTree(call("DELETE", "/actuator/budgets/teams/analytics", ADMIN_KEY).body());

        assertThat(turns.path("used").asLong()).isEqualTo(1);
        assertThat(turns.path("remaining").asLong()).isEqualTo(turns.path("limit").asLong() - 1);
        assertThat(spend.path("spentUsd").decimalValue()).isPositive();
        assertThat(resetTurns.path("used").asLong()).isZero();
        assertThat(resetTurns.path("remaining").asLong()).isEqualTo(turns.path("limit").asLong());
        assertThat(resetSpend.path("spentUsd").decimalValue()).isZero();
        assertThat(call("GET", "/actuator/budgets/sessions/carol/never-seen", ADMIN_KEY).statusCode()).isEqualTo(404);
        assertThat(call("GET", "/actuator/budgets/other/x", ADMIN_KEY).statusCode()).isEqualTo(400);
        assertThat(read("/actuator/budgets/teams?team=analytics").path("team").asString()).isEqualTo("analytics");
        assertThat(read("/actuator/budgets/sessions?user=carol&session=" + session).path("session").asString()).isEqualTo(session);
        assertThat(read("/actuator/budgets/sessions/carol?session=" + session).path("session").asString()).isEqualTo(session);
        assertProblem(call("GET", "/actuator/budgets/teams/analytics?team=x", ADMIN_KEY), 400, "named twice");
        assertProblem(call("GET", "/actuator/budgets/sessions/carol/never-seen", ADMIN_KEY), 404, "never-seen");
        assertProblem(call("DELETE", "/actuator/budgets/sessions/carol/never-seen", ADMIN_KEY), 404, "never-seen");
        assertThat(adminActions()).anySatisfy(record -> assertThat(record.path("details").toString()).contains(session));
    }

    @Test
    void shouldShowEachTeamsEffectivePolicyWithoutTheKey() throws Exception {
        HttpResponse<String> policies = call("GET", "/actuator/policies", ADMIN_KEY);
        JsonNode body = json.readTree(policies.body());

        assertThat(body.path("teams").path("analytics").path("allowedDomains")).extracting(JsonNode::asString)
                .containsExactly("pypi.org");
        assertThat(body.path("teams").path("*").path("limits").path("turnsPerSession").asInt()).isEqualTo(1000);
        assertThat(body.path("org").path("dropColumns")).isNotEmpty();
        assertThat(policies.body()).doesNotContain("test-pseudonymization-key").doesNotContainIgnoringCase("pseudonymizationKey");
        assertThat(read("/actuator/policies/finance").path("allowedMemoryLimits")).extracting(JsonNode::asString)
                .containsExactly("1g");
        assertThat(read("/actuator/policies/finance").path("narrowed").asBoolean()).isTrue();
    }

    @Test
    void shouldShowTheOrgRulesAsConfiguredAndOnlyTeamsThatExist() throws Exception {
        JsonNode org = read("/actuator/policies").path("org");

        assertThat(org.path("files").path("maxUploadSize").asString()).isEqualTo("5MB");
        assertThat(org.path("files").path("maxUploadBytes").asLong()).isEqualTo(5L * 1024 * 1024);
        assertThat(org.path("files").path("defaultExpiry").asString()).isEqualTo("PT2H");
        assertThat(org.path("injection").asString()).isEqualTo("report");
        assertThat(org.path("secrets").asString()).isEqualTo("block");
        assertThat(org.path("ownershipScope").asString()).isEqualTo("user");
        assertThat(org.path("pricing").path("models")).anySatisfy(model -> assertThat(model.path("prefix").asString())
                .isEqualTo("gpt-4.1"));
        assertThat(org.path("pricing").path("containerSessions").path("4g").decimalValue()).isEqualByComparingTo("0.12");
        JsonNode platform = read("/actuator/policies/platform");
        assertThat(platform.path("team").asString()).as("a team with keys but no settings of its own").isEqualTo("platform");
        assertThat(platform.path("narrowed").asBoolean()).isFalse();
        assertThat(read("/actuator/policies").path("teams").has("platform")).isTrue();
        assertProblem(call("GET", "/actuator/policies/no-such-team", ADMIN_KEY), 404, null);
    }

    @Test
    void shouldExplainEveryBadAuditQueryAndNameTheValidKinds() throws Exception {
        assertProblem(call("GET", "/actuator/audit?since=yesterday", ADMIN_KEY), 400, "ISO-8601");
        assertProblem(call("GET", "/actuator/audit?limit=-1", ADMIN_KEY), 400, "limit must be between 1 and");
        assertProblem(call("GET", "/actuator/audit?kind=FOO", ADMIN_KEY), 400, "SECRET_FINDING");
        assertThat(read("/actuator/audit?kind=admin_action&limit=1").path("records")).isNotNull();
    }

    @Test
    void shouldAnswerNotFoundForAContainerTheGatewayDoesNotTrack() throws Exception {
        assertProblem(call("DELETE", "/actuator/containers/cntr_nope", ADMIN_KEY), 404, "cntr_nope");
        openAi.verify(0, deleteRequestedFor(urlEqualTo("/v1/containers/cntr_nope")));
    }

    @Test
    void shouldAnswerBadGatewayAndKeepTrackingAContainerOpenAiWouldNotDelete() throws Exception {
        String container = createdContainer(ALICE_KEY, unique("cntr_"));
        openAi.stubFor(delete("/v1/containers/" + container).willReturn(aResponse().withStatus(500)));

        assertProblem(call("DELETE", "/actuator/containers/" + container, ADMIN_KEY), 502, "OpenAI answered 500");
        assertThat(read("/actuator/containers?team=analytics"))
                .anySatisfy(tracked -> assertThat(tracked.path("id").asString()).isEqualTo(container));
    }

    @Test
    void shouldListTrackedContainersAndForceDeleteOneUpstream() throws Exception {
        String container = createdContainer(ALICE_KEY, unique("cntr_"));
        openAi.stubFor(delete("/v1/containers/" + container).willReturn(okJson(
                "{\"id\":\"" + container + "\",\"object\":\"container.deleted\",\"deleted\":true}")));

        JsonNode listed = read("/actuator/containers?team=analytics");
        JsonNode deleted = json.readTree(call("DELETE", "/actuator/containers/" + container, ADMIN_KEY).body());

        assertThat(listed).anySatisfy(tracked -> assertThat(tracked.path("id").asString()).isEqualTo(container));
        assertThat(deleted.path("ownerUser").asString()).isEqualTo("alice");
        assertThat(deleted.path("upstreamStatus").asInt()).isEqualTo(200);
        openAi.verify(deleteRequestedFor(urlEqualTo("/v1/containers/" + container)));
        assertThat(read("/actuator/containers?team=analytics"))
                .noneSatisfy(tracked -> assertThat(tracked.path("id").asString()).isEqualTo(container));
        assertThat(adminActions()).anySatisfy(record -> assertThat(record.path("details").toString()).contains(container));
    }

    @Test
    void shouldShowTheUpstreamCircuitTheAuditStoreAndTheStateInOpenHealth() throws Exception {
        JsonNode components = json.readTree(call("GET", "/actuator/health", null).body()).path("components");

        assertThat(components.path("circuitBreakers").path("details").path("upstream").path("details").path("state").asString())
                .isEqualTo("CLOSED");
        assertThat(components.path("auditStore").path("details").path("spoolDepth").asLong()).isZero();
        assertThat(components.path("state").path("details").path("backend").asString()).isEqualTo("memory");
        assertThat(call("GET", "/actuator/health/readiness", null).statusCode()).isEqualTo(200);
    }

    private void assertProblem(HttpResponse<String> answer, int status, String detail) {
        assertThat(answer.statusCode()).as(answer.body()).isEqualTo(status);
        if (detail != null) {
            assertThat(answer.headers().firstValue("Content-Type")).hasValue("application/problem+json");
            assertThat(json.readTree(answer.body()).path("detail").asString()).contains(detail);
        }
    }

    private JsonNode adminActions() throws Exception {
        JsonNode page = read("/actuator/audit?kind=ADMIN_ACTION&user=root&limit=1000");
        return page.path("records").valueStream().map(stored -> stored.path("record"))
                .collect(json::createArrayNode, (array, node) -> array.add(node), (a, b) -> a.addAll(b));
    }

    private JsonNode read(String path) throws Exception {
        HttpResponse<String> answer = call("GET", path, ADMIN_KEY);
        assertThat(answer.statusCode()).as(path).isEqualTo(200);
        return json.readTree(answer.body());
    }

    private HttpResponse<String> call(String method, String path, String key) throws IOException, InterruptedException {
        HttpRequest.Builder request = HttpRequest.newBuilder(URI.create("http://127.0.0.1:" + managementPort + path))
                .method(method, HttpRequest.BodyPublishers.noBody());
        if (key != null) {
            request.header("Authorization", "Bearer " + key);
        }
        try (HttpClient http = HttpClient.newHttpClient()) {
            return http.send(request.build(), HttpResponse.BodyHandlers.ofString());
        }
    }
}
