package com.sandboxgateway.tracing;

import static com.github.tomakehurst.wiremock.client.WireMock.aResponse;
import static com.github.tomakehurst.wiremock.client.WireMock.anyRequestedFor;
import static com.github.tomakehurst.wiremock.client.WireMock.anyUrl;
import static com.github.tomakehurst.wiremock.client.WireMock.okJson;
import static com.github.tomakehurst.wiremock.client.WireMock.post;
import static com.sandboxgateway.support.OpenAiStub.example;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.security.SecureRandom;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.function.Function;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;
import org.springframework.boot.test.system.CapturedOutput;
import org.springframework.boot.test.system.OutputCaptureExtension;
import org.springframework.boot.test.web.server.LocalManagementPort;
import org.springframework.beans.factory.annotation.Autowired;
import org.springframework.test.context.DynamicPropertyRegistry;
import org.springframework.test.context.DynamicPropertySource;
import org.springframework.test.context.TestPropertySource;

import com.openai.core.http.StreamResponse;
import com.openai.errors.BadRequestException;
import com.openai.models.responses.ResponseCreateParams;
import com.openai.models.responses.ResponseStreamEvent;
import com.sandboxgateway.audit.AuditQuery;
import com.sandboxgateway.audit.AuditTrail;
import com.sandboxgateway.support.GatewayIntegrationTest;
import com.sandboxgateway.support.ShellAnswers;
import com.sandboxgateway.tracing.OtlpReceiver.ReceivedSpan;

import io.opentelemetry.sdk.trace.SdkTracerProvider;
import tools.jackson.databind.json.JsonMapper;

/**
 * With tracing on, every request is a trace exported over OTLP/HTTP (WireMock as the receiver): the span
 * tree and attributes of a refused request and of streamed ones that ran code and shell commands.
 */
@TestPropertySource(properties = {"management.tracing.export.enabled=true", "logging.structured.format.console=ecs"})
@ExtendWith(OutputCaptureExtension.class)
class RequestTracingTest extends GatewayIntegrationTest {

    private static final OtlpReceiver OTLP = new OtlpReceiver();
    private static final String EXAMPLE_CALL = "ci_68a93ab8671881a39e3ac17e69d804a6";

    @DynamicPropertySource
    static void otlpEndpoint(DynamicPropertyRegistry registry) {
        registry.add("management.opentelemetry.tracing.export.otlp.endpoint", OTLP::endpoint);
    }

    private static final JsonMapper JSON = JsonMapper.builder().build();

    @Autowired
    SdkTracerProvider tracerProvider;

    @Autowired
    AuditTrail trail;

    @LocalManagementPort
    int managementPort;

    private String requestId;

    @Test
    void shouldTraceARefusedRequestWithTheStepThatRefusedIt(CapturedOutput output) throws Exception {
        String prompt = "Deploy with ghp_" + token(36);
        assertThatThrownBy(() -> sdk(ALICE_KEY).responses().create(ResponseCreateParams.builder().model("gpt-4.1").input(prompt).build()))
                .isInstanceOfSatisfying(BadRequestException.class, e -> requestId = e.headers().values("x-request-id").getFirst());
        openAi.verify(0, anyRequestedFor(anyUrl()));

        List<ReceivedSpan> trace = traceOf("gateway.request_id", requestId);
        ReceivedSpan request = only(trace, span -> span.kind().equals("SPAN_KIND_SERVER"));
        String traceId = request.traceId();
        assertThat(trail.query(new AuditQuery("alice", null, null, null, null, null, "SECRET_FINDING", null, null, 10_000)))
                .filteredOn(stored -> requestId.equals(stored.record().requestId())).singleElement()
                .satisfies(stored -> assertThat(stored.record().traceId()).isEqualTo(traceId));
        assertThat(output.getOut().lines().filter(line -> line.contains(requestId))).isNotEmpty()
                .allSatisfy(line -> assertThat(JSON.readTree(line).path("traceId").asString()).isEqualTo(traceId));
        assertThat(request.attributes()).containsEntry("gateway.team", "analytics").containsEntry("gateway.route", "responses_create")
                .containsEntry("gateway.refusal.code", "secret_detected").containsEntry("error.type", "secret_detected");
        ReceivedSpan refused = only(trace, span -> span.name().equals("policy PromptGuard"));
        assertThat(refused.parentSpanId()).isEqualTo(request.spanId());
        assertThat(refused.attributes()).containsEntry("gateway.policy.outcome", "refused").containsEntry("gateway.refusal.code", "secret_detected");
        // The admission did work (tokens taken, turns reserved, their headers set); the container rules had nothing to look at.
        assertThat(only(trace, span -> span.name().equals("policy Admission")).attributes())
                .containsEntry("gateway.policy.outcome", "changed");
        assertThat(trace).extracting(ReceivedSpan::name).doesNotContain("policy ContainerRules", "policy RunawaySessions")
                .noneMatch(name -> name.startsWith("chat"));
        assertThat(trace.toString()).doesNotContain(prompt.substring(prompt.indexOf("ghp_")));
    }

    @Test
    void shouldTraceAStreamedResponseThatRanCodeDownToTheCodeBlock() throws Exception {
        String call = unique("ci_");
        String response = unique("resp_");
        openAi.stubFor(post("/v1/responses").willReturn(aResponse().withHeader("Content-Type", "text/event-stream")
                .withBody(example("responses.stream.code-interpreter.sse").replace(EXAMPLE_CALL, call)
                        .replace(EXAMPLE_RESPONSE_ID, response))));

        try (StreamResponse<ResponseStreamEvent> stream = sdk(ALICE_KEY).responses().createStreaming(
                ResponseCreateParams.builder().model("gpt-4.1").input("plot the revenue").build())) {
            assertThat(stream.stream().count()).isEqualTo(18);
        }

        List<ReceivedSpan> trace = traceOf("gen_ai.response.id", response);
        ReceivedSpan request = only(trace, span -> span.kind().equals("SPAN_KIND_SERVER"));
        ReceivedSpan chat = only(trace, span -> span.name().equals("chat gpt-4.1"));
        ReceivedSpan code = only(trace, span -> span.name().equals("execute_tool code_interpreter"));
        assertThat(chat.parentSpanId()).isEqualTo(request.spanId());
        assertThat(code.parentSpanId()).isEqualTo(chat.spanId());
        assertThat(chat.kind()).isEqualTo("SPAN_KIND_CLIENT");
        assertThat(chat.attributes()).containsEntry("gen_ai.operation.name", "chat").containsEntry("gen_ai.provider.name", "openai")
                .containsEntry("gen_ai.request.model", "gpt-4.1").containsEntry("gen_ai.response.model", "gpt-4.1-2025-04-14")
                .containsEntry("gen_ai.response.id", response).containsEntry("gen_ai.usage.input_tokens", "1520")
                .containsKey("gen_ai.usage.output_tokens").containsEntry("http.response.status_code", "200");
        assertThat(code.attributes()).containsEntry("gen_ai.operation.name", "execute_tool").containsEntry("gen_ai.tool.name", "code_interpreter")
                .containsEntry("gen_ai.tool.call.id", call).containsEntry("gateway.code.status", "completed");
        assertThat(request.attributes()).containsEntry("gateway.team", "analytics").containsEntry("gateway.turns.executed", "1")
                .containsKey("gateway.turns.reserved").doesNotContainKey("gateway.refusal.code");
        assertThat(only(trace, span -> span.name().equals("policy Admission")).parentSpanId()).isEqualTo(request.spanId());
        assertThat(trail.query(new AuditQuery("alice", null, null, null, null, null, "CODE_EXECUTION", null, null, 10_000)))
                .filteredOn(stored -> call.equals(stored.record().callId())).singleElement()
                .satisfies(stored -> assertThat(stored.record().traceId()).isEqualTo(request.traceId()));
    }

    @Test
    void shouldTraceAStreamedShellCallFromItsCommandsToItsOutput() throws Exception {
        String call = unique("sh_");
        String response = unique("resp_");
        openAi.stubFor(post("/v1/responses").willReturn(aResponse().withHeader("Content-Type", "text/event-stream")
                .withBody(ShellAnswers.streamed(ShellAnswers.completed(response, call, unique("cntr_"), List.of("ls /mnt/data", "false"),
                        List.of(new ShellAnswers.Ran("report.csv\n", "", 0), new ShellAnswers.Ran("", "", 1)))))));

        try (StreamResponse<ResponseStreamEvent> stream = sdk(ALICE_KEY).responses().createStreaming(
                ResponseCreateParams.builder().model("gpt-5.1").input("what is there?").build())) {
            assertThat(stream.stream().filter(ResponseStreamEvent::isOutputItemDone).count()).isEqualTo(3);
        }

        List<ReceivedSpan> trace = traceOf("gen_ai.response.id", response);
        ReceivedSpan request = only(trace, span -> span.kind().equals("SPAN_KIND_SERVER"));
        ReceivedSpan chat = only(trace, span -> span.name().equals("chat gpt-5.1"));
        ReceivedSpan shell = only(trace, span -> span.name().equals("execute_tool shell"));
        assertThat(shell.parentSpanId()).isEqualTo(chat.spanId());
        assertThat(shell.attributes()).containsEntry("gen_ai.operation.name", "execute_tool").containsEntry("gen_ai.tool.name", "shell")
                .containsEntry("gen_ai.tool.type", "extension").containsEntry("gen_ai.tool.call.id", call)
                .containsEntry("gateway.code.status", "completed").doesNotContainKey("error.type");
        assertThat(trace).extracting(ReceivedSpan::name).doesNotContain("execute_tool code_interpreter");
        assertThat(request.attributes()).containsEntry("gateway.turns.executed", "1");
        assertThat(trail.query(new AuditQuery("alice", null, null, null, null, null, "SHELL_EXECUTION", null, null, 10_000)))
                .filteredOn(stored -> call.equals(stored.record().callId())).singleElement()
                .satisfies(stored -> assertThat(stored.record().traceId()).isEqualTo(request.traceId()));
    }

    @Test
    void shouldLinkTheUpstreamLatencyHistogramToTracesThroughExemplars() throws Exception {
        openAi.stubFor(post("/v1/responses").willReturn(okJson(completedResponse(unique("resp_"), unique("cntr_"))
                .replace(EXAMPLE_CALL, unique("ci_")))));
        sdk(ALICE_KEY).responses().create(ResponseCreateParams.builder().model("gpt-4.1").input("plot").build());

        HttpResponse<String> scrape;
        try (HttpClient http = HttpClient.newHttpClient()) {
            scrape = http.send(HttpRequest.newBuilder(URI.create("http://127.0.0.1:" + managementPort + "/actuator/prometheus"))
                    .header("Accept", "application/openmetrics-text; version=1.0.0; charset=utf-8").build(),
                    HttpResponse.BodyHandlers.ofString());
        }
        Matcher exemplar = Pattern.compile("^gateway_upstream_latency_seconds_bucket\\{[^}]*route=\"responses_create\"[^}]*} \\S+ "
                + "# \\{[^}]*trace_id=\"([0-9a-f]{32})\"", Pattern.MULTILINE).matcher(scrape.body());
        List<String> traced = new java.util.ArrayList<>();
        while (exemplar.find()) {
            traced.add(exemplar.group(1));
        }
        assertThat(traced).as("exemplars on the latency buckets").isNotEmpty();
        List<String> upstreamCalls = exported(spans -> {
            List<String> calls = spans.stream().filter(span -> span.name().startsWith("chat ")).map(ReceivedSpan::traceId).toList();
            return calls.containsAll(traced) ? calls : null;
        });
        assertThat(upstreamCalls).as("the exemplars' traces among the exported upstream calls").isNotNull().containsAll(traced);
    }

    /** The spans of the one trace that holds a span with this attribute, once the exporter has sent them. */
    /**
     * The spans of the one trace that holds a span with this attribute, once it is complete: the server span,
     * which ends last (after the client has its answer), has been exported too.
     */
    private List<ReceivedSpan> traceOf(String attribute, String value) throws InterruptedException {
        List<ReceivedSpan> trace = exported(spans -> {
            List<String> traces = spans.stream().filter(span -> value.equals(span.attributes().get(attribute)))
                    .map(ReceivedSpan::traceId).distinct().toList();
            List<ReceivedSpan> spansOfTrace = spans.stream().filter(span -> traces.contains(span.traceId())).toList();
            return spansOfTrace.stream().anyMatch(span -> span.kind().equals("SPAN_KIND_SERVER")) ? spansOfTrace : null;
        });
        assertThat(trace).as("a complete trace with " + attribute + "=" + value + " in " + OTLP.spans()).isNotNull();
        assertThat(trace.stream().map(ReceivedSpan::traceId).distinct()).as("one trace").hasSize(1);
        return trace;
    }

    /**
     * Flushes the exporter until {@code complete} finds what it looks for in the spans received, and returns
     * that; {@code null} when it never does (the bound only keeps a broken build from hanging).
     */
    private <T> T exported(Function<List<ReceivedSpan>, T> complete) throws InterruptedException {
        long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(60);
        while (true) {
            assertThat(tracerProvider.forceFlush().join(30, TimeUnit.SECONDS).isSuccess()).as("spans exported").isTrue();
            T found = complete.apply(OTLP.spans());
            if (found != null || System.nanoTime() > deadline) {
                return found;
            }
            Thread.sleep(20);
        }
    }

    private static ReceivedSpan only(List<ReceivedSpan> trace, java.util.function.Predicate<ReceivedSpan> which) {
        List<ReceivedSpan> matching = trace.stream().filter(which).toList();
        assertThat(matching).as("one matching span in " + trace).hasSize(1);
        return matching.getFirst();
    }

    private static String token(int length) {
        String alphabet = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789";
        SecureRandom random = new SecureRandom();
        StringBuilder token = new StringBuilder();
        for (int i = 0; i < length; i++) {
            token.append(alphabet.charAt(random.nextInt(alphabet.length())));
        }
        return token.toString();
    }
}
