package com.sandboxgateway.simulator;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.UUID;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.springframework.boot.test.context.SpringBootTest;
import org.springframework.boot.test.web.server.LocalManagementPort;
import org.springframework.boot.test.web.server.LocalServerPort;
import org.springframework.test.context.ActiveProfiles;
import org.springframework.test.context.TestPropertySource;

import com.openai.client.OpenAIClient;
import com.openai.client.okhttp.OpenAIOkHttpClient;
import com.openai.core.http.StreamResponse;
import com.openai.models.files.FileCreateParams;
import com.openai.models.files.FileObject;
import com.openai.models.files.FilePurpose;
import com.openai.models.responses.Response;
import com.openai.models.responses.ResponseCreateParams;
import com.openai.models.responses.ResponseStreamEvent;
import com.openai.models.responses.Tool;
import com.sandboxgateway.support.GatewayIntegrationTest;

import tools.jackson.databind.JsonNode;
import tools.jackson.databind.json.JsonMapper;

/**
 * What a newcomer can try without an OpenAI key, through the gateway and its embedded simulator: the upload
 * as the sanitizer sent it, lists of their own objects, and prompts that make the pretend code earn review
 * flags and a {@code runaway_session}.
 */
@SpringBootTest(webEnvironment = SpringBootTest.WebEnvironment.RANDOM_PORT)
@ActiveProfiles("test")
@TestPropertySource(properties = {"gateway.upstream.api-key=", "spring.datasource.url=jdbc:h2:mem:offline-trial;MODE=PostgreSQL;"
        + "DATABASE_TO_LOWER=TRUE;DEFAULT_NULL_ORDERING=HIGH;DB_CLOSE_DELAY=-1"})
class OfflineTrialTest {

    private static final JsonMapper JSON = JsonMapper.builder().build();

    @LocalServerPort
    int port;

    @LocalManagementPort
    int managementPort;

    private OpenAIClient sdk(String key, String session) {
        OpenAIOkHttpClient.Builder client = OpenAIOkHttpClient.builder().baseUrl("http://127.0.0.1:" + port + "/v1").apiKey(key)
                .maxRetries(0);
        if (session != null) {
            client.putHeader("X-Gateway-Session", session);
        }
        return client.build();
    }

    private static ResponseCreateParams.Builder ask(String input, List<String> fileIds) {
        return ResponseCreateParams.builder().model("gpt-4.1").input(input).addTool(Tool.CodeInterpreter.builder()
                .container(Tool.CodeInterpreter.Container.CodeInterpreterToolAuto.builder().fileIds(fileIds).build()).build());
    }

    @Test
    void shouldShowWhatTheSanitizerSentAndOnlyTheCallersOwnFiles(@TempDir Path dir) throws IOException {
        OpenAIClient alice = sdk(GatewayIntegrationTest.ALICE_KEY, null);
        Path csv = Files.writeString(dir.resolve("orders.csv"), "customer_id,customer_ssn,revenue\nC-1001,123-45-6789,1200\n");
        FileObject file = alice.files().create(FileCreateParams.builder().purpose(FilePurpose.USER_DATA).file(csv).build());

        String sent = new String(SimulatorClients.bytes(alice.files().content(file.id())), StandardCharsets.UTF_8);
        Response analysis = alice.responses().create(ask("Plot revenue", List.of(file.id())).build());

        assertThat(sent).startsWith("customer_id,revenue\n").doesNotContain("C-1001", "123-45-6789");
        var call = analysis.output().getFirst().asCodeInterpreterCall();
        assertThat(call.code()).hasValueSatisfying(code -> assertThat(code).contains("/mnt/data/orders.csv"));
        assertThat(call.outputs().orElseThrow().getFirst().asLogs().logs()).contains("customer_id,revenue").doesNotContain("C-1001");
        assertThat(alice.files().list().data()).extracting(FileObject::id).contains(file.id());
        assertThat(sdk(GatewayIntegrationTest.BOB_KEY, null).files().list().data()).extracting(FileObject::id).doesNotContain(file.id());
        assertThat(alice.containers().list().data()).anySatisfy(container ->
                assertThat(container.id()).isEqualTo(analysis.output().getFirst().asCodeInterpreterCall().containerId()));
    }

    @Test
    void shouldFlagTheRiskyCodeAPromptAsksFor() throws Exception {
        OpenAIClient carol = sdk(GatewayIntegrationTest.CAROL_KEY, null);

        String web = callId(carol.responses().create(ask("Download https://data.example.org/sales.csv", List.of()).build()));
        String environment = callId(carol.responses().create(ask("Print the environment variables", List.of()).build()));

        assertThat(flagged("http_client")).contains(web);
        assertThat(flagged("env_access")).contains(environment);
    }

    @Test
    void shouldMarkASessionWhoseCodeKeepsFailingAsRunaway() throws Exception {
        String session = "trial-" + UUID.randomUUID();
        OpenAIClient alice = sdk(GatewayIntegrationTest.ALICE_KEY, session);

        alice.responses().create(ask("This will fail: compute the growth rate", List.of()).build());
        alice.responses().create(ask("Try again, it will fail", List.of()).build());

        JsonNode runaway = audit("flag=runaway_session&session=" + session);
        assertThat(runaway.path("records")).isNotEmpty();
    }

    @Test
    void shouldRelayTheSimulatorsStreamAndAuditItsCode() throws Exception {
        String session = "trial-" + UUID.randomUUID();
        OpenAIClient alice = sdk(GatewayIntegrationTest.ALICE_KEY, session);
        List<ResponseStreamEvent> events;

        try (StreamResponse<ResponseStreamEvent> stream = alice.responses().createStreaming(ask("Plot revenue", List.of()).build())) {
            events = stream.stream().toList();
        }

        assertThat(events).hasSize(18);
        Response completed = events.getLast().asCompleted().response();
        assertThat(audit("kind=CODE_EXECUTION&session=" + session).path("records").valueStream()
                .map(stored -> stored.path("record").path("callId").asString())).containsExactly(callId(completed));
    }

    private static String callId(Response response) {
        return response.output().getFirst().asCodeInterpreterCall().id();
    }

    private List<String> flagged(String flag) throws IOException, InterruptedException {
        return audit("flag=" + flag + "&user=carol").path("records").valueStream()
                .map(stored -> stored.path("record").path("callId").asString()).toList();
    }

    private JsonNode audit(String query) throws IOException, InterruptedException {
        HttpRequest request = HttpRequest.newBuilder(URI.create("http://127.0.0.1:" + managementPort + "/actuator/audit?" + query))
                .header("Authorization", "Bearer " + GatewayIntegrationTest.ADMIN_KEY).build();
        try (HttpClient http = HttpClient.newHttpClient()) {
            HttpResponse<String> answer = http.send(request, HttpResponse.BodyHandlers.ofString());
            assertThat(answer.statusCode()).as(answer.body()).isEqualTo(200);
            return JSON.readTree(answer.body());
        }
    }
}
