package com.sandboxgateway.ownership;

import static com.github.tomakehurst.wiremock.client.WireMock.aResponse;
import static com.github.tomakehurst.wiremock.client.WireMock.anyRequestedFor;
import static com.github.tomakehurst.wiremock.client.WireMock.anyUrl;
import static com.github.tomakehurst.wiremock.client.WireMock.okJson;
import static com.github.tomakehurst.wiremock.client.WireMock.post;
import static com.github.tomakehurst.wiremock.client.WireMock.postRequestedFor;
import static com.github.tomakehurst.wiremock.client.WireMock.urlEqualTo;
import static com.sandboxgateway.support.OpenAiStub.example;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Set;

import org.junit.jupiter.api.Test;
import org.springframework.beans.factory.annotation.Autowired;

import com.openai.core.JsonValue;
import com.openai.core.http.StreamResponse;
import com.openai.errors.NotFoundException;
import com.openai.models.responses.Response;
import com.openai.models.responses.ResponseCreateParams;
import com.openai.models.responses.ResponseInputItem;
import com.openai.models.responses.ResponseStreamEvent;
import com.sandboxgateway.auth.Principal;
import com.sandboxgateway.support.GatewayIntegrationTest;

import tools.jackson.databind.JsonNode;
import tools.jackson.databind.json.JsonMapper;

/**
 * The output items of a response (messages, code-interpreter calls, ...) and the container files its text
 * cites are its caller's: only they can reference or replay them, whether the response was plain or streamed.
 */
class ItemOwnershipTest extends GatewayIntegrationTest {

    @Autowired
    private OwnershipStore store;

    private static final String EXAMPLE_CALL = "ci_68a93ab8671881a39e3ac17e69d804a6";
    private static final String EXAMPLE_MESSAGE = "msg_68a93abc0f7c81a3b2e1d0c9f8e7d6c5";
    private static final String EXAMPLE_CITED_FILE = "cfile_68a93ac2d5e88191a7978f477a09bdf5";

    @Test
    void shouldLetOnlyTheCallerReferenceTheItemsOfTheirResponse() {
        String call = unique("ci_");
        String message = unique("msg_");
        openAi.stubFor(post("/v1/responses").willReturn(okJson(completedResponse(unique("resp_"), unique("cntr_"))
                .replace(EXAMPLE_CALL, call).replace(EXAMPLE_MESSAGE, message))));
        sdk(ALICE_KEY).responses().create(ResponseCreateParams.builder().model("gpt-4.1").input("plot").build());

        assertReferencesAreAlicesOnly(call, message);
    }

    @Test
    void shouldLetOnlyTheCallerReferenceTheItemsOfTheirStreamedResponse() {
        String call = unique("ci_");
        String message = unique("msg_");
        openAi.stubFor(post("/v1/responses").willReturn(aResponse().withHeader("Content-Type", "text/event-stream")
                .withBody(example("responses.stream.code-interpreter.sse").replace(EXAMPLE_RESPONSE_ID, unique("resp_"))
                        .replace(EXAMPLE_CONTAINER_ID, unique("cntr_")).replace(EXAMPLE_CALL, call).replace(EXAMPLE_MESSAGE, message))));
        try (StreamResponse<ResponseStreamEvent> stream = sdk(ALICE_KEY).responses().createStreaming(
                ResponseCreateParams.builder().model("gpt-4.1").input("plot").build())) {
            assertThat(stream.stream().count()).isPositive();
        }

        assertReferencesAreAlicesOnly(call, message);
    }

    @Test
    void shouldCheckEveryItemOfALongReplayAndNameTheForeignOne() {
        Principal alice = new Principal("alice", "analytics", Set.of("user"));
        List<String> items = new ArrayList<>();
        for (int i = 0; i < 1_200; i++) {
            items.add(unique("msg_"));
            store.record(items.getLast(), ObjectKind.ITEM, alice, null, null);
        }
        String bobs = unique("msg_");
        store.record(bobs, ObjectKind.ITEM, new Principal("bob", "finance", Set.of("user")), null, null);
        items.add(1_100, bobs);
        openAi.stubFor(post("/v1/responses").willReturn(okJson(completedResponse(unique("resp_"), unique("cntr_")))));

        assertThatThrownBy(() -> sdk(ALICE_KEY).responses().create(references(items)))
                .isInstanceOfSatisfying(NotFoundException.class, e -> assertThat(e.param()).hasValue("input[1100].id"));
        items.remove(bobs);
        sdk(ALICE_KEY).responses().create(references(items));
        openAi.verify(1, postRequestedFor(urlEqualTo("/v1/responses")));
    }

    @Test
    void shouldLetOnlyTheCallerReplayTheContainerFilesTheirAnswerCites() {
        String container = unique("cntr_");
        String cited = unique("cfile_");
        // Fresh item ids: the example's own are owned by whichever test in this JVM recorded them first.
        openAi.stubFor(post("/v1/responses").willReturn(okJson(completedResponse(unique("resp_"), container)
                .replace(EXAMPLE_CALL, unique("ci_")).replace(EXAMPLE_MESSAGE, unique("msg_")).replace(EXAMPLE_CITED_FILE, cited))));
        Response answer = sdk(ALICE_KEY).responses().create(ResponseCreateParams.builder().model("gpt-4.1").input("plot").build());

        // The owner replays the answer's message as it came, citation and all.
        openAi.resetRequests();
        sdk(ALICE_KEY).responses().create(ResponseCreateParams.builder().model("gpt-4.1").inputOfResponse(List.of(
                ResponseInputItem.ofResponseOutputMessage(answer.output().get(1).asMessage()))).build());
        assertThat(sentBody().at("/input/0/content/0/annotations/0/file_id").asString()).isEqualTo(cited);

        assertCitationIsAlicesOnly(container, cited);
    }

    @Test
    void shouldLetOnlyTheCallerReplayTheContainerFilesTheirStreamedAnswerCites() {
        String container = unique("cntr_");
        String cited = unique("cfile_");
        openAi.stubFor(post("/v1/responses").willReturn(aResponse().withHeader("Content-Type", "text/event-stream")
                .withBody(example("responses.stream.code-interpreter.sse").replace(EXAMPLE_RESPONSE_ID, unique("resp_"))
                        .replace(EXAMPLE_CONTAINER_ID, container).replace(EXAMPLE_CALL, unique("ci_"))
                        .replace(EXAMPLE_MESSAGE, unique("msg_")).replace(EXAMPLE_CITED_FILE, cited))));
        try (StreamResponse<ResponseStreamEvent> stream = sdk(ALICE_KEY).responses().createStreaming(
                ResponseCreateParams.builder().model("gpt-4.1").input("plot").build())) {
            assertThat(stream.stream().count()).isPositive();
        }

        openAi.resetRequests();
        openAi.stubFor(post("/v1/responses").willReturn(okJson(completedResponse(unique("resp_"), unique("cntr_")))));
        sdk(ALICE_KEY).responses().create(citing(container, cited));
        assertThat(sentBody().at("/input/0/content/0/annotations/0/file_id").asString()).isEqualTo(cited);

        assertCitationIsAlicesOnly(container, cited);
    }

    /** Another team can cite neither Alice's container nor, beside a container of its own, her container file. */
    private void assertCitationIsAlicesOnly(String container, String cited) {
        String bobsContainer = createdContainer(BOB_KEY, unique("cntr_"));
        openAi.resetRequests();
        assertThatThrownBy(() -> sdk(BOB_KEY).responses().create(citing(container, cited)))
                .isInstanceOfSatisfying(NotFoundException.class,
                        e -> assertThat(e.param()).hasValue("input[0].content[0].annotations[0].container_id"));
        assertThatThrownBy(() -> sdk(BOB_KEY).responses().create(citing(bobsContainer, cited)))
                .isInstanceOfSatisfying(NotFoundException.class, e -> {
                    assertThat(e.param()).hasValue("input[0].content[0].annotations[0].file_id");
                    assertThat(e.getMessage()).contains("No such ContainerFile object: " + cited);
                });
        openAi.verify(0, anyRequestedFor(anyUrl()));
    }

    /** Replayed assistant text (without its item id) citing a container file. */
    private static ResponseCreateParams citing(String container, String file) {
        return ResponseCreateParams.builder().model("gpt-4.1").putAdditionalBodyProperty("input", JsonValue.from(List.of(Map.of(
                "type", "message", "role", "assistant", "content", List.of(Map.of("type", "output_text", "text", "See plot.png",
                        "annotations", List.of(Map.of("type", "container_file_citation", "container_id", container,
                                "file_id", file, "filename", "plot.png", "start_index", 4, "end_index", 12)))))))).build();
    }

    private static JsonNode sentBody() {
        var requests = openAi.findAll(postRequestedFor(urlEqualTo("/v1/responses")));
        assertThat(requests).hasSize(1);
        return JsonMapper.builder().build().readTree(requests.getFirst().getBodyAsString());
    }

    private void assertReferencesAreAlicesOnly(String call, String message) {
        openAi.resetRequests();
        for (String key : List.of(BOB_KEY, CAROL_KEY)) {
            for (String item : List.of(call, message)) {
                assertThatThrownBy(() -> sdk(key).responses().create(reference(item)))
                        .isInstanceOfSatisfying(NotFoundException.class, e -> {
                            assertThat(e.code()).hasValue("not_found");
                            assertThat(e.param()).hasValue("input[0].id");
                            assertThat(e.getMessage()).contains(item);
                        });
            }
        }
        openAi.verify(0, anyRequestedFor(anyUrl()));

        openAi.stubFor(post("/v1/responses").willReturn(okJson(completedResponse(unique("resp_"), unique("cntr_")))));
        sdk(ALICE_KEY).responses().create(reference(call));
        sdk(ALICE_KEY).responses().create(reference(message));
        openAi.verify(2, postRequestedFor(urlEqualTo("/v1/responses")));
    }

    private static ResponseCreateParams reference(String item) {
        return references(List.of(item));
    }

    private static ResponseCreateParams references(List<String> items) {
        return ResponseCreateParams.builder().model("gpt-4.1").inputOfResponse(items.stream().map(item ->
                ResponseInputItem.ofItemReference(ResponseInputItem.ItemReference.builder().id(item).build())).toList()).build();
    }
}
