package com.sandboxgateway.support;

import static com.github.tomakehurst.wiremock.client.WireMock.aResponse;
import static com.github.tomakehurst.wiremock.client.WireMock.okJson;
import static com.github.tomakehurst.wiremock.client.WireMock.post;
import static com.sandboxgateway.support.OpenAiStub.example;

import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.UUID;
import java.util.function.Predicate;

import org.junit.jupiter.api.BeforeEach;
import org.springframework.beans.factory.annotation.Autowired;
import org.springframework.boot.test.context.SpringBootTest;
import org.springframework.boot.test.web.server.LocalServerPort;
import org.springframework.test.context.ActiveProfiles;
import org.springframework.test.context.DynamicPropertyRegistry;
import org.springframework.test.context.DynamicPropertySource;

import com.github.tomakehurst.wiremock.WireMockServer;
import com.openai.client.OpenAIClient;
import com.openai.client.okhttp.OpenAIOkHttpClient;
import com.openai.models.containers.ContainerCreateParams;
import com.openai.models.files.FileCreateParams;
import com.openai.models.files.FilePurpose;
import com.openai.models.responses.ResponseCreateParams;
import com.sandboxgateway.audit.AuditRecord;
import com.sandboxgateway.audit.AuditTrail;

import io.github.resilience4j.circuitbreaker.CircuitBreaker;
import io.github.resilience4j.circuitbreaker.CircuitBreakerRegistry;

/**
 * Base of the tests that run the whole gateway on a real port, with WireMock as OpenAI. The official
 * OpenAI Java SDK is the client, exactly as an internal app would use it.
 */
@SpringBootTest(webEnvironment = SpringBootTest.WebEnvironment.RANDOM_PORT)
@ActiveProfiles("test")
public abstract class GatewayIntegrationTest {

    public static final String ALICE_KEY = "sk-gw-test-alice";
    public static final String BOB_KEY = "sk-gw-test-bob";
    public static final String CAROL_KEY = "sk-gw-test-carol";
    public static final String ADMIN_KEY = "sk-gw-test-admin";
    public static final String ORG_KEY = "sk-org-test";

    public static final String EXAMPLE_FILE_ID = "file-9Xc2bT4kQm7Lz1RaPq3Wv8";
    public static final String EXAMPLE_CONTAINER_ID = "cntr_68a93ab72b9481918d09f8eec3a15079";
    public static final String EXAMPLE_RESPONSE_ID = "resp_68a93ab72b948191aa11bb22cc33dd44";

    protected static final WireMockServer openAi = OpenAiStub.server();

    @LocalServerPort
    protected int port;

    @DynamicPropertySource
    static void upstream(DynamicPropertyRegistry registry) {
        registry.add("gateway.upstream.base-url", openAi::baseUrl);
    }

    @Autowired
    private CircuitBreakerRegistry breakers;
    @Autowired
    private AuditTrail auditTrail;

    @BeforeEach
    void resetOpenAi() {
        openAi.resetAll();
        breakers.getAllCircuitBreakers().forEach(CircuitBreaker::reset);
    }

    /** The audit records the gateway kept that match, in chain order ({@link Audited}). */
    protected List<AuditRecord> audited(Predicate<AuditRecord> matching) {
        return Audited.records(auditTrail, matching);
    }

    protected String gatewayUrl() {
        return "http://127.0.0.1:" + port;
    }

    /** An SDK client pointed at the gateway, without the SDK's own retries so each call is one request. */
    protected OpenAIClient sdk(String key) {
        return OpenAIOkHttpClient.builder().baseUrl(gatewayUrl() + "/v1").apiKey(key).maxRetries(0).build();
    }

    /** A fresh object id, so tests sharing one database never see each other's objects. */
    protected static String unique(String prefix) {
        return prefix + UUID.randomUUID().toString().replace("-", "").substring(0, 24);
    }

    /** Uploads a file through the gateway as the key's owner; the stubbed upstream names it {@code id}. */
    protected String createdFile(String key, String id) throws IOException {
        openAi.stubFor(post("/v1/files").willReturn(okJson(example("files.object.json").replace(EXAMPLE_FILE_ID, id))));
        Path csv = Files.createTempFile("sales", ".csv");
        try {
            Files.writeString(csv, "month,revenue\n1,10\n");
            return sdk(key).files().create(FileCreateParams.builder().file(csv).purpose(FilePurpose.USER_DATA).build()).id();
        } finally {
            Files.delete(csv);
        }
    }

    /** Creates a container through the gateway as the key's owner; the stubbed upstream names it {@code id}. */
    protected String createdContainer(String key, String id) {
        openAi.stubFor(post("/v1/containers").willReturn(okJson(example("containers.object.json").replace(EXAMPLE_CONTAINER_ID, id))));
        return sdk(key).containers().create(ContainerCreateParams.builder().name("analysis-session").build()).id();
    }

    /** Creates a response through the gateway as the key's owner; the stubbed upstream names it {@code id}. */
    protected String createdResponse(String key, String id) {
        openAi.stubFor(post("/v1/responses").willReturn(okJson(completedResponse(id, unique("cntr_")))));
        return sdk(key).responses().create(ResponseCreateParams.builder().model("gpt-4.1").input("hi").build()).id();
    }

    /** The contract's completed response, renamed to {@code id}, whose code ran in {@code containerId}. */
    protected static String completedResponse(String id, String containerId) {
        return example("responses.create.response.completed.json").replace(EXAMPLE_RESPONSE_ID, id)
                .replace(EXAMPLE_CONTAINER_ID, containerId);
    }

    /** A completed response as it is answered while it still runs in the background: queued, no output yet. */
    protected static String queued(String completed) {
        return completed.replace("\"status\": \"completed\",\n  \"completed_at\"", "\"status\": \"queued\",\n  \"completed_at\"")
                .replaceAll("\"output\": \\[[\\s\\S]*?\\n  \\],", "\"output\": [],");
    }

    /**
     * A response whose code ran on the file, asked for as the key's owner: the contract's completed response with fresh
     * ids for the response, its container and its items.
     */
    protected HttpResponse<String> codeRunningResponse(String key, String file) throws IOException, InterruptedException {
        String answer = completedResponse(unique("resp_"), unique("cntr_"))
                .replace("ci_68a93ab8671881a39e3ac17e69d804a6", unique("ci_"))
                .replace("msg_68a93abc0f7c81a3b2e1d0c9f8e7d6c5", unique("msg_"));
        openAi.stubFor(post("/v1/responses").willReturn(okJson(answer)));
        return raw(HttpRequest.newBuilder().header("Authorization", "Bearer " + key).header("Content-Type", "application/json")
                .POST(HttpRequest.BodyPublishers.ofString("""
                        {"model":"gpt-4.1","input":"plot the revenue","tools":[{"type":"code_interpreter",
                         "container":{"type":"auto","file_ids":["%s"]}}]}""".formatted(file))), "/v1/responses");
    }

    /**
     * The streamed form of {@link #codeRunningResponse}: the contract's streamed code-interpreter response with fresh
     * ids, which the stubbed upstream sends a few bytes at a time (over about a second), so nearly every event reaches
     * the gateway on its own.
     */
    protected HttpResponse<String> streamedCodeRunningResponse(String key, String file) throws IOException, InterruptedException {
        String events = example("responses.stream.code-interpreter.sse").replace(EXAMPLE_RESPONSE_ID, unique("resp_"))
                .replace(EXAMPLE_CONTAINER_ID, unique("cntr_")).replace("ci_68a93ab8671881a39e3ac17e69d804a6", unique("ci_"))
                .replace("msg_68a93abc0f7c81a3b2e1d0c9f8e7d6c5", unique("msg_"));
        openAi.stubFor(post("/v1/responses").willReturn(aResponse().withHeader("Content-Type", "text/event-stream")
                .withBody(events).withChunkedDribbleDelay(events.length() / 64, 1_000)));
        return raw(HttpRequest.newBuilder().header("Authorization", "Bearer " + key).header("Content-Type", "application/json")
                .POST(HttpRequest.BodyPublishers.ofString("""
                        {"model":"gpt-4.1","input":"plot the revenue","stream":true,"tools":[{"type":"code_interpreter",
                         "container":{"type":"auto","file_ids":["%s"]}}]}""".formatted(file))), "/v1/responses");
    }

    /** A raw call for what the SDK cannot send (unknown routes, bad bodies). */
    protected HttpResponse<String> raw(HttpRequest.Builder request, String path) throws IOException, InterruptedException {
        try (HttpClient http = HttpClient.newHttpClient()) {
            return http.send(request.uri(URI.create(gatewayUrl() + path)).build(), HttpResponse.BodyHandlers.ofString());
        }
    }
}
