package com.sandboxgateway.metrics;

import static com.github.tomakehurst.wiremock.client.WireMock.okJson;
import static com.github.tomakehurst.wiremock.client.WireMock.post;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.file.Files;
import java.nio.file.Path;
import java.security.SecureRandom;
import java.util.List;
import java.util.Map;

import org.assertj.core.data.Offset;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.springframework.beans.factory.annotation.Autowired;
import org.springframework.boot.test.web.server.LocalManagementPort;
import org.springframework.context.ApplicationContext;

import com.openai.core.JsonValue;
import com.openai.errors.BadRequestException;
import com.openai.errors.PermissionDeniedException;
import com.openai.models.files.FileCreateParams;
import com.openai.models.files.FilePurpose;
import com.openai.models.responses.ResponseCreateParams;
import com.sandboxgateway.support.GatewayIntegrationTest;
import com.sandboxgateway.support.OpenAiStub;

import io.micrometer.prometheusmetrics.PrometheusMeterRegistry;
import io.micrometer.registry.otlp.OtlpMeterRegistry;

/**
 * Scrapes {@code /actuator/prometheus} (open, no key) around a scripted workload of one team and checks
 * that each counter moved by exactly what the workload did, under the right tags.
 */
class PrometheusScrapeTest extends GatewayIntegrationTest {

    private static final Map<String, String> PLATFORM = Map.of("team", "platform");

    @LocalManagementPort
    int managementPort;
    @Autowired
    ApplicationContext context;

    @Test
    void shouldCountRequestsRefusalsUsageSanitizationAndFindingsByTeam(@TempDir Path dir) throws Exception {
        Scrape before = scrape();

        runWorkload(dir);

        Scrape after = scrape();
        assertThat(after.delta(before, "gateway_requests_total", Map.of("team", "platform", "route", "responses_create", "status", "200")))
                .isEqualTo(1);
        assertThat(after.delta(before, "gateway_requests_total", Map.of("team", "platform", "status", "403"))).isEqualTo(1);
        assertThat(after.delta(before, "gateway_policy_refusals_total", Map.of("team", "platform", "code", "tool_not_allowed")))
                .isEqualTo(1);
        assertThat(after.delta(before, "gateway_policy_refusals_total", Map.of("team", "platform", "code", "secret_detected")))
                .isEqualTo(1);
        assertThat(after.delta(before, "gateway_findings_total", Map.of("team", "platform", "kind", "secret", "rule", "github-token")))
                .isEqualTo(1);
        assertThat(after.delta(before, "gateway_turns_used_total", PLATFORM)).isEqualTo(1);
        assertThat(after.delta(before, "gateway_tokens_total", Map.of("team", "platform", "kind", "input"))).isEqualTo(1520);
        assertThat(after.delta(before, "gateway_tokens_total", Map.of("team", "platform", "kind", "output"))).isEqualTo(310);
        assertThat(after.delta(before, "gateway_spend_usd_total", PLATFORM))
                .as("1520 input at $2/M + 310 output at $8/M + one 1g container at $0.03").isCloseTo(0.03552, within());
        assertThat(after.delta(before, "gateway_sanitized_files_total", PLATFORM)).isEqualTo(1);
        assertThat(after.delta(before, "gateway_sanitized_rows_total", PLATFORM)).isEqualTo(2);
        assertThat(after.delta(before, "gateway_sanitized_columns_total", Map.of("team", "platform", "action", "dropped"))).isEqualTo(1);
        assertThat(after.delta(before, "gateway_sanitized_columns_total", Map.of("team", "platform", "action", "pseudonymized")))
                .isEqualTo(2);
        assertThat(after.delta(before, "gateway_ratelimit_decisions_total", Map.of("scope", "user", "outcome", "allowed")))
                .isEqualTo(4);
        assertThat(after.delta(before, "gateway_code_executions_total", PLATFORM)).isEqualTo(1);
        assertThat(after.delta(before, "gateway_audit_writes_total", Map.of("outcome", "stored")))
                .as("the code block, two refusals, the blocked finding and the sanitized upload").isEqualTo(5);
        assertThat(after.sum("gateway_audit_spool_depth", Map.of())).isZero();
        assertThat(after.delta(before, "gateway_upstream_latency_seconds_count", Map.of("route", "responses_create"))).isEqualTo(1);
        assertThat(after.delta(before, "http_server_requests_seconds_count", Map.of("uri", "/v1/**")))
                .as("the server's own timer, by the pattern of the /v1 routes").isEqualTo(4);
        assertThat(after.delta(before, "http_server_requests_seconds_count", Map.of("uri", "/v1/**", "method", "POST", "status", "403")))
                .isEqualTo(1);
        assertThat(after.text()).contains("gateway_upstream_latency_seconds_bucket{", "resilience4j_circuitbreaker_state{",
                "jvm_memory_used_bytes{");
    }

    @Test
    void shouldKeepTheMetersToThisEndpointUnlessAnOtlpPushIsTurnedOn() {
        // The OpenTelemetry starter would add a registry pushing every meter to localhost:4318 each minute.
        assertThat(context.getBeanNamesForType(OtlpMeterRegistry.class)).isEmpty();
        assertThat(context.getBeanNamesForType(PrometheusMeterRegistry.class)).hasSize(1);
    }

    @Test
    void shouldDescribeEveryGatewayMetricAndBucketUpstreamLatencyUpToTheReadTimeout(@TempDir Path dir) throws Exception {
        runWorkload(dir);

        Scrape scrape = scrape();

        List<String> help = scrape.text().lines().filter(line -> line.startsWith("# HELP gateway_")).toList();
        assertThat(help).hasSizeGreaterThanOrEqualTo(15).allSatisfy(line ->
                assertThat(line.split(" ", 4)).as(line).hasSize(4).satisfies(parts -> assertThat(parts[3]).isNotBlank()));
        List<String> bounds = scrape.text().lines()
                .filter(line -> line.startsWith("gateway_upstream_latency_seconds_bucket{") && line.contains("route=\"responses_create\""))
                .map(line -> line.substring(line.indexOf("le=\"") + 4, line.indexOf('"', line.indexOf("le=\"") + 4))).toList();
        assertThat(bounds).as("a few SLO buckets, the top one the read timeout (3 s in the tests)")
                .containsExactly("0.1", "0.25", "0.5", "1.0", "2.5", "3.0", "+Inf");
    }

    /** One team's afternoon: a response that ran code, two refusals, a sanitized upload. */
    private void runWorkload(Path dir) throws Exception {
        openAi.stubFor(post("/v1/responses").willReturn(okJson(completedResponse(unique("resp_"), unique("cntr_"))
                .replace("ci_68a93ab8671881a39e3ac17e69d804a6", unique("ci_")))));
        sdk(ADMIN_KEY).responses().create(ResponseCreateParams.builder().model("gpt-4.1").input("plot").build());
        assertThatThrownBy(() -> sdk(ADMIN_KEY).responses().create(ResponseCreateParams.builder().model("gpt-4.1").input("search")
                .putAdditionalBodyProperty("tools", JsonValue.from(List.of(Map.of("type", "web_search")))).build()))
                .isInstanceOf(PermissionDeniedException.class);
        assertThatThrownBy(() -> sdk(ADMIN_KEY).responses().create(ResponseCreateParams.builder().model("gpt-4.1")
                .input("clone with " + githubToken()).build()))
                .isInstanceOf(BadRequestException.class);
        openAi.stubFor(post("/v1/files").willReturn(okJson(OpenAiStub.example("files.object.json"))));
        sdk(ADMIN_KEY).files().create(FileCreateParams.builder().purpose(FilePurpose.USER_DATA).file(Files.writeString(
                dir.resolve("orders.csv"), "order_id,customer_id,email,customer_ssn\n1,C-1,a@example.com,1\n2,C-2,b@example.com,2\n"))
                .build());

    }

    private static String githubToken() {
        String alphabet = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789";
        StringBuilder token = new StringBuilder("ghp_");
        new SecureRandom().ints(36, 0, alphabet.length()).forEach(i -> token.append(alphabet.charAt(i)));
        return token.toString();
    }

    private static Offset<Double> within() {
        return Offset.offset(1e-9);
    }

    private Scrape scrape() throws Exception {
        try (HttpClient http = HttpClient.newHttpClient()) {
            HttpResponse<String> answer = http.send(HttpRequest.newBuilder(
                    URI.create("http://127.0.0.1:" + managementPort + "/actuator/prometheus")).build(), HttpResponse.BodyHandlers.ofString());
            assertThat(answer.statusCode()).isEqualTo(200);
            return new Scrape(answer.body());
        }
    }

    /** One scrape in the Prometheus text format. */
    record Scrape(String text) {

        /** The sum of every series of {@code name} whose labels include {@code labels}. */
        double sum(String name, Map<String, String> labels) {
            return text.lines().filter(line -> line.startsWith(name + "{") || line.startsWith(name + " "))
                    .filter(line -> labels.entrySet().stream().allMatch(label ->
                            line.contains(label.getKey() + "=\"" + label.getValue() + "\"")))
                    .mapToDouble(line -> Double.parseDouble(line.substring(line.lastIndexOf(' ') + 1)))
                    .sum();
        }

        double delta(Scrape before, String name, Map<String, String> labels) {
            return sum(name, labels) - before.sum(name, labels);
        }
    }
}
