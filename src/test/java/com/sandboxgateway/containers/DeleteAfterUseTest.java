package com.sandboxgateway.containers;

import static com.github.tomakehurst.wiremock.client.WireMock.aResponse;
import static com.github.tomakehurst.wiremock.client.WireMock.delete;
import static com.github.tomakehurst.wiremock.client.WireMock.deleteRequestedFor;
import static com.github.tomakehurst.wiremock.client.WireMock.get;
import static com.github.tomakehurst.wiremock.client.WireMock.okJson;
import static com.github.tomakehurst.wiremock.client.WireMock.post;
import static com.github.tomakehurst.wiremock.client.WireMock.urlEqualTo;
import static com.github.tomakehurst.wiremock.client.WireMock.urlPathEqualTo;
import static com.github.tomakehurst.wiremock.client.WireMock.urlPathMatching;
import static com.sandboxgateway.support.OpenAiStub.example;

import java.util.List;
import java.util.Map;

import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.springframework.test.context.TestPropertySource;

import com.openai.core.JsonValue;
import com.openai.core.http.StreamResponse;
import com.openai.models.responses.ResponseCreateParams;
import com.openai.models.responses.ResponseStreamEvent;
import com.sandboxgateway.support.GatewayIntegrationTest;

@TestPropertySource(properties = "gateway.policy.org.files.delete-after-use=true")
class DeleteAfterUseTest extends GatewayIntegrationTest {

    @BeforeEach
    void acceptDeletes() {
        openAi.stubFor(delete(urlPathMatching("/v1/files/.*")).willReturn(okJson("{\"deleted\":true}")));
    }

    @Test
    void shouldDeleteTheFilesAResponseUsedOnceItCompletes() throws Exception {
        String file = createdFile(ALICE_KEY, unique("file-"));
        openAi.stubFor(post("/v1/responses").willReturn(okJson(completedResponse(unique("resp_"), unique("cntr_")))));

        sdk(ALICE_KEY).responses().create(usingFile(file, false));

        openAi.verify(1, deleteRequestedFor(urlEqualTo("/v1/files/" + file)));
    }

    @Test
    void shouldWaitForABackgroundResponseToFinish() throws Exception {
        String file = createdFile(ALICE_KEY, unique("file-"));
        String response = unique("resp_");
        String completed = completedResponse(response, unique("cntr_"));
        openAi.stubFor(post("/v1/responses").willReturn(okJson(completed.replace("\"status\": \"completed\",\n  \"completed_at\"",
                "\"status\": \"queued\",\n  \"completed_at\""))));
        sdk(ALICE_KEY).responses().create(usingFile(file, true));
        openAi.verify(0, deleteRequestedFor(urlEqualTo("/v1/files/" + file)));
        openAi.stubFor(get(urlPathEqualTo("/v1/responses/" + response)).willReturn(okJson(completed)));

        sdk(ALICE_KEY).responses().retrieve(response);
        sdk(ALICE_KEY).responses().retrieve(response);

        openAi.verify(1, deleteRequestedFor(urlEqualTo("/v1/files/" + file)));
    }

    @Test
    void shouldDeleteAfterAStreamCompletes() throws Exception {
        String file = createdFile(ALICE_KEY, unique("file-"));
        openAi.stubFor(post("/v1/responses").willReturn(aResponse().withHeader("Content-Type", "text/event-stream")
                .withBody(example("responses.stream.code-interpreter.sse").replace(EXAMPLE_RESPONSE_ID, unique("resp_")))));

        try (StreamResponse<ResponseStreamEvent> stream = sdk(ALICE_KEY).responses().createStreaming(usingFile(file, false))) {
            stream.stream().count();
        }

        openAi.verify(1, deleteRequestedFor(urlEqualTo("/v1/files/" + file)));
    }

    private static ResponseCreateParams usingFile(String file, boolean background) {
        return ResponseCreateParams.builder().model("gpt-4.1").input("plot").background(background)
                .putAdditionalBodyProperty("tools", JsonValue.from(List.of(Map.of("type", "code_interpreter",
                        "container", Map.of("type", "auto", "file_ids", List.of(file)))))).build();
    }
}
