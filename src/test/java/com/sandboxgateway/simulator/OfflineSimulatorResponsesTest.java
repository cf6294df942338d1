package com.sandboxgateway.simulator;

import static org.assertj.core.api.Assertions.assertThat;

import java.time.Instant;
import java.util.ArrayList;
import java.util.List;

import com.fasterxml.jackson.databind.JsonNode;
import com.openai.core.ObjectMappers;
import com.openai.core.http.HttpResponse;
import com.openai.core.http.StreamResponse;
import com.openai.models.responses.Response;
import com.openai.models.responses.ResponseCancelParams;
import com.openai.models.responses.ResponseCodeInterpreterToolCall;
import com.openai.models.responses.ResponseCreateParams;
import com.openai.models.responses.ResponseOutputText;
import com.openai.models.responses.ResponseRetrieveParams;
import com.openai.models.responses.ResponseStatus;
import com.openai.models.responses.ResponseStreamEvent;
import com.openai.models.responses.Tool;
import org.junit.jupiter.api.Test;

class OfflineSimulatorResponsesTest extends SimulatorTest {

    private static ResponseCreateParams.Builder codeInterpreterRequest() {
        return ResponseCreateParams.builder()
                .model("gpt-4.1")
                .instructions("You are a data analyst. Use the \"python\" tool.")
                .input("Load sales.csv and plot revenue per month as plot.png")
                .addTool(Tool.CodeInterpreter.builder()
                        .container(Tool.CodeInterpreter.Container.CodeInterpreterToolAuto.builder().build())
                        .build());
    }

    @Test
    void shouldAnswerCreateWithCodeInterpreterCallAndCitedMessage() {
        long before = Instant.now().getEpochSecond();

        Response response = openAi.responses().create(codeInterpreterRequest().build());

        assertThat(response.id()).startsWith("resp_");
        assertThat(response.status()).contains(ResponseStatus.COMPLETED);
        assertThat(response.model().asChat().asString()).isEqualTo("gpt-4.1");
        assertThat(response.instructions().orElseThrow().asString())
                .isEqualTo("You are a data analyst. Use the \"python\" tool.");
        assertThat((long) response.createdAt()).isBetween(before, Instant.now().getEpochSecond());

        ResponseCodeInterpreterToolCall call = response.output().get(0).asCodeInterpreterCall();
        assertThat(call.id()).startsWith("ci_");
        assertThat(call.containerId()).startsWith("cntr_");
        assertThat(call.code()).hasValueSatisfying(code -> assertThat(code).contains("import pandas"));
        assertThat(call.outputs().orElseThrow().get(0).asLogs().logs()).isEqualTo("(12, 3)\n");

        var message = response.output().get(1).asMessage();
        assertThat(message.id()).startsWith("msg_");
        ResponseOutputText text = message.content().get(0).asOutputText();
        var citation = text.annotations().get(0).asContainerFileCitation();
        assertThat(citation.containerId()).isEqualTo(call.containerId());
        assertThat(text.text().substring((int) citation.startIndex(), (int) citation.endIndex()))
                .isEqualTo("sandbox:/mnt/data/plot.png");

        assertThat(response.usage().orElseThrow().totalTokens()).isEqualTo(1830);
    }

    @Test
    void shouldGiveEveryCreatedResponseFreshIds() {
        Response first = openAi.responses().create(codeInterpreterRequest().build());
        Response second = openAi.responses().create(codeInterpreterRequest().build());

        assertThat(first.id()).isNotEqualTo(second.id());
        assertThat(first.output().get(0).asCodeInterpreterCall().id())
                .isNotEqualTo(second.output().get(0).asCodeInterpreterCall().id());
    }

    @Test
    void shouldRunInTheExplicitContainerWhenTheRequestNamesOne() {
        Response response = openAi.responses().create(codeInterpreterRequest()
                .tools(List.of(Tool.ofCodeInterpreter(Tool.CodeInterpreter.builder().container("cntr_mine").build())))
                .build());

        assertThat(response.output().get(0).asCodeInterpreterCall().containerId()).isEqualTo("cntr_mine");
    }

    @Test
    void shouldQueueBackgroundResponses() {
        Response response = openAi.responses().create(codeInterpreterRequest().background(true).build());

        assertThat(response.status()).contains(ResponseStatus.QUEUED);
        assertThat(response.background()).contains(true);
        assertThat(response.output()).isEmpty();
        assertThat(response.usage()).isEmpty();
    }

    @Test
    void shouldStreamCodeInterpreterEventsInOrder() {
        List<String> types = new ArrayList<>();
        List<Long> arrivals = new ArrayList<>();
        List<String> codeDeltas = new ArrayList<>();
        Response completed = null;

        try (StreamResponse<ResponseStreamEvent> stream =
                openAi.responses().createStreaming(codeInterpreterRequest().build())) {
            for (ResponseStreamEvent event : (Iterable<ResponseStreamEvent>) stream.stream()::iterator) {
                arrivals.add(System.nanoTime());
                types.add(typeOf(event));
                event.codeInterpreterCallCodeDelta().ifPresent(delta -> codeDeltas.add(delta.delta()));
                if (event.isCompleted()) {
                    completed = event.asCompleted().response();
                }
            }
        }

        assertThat(types).hasSize(18).startsWith("response.created", "response.in_progress")
                .containsSubsequence(
                        "response.output_item.added",
                        "response.code_interpreter_call.in_progress",
                        "response.code_interpreter_call_code.delta",
                        "response.code_interpreter_call_code.done",
                        "response.code_interpreter_call.interpreting",
                        "response.code_interpreter_call.completed",
                        "response.output_item.done",
                        "response.output_text.delta",
                        "response.output_text.annotation.added",
                        "response.output_text.done",
                        "response.output_item.done")
                .endsWith("response.completed");
        assertThat(String.join("", codeDeltas)).startsWith("import pandas as pd\n").contains("savefig");
        assertThat(completed).isNotNull();
        assertThat(completed.id()).startsWith("resp_");
        assertThat(completed.model().asChat().asString()).isEqualTo("gpt-4.1");
        assertThat(completed.usage().orElseThrow().totalTokens()).isEqualTo(1830);

        long spreadMillis = (arrivals.getLast() - arrivals.getFirst()) / 1_000_000;
        assertThat(spreadMillis).as("events should trickle in, not arrive in one piece").isGreaterThan(100);
    }

    @Test
    void shouldRetrieveACompletedResponseWithTheRequestedId() {
        Response response = openAi.responses().retrieve(
                ResponseRetrieveParams.builder().responseId("resp_abc123").build());

        assertThat(response.id()).isEqualTo("resp_abc123");
        assertThat(response.status()).contains(ResponseStatus.COMPLETED);
        assertThat(response.output().get(0).isCodeInterpreterCall()).isTrue();
    }

    @Test
    void shouldDeleteAResponse() {
        try (HttpResponse response = openAi.responses().withRawResponse().delete("resp_abc123")) {
            JsonNode body = SimulatorClients.jsonBody(response);

            assertThat(body.get("id").asText()).isEqualTo("resp_abc123");
            assertThat(body.get("object").asText()).isEqualTo("response");
            assertThat(body.get("deleted").asBoolean()).isTrue();
        }
    }

    @Test
    void shouldCancelABackgroundResponse() {
        Response response = openAi.responses().cancel(
                ResponseCancelParams.builder().responseId("resp_abc123").build());

        assertThat(response.id()).isEqualTo("resp_abc123");
        assertThat(response.status()).contains(ResponseStatus.CANCELLED);
        assertThat(response.background()).contains(true);
    }

    private static String typeOf(ResponseStreamEvent event) {
        return ObjectMappers.jsonMapper().valueToTree(event).get("type").asText();
    }
}
