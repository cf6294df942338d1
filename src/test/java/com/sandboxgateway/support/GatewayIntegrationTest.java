package com.sandboxgateway.support;

import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.io.IOException;

import org.junit.jupiter.api.BeforeEach;
import org.springframework.boot.test.context.SpringBootTest;
import org.springframework.boot.test.web.server.LocalServerPort;
import org.springframework.test.context.ActiveProfiles;
import org.springframework.test.context.DynamicPropertyRegistry;
import org.springframework.test.context.DynamicPropertySource;

import com.github.tomakehurst.wiremock.WireMockServer;
import com.openai.client.OpenAIClient;
import com.openai.client.okhttp.OpenAIOkHttpClient;

/**
 * Base of the tests that run the whole gateway on a real port, with WireMock as OpenAI. The official
 * OpenAI Java SDK is the client, exactly as an internal app would use it.
 */
@SpringBootTest(webEnvironment = SpringBootTest.WebEnvironment.RANDOM_PORT)
@ActiveProfiles("test")
public abstract class GatewayIntegrationTest {

    public static final String ALICE_KEY = "sk-gw-test-alice";
    public static final String BOB_KEY = "sk-gw-test-bob";
    public static final String ORG_KEY = "sk-org-test";

    protected static final WireMockServer openAi = OpenAiStub.server();

    @LocalServerPort
    protected int port;

    @DynamicPropertySource
    static void upstream(DynamicPropertyRegistry registry) {
        registry.add("gateway.upstream.base-url", openAi::baseUrl);
    }

    @BeforeEach
    void resetOpenAi() {
        openAi.resetAll();
    }

    protected String gatewayUrl() {
        return "http://127.0.0.1:" + port;
    }

    /** An SDK client pointed at the gateway, without the SDK's own retries so each call is one request. */
    protected OpenAIClient sdk(String key) {
        return OpenAIOkHttpClient.builder().baseUrl(gatewayUrl() + "/v1").apiKey(key).maxRetries(0).build();
    }

    /** A raw call for what the SDK cannot send (unknown routes, bad bodies). */
    protected HttpResponse<String> raw(HttpRequest.Builder request, String path) throws IOException, InterruptedException {
        try (HttpClient http = HttpClient.newHttpClient()) {
            return http.send(request.uri(URI.create(gatewayUrl() + path)).build(), HttpResponse.BodyHandlers.ofString());
        }
    }
}
