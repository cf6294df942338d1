package com.sandboxgateway.simulator;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.nio.charset.StandardCharsets;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;

import org.junit.jupiter.api.Test;

import com.openai.core.ObjectMappers;
import com.openai.core.http.StreamResponse;
import com.openai.errors.BadRequestException;
import com.openai.errors.NotFoundException;
import com.openai.models.containers.ContainerCreateParams;
import com.openai.models.containers.files.content.ContentRetrieveParams;
import com.openai.models.files.FileCreateParams;
import com.openai.models.files.FilePurpose;
import com.openai.models.responses.Response;
import com.openai.models.responses.ResponseCodeInterpreterToolCall;
import com.openai.models.responses.ResponseCreateParams;
import com.openai.models.responses.ResponseOutputText;
import com.openai.models.responses.ResponseRetrieveParams;
import com.openai.models.responses.ResponseStatus;
import com.openai.models.responses.ResponseStreamEvent;
import com.openai.models.responses.Tool;

/**
 * Responses run the code the prompt asks for in a kept container: the data uploaded for it, the chart the
 * code saved, background responses finished when fetched, streams that tell the same response.
 */
class OfflineSimulatorResponsesTest extends SimulatorTest {

    private static final String CSV = "month,revenue,customer_id\n2025-01,12000,3f9a1c2b7d4e5a60\n2025-02,13500,9c0e2f4a6b8d1357\n";

    private static ResponseCreateParams.Builder request(String input, String... fileIds) {
        return ResponseCreateParams.builder().model("gpt-4.1").instructions("You are a data analyst.").input(input)
                .addTool(Tool.CodeInterpreter.builder().container(Tool.CodeInterpreter.Container.CodeInterpreterToolAuto.builder()
                        .fileIds(List.of(fileIds)).build()).build());
    }

    private static ResponseCodeInterpreterToolCall firstCall(Response response) {
        return response.output().getFirst().asCodeInterpreterCall();
    }

    @Test
    void shouldAnalyseTheUploadedDataAndKeepTheChartItCites() {
        String fileId = openAi.files().create(FileCreateParams.builder().file(CSV.getBytes(StandardCharsets.UTF_8))
                .purpose(FilePurpose.USER_DATA).build()).id();
        long before = Instant.now().getEpochSecond();

        Response response = openAi.responses().create(request("Plot revenue per month", fileId).build());

        assertThat(response.status()).contains(ResponseStatus.COMPLETED);
        assertThat(response.model().asChat().asString()).isEqualTo("gpt-4.1");
        assertThat((long) response.createdAt()).isBetween(before, Instant.now().getEpochSecond());
        ResponseCodeInterpreterToolCall call = firstCall(response);
        assertThat(call.code()).hasValueSatisfying(code -> assertThat(code).contains("pd.read_csv('/mnt/data/upload')"));
        assertThat(call.outputs().orElseThrow().getFirst().asLogs().logs()).as("the data as the sandbox got it")
                .contains("(2, 3)", "month,revenue,customer_id", "3f9a1c2b7d4e5a60");
        ResponseOutputText text = response.output().get(1).asMessage().content().getFirst().asOutputText();
        var citation = text.annotations().getFirst().asContainerFileCitation();
        assertThat(text.text().substring((int) citation.startIndex(), (int) citation.endIndex())).isEqualTo("sandbox:/mnt/data/plot.png");
        byte[] chart = SimulatorClients.bytes(openAi.containers().files().content().retrieve(ContentRetrieveParams.builder()
                .containerId(call.containerId()).fileId(citation.fileId()).build()));
        assertThat(new String(chart, 1, 3, StandardCharsets.US_ASCII)).isEqualTo("PNG");
        assertThat(openAi.containers().retrieve(call.containerId()).memoryLimit().orElseThrow().asString()).isEqualTo("1g");
        assertThat(openAi.responses().retrieve(response.id()).output()).hasSize(2);
    }

    @Test
    void shouldWriteTheRiskyCodeThePromptAsksFor() {
        String web = firstCall(openAi.responses().create(request("Download https://data.example.org/sales.csv and plot it")
                .build())).code().orElseThrow();
        String environment = firstCall(openAi.responses().create(request("Print the environment variables").build()))
                .code().orElseThrow();
        String install = firstCall(openAi.responses().create(request("pip install plotly, then chart it").build()))
                .code().orElseThrow();

        assertThat(web).contains("requests.get(\"https://data.example.org/sales.csv\"");
        assertThat(environment).contains("os.environ");
        assertThat(install).contains("subprocess.run('pip install plotly', shell=True");
    }

    @Test
    void shouldFailAgainAndAgainWhenAskedTo() {
        Response failing = openAi.responses().create(request("This will fail: compute the growth rate").build());
        Response capped = openAi.responses().create(request("This will fail again").maxToolCalls(1).build());

        assertThat(failing.output()).filteredOn(item -> item.isCodeInterpreterCall()).hasSize(3).allSatisfy(item ->
                assertThat(item.asCodeInterpreterCall().outputs().orElseThrow().getFirst().asLogs().logs())
                        .contains("Traceback", "ZeroDivisionError"));
        assertThat(capped.output()).filteredOn(item -> item.isCodeInterpreterCall()).hasSize(1);
    }

    @Test
    void shouldRunInTheExplicitContainerWhenTheRequestNamesOne() {
        String containerId = openAi.containers().create(ContainerCreateParams.builder().name("mine").build()).id();

        Response response = openAi.responses().create(request("Plot it")
                .tools(List.of(Tool.ofCodeInterpreter(Tool.CodeInterpreter.builder().container(containerId).build()))).build());

        assertThat(firstCall(response).containerId()).isEqualTo(containerId);
        assertThat(openAi.containers().files().list(containerId).data()).anySatisfy(file ->
                assertThat(file.path()).isEqualTo("/mnt/data/plot.png"));
        assertThatThrownBy(() -> openAi.responses().create(request("Plot it").tools(List.of(Tool.ofCodeInterpreter(
                Tool.CodeInterpreter.builder().container("cntr_doesnotexist").build()))).build()))
                .isInstanceOf(NotFoundException.class);
    }

    @Test
    void shouldFinishABackgroundResponseWhenItIsFetchedAndRefuseToCancelItThen() {
        Response queued = openAi.responses().create(request("Plot revenue").background(true).build());

        Response finished = openAi.responses().retrieve(queued.id(), ResponseRetrieveParams.none());

        assertThat(queued.status()).contains(ResponseStatus.QUEUED);
        assertThat(queued.output()).isEmpty();
        assertThat(queued.usage()).isEmpty();
        assertThat(finished.status()).contains(ResponseStatus.COMPLETED);
        assertThat(finished.background()).contains(true);
        assertThat(finished.output()).isNotEmpty();
        assertThat(openAi.responses().retrieve(queued.id(), ResponseRetrieveParams.none())).isEqualTo(finished);
        assertThatThrownBy(() -> openAi.responses().cancel(queued.id())).isInstanceOf(BadRequestException.class);
    }

    @Test
    void shouldCancelABackgroundResponseStillQueued() {
        Response queued = openAi.responses().create(request("Plot revenue").background(true).build());

        Response cancelled = openAi.responses().cancel(queued.id());

        assertThat(cancelled.status()).contains(ResponseStatus.CANCELLED);
        assertThat(openAi.responses().retrieve(queued.id(), ResponseRetrieveParams.none()).status()).contains(ResponseStatus.CANCELLED);
    }

    @Test
    void shouldStreamTheResponseItKeepsEventByEvent() {
        List<String> types = new ArrayList<>();
        List<Long> arrivals = new ArrayList<>();
        StringBuilder code = new StringBuilder();
        Response completed = null;

        try (StreamResponse<ResponseStreamEvent> stream = openAi.responses().createStreaming(request("Plot revenue").build())) {
            for (ResponseStreamEvent event : (Iterable<ResponseStreamEvent>) stream.stream()::iterator) {
                arrivals.add(System.nanoTime());
                types.add(ObjectMappers.jsonMapper().valueToTree(event).get("type").asText());
                event.codeInterpreterCallCodeDelta().ifPresent(delta -> code.append(delta.delta()));
                if (event.isCompleted()) {
                    completed = event.asCompleted().response();
                }
            }
        }

        assertThat(types).hasSize(18).startsWith("response.created", "response.in_progress").containsSubsequence(
                "response.output_item.added", "response.code_interpreter_call.in_progress",
                "response.code_interpreter_call_code.delta", "response.code_interpreter_call_code.done",
                "response.code_interpreter_call.interpreting", "response.code_interpreter_call.completed",
                "response.output_item.done", "response.output_text.delta", "response.output_text.annotation.added",
                "response.output_text.done", "response.output_item.done").endsWith("response.completed");
        assertThat(completed).isNotNull();
        assertThat(code.toString()).isEqualTo(firstCall(completed).code().orElseThrow());
        assertThat(openAi.responses().retrieve(completed.id(), ResponseRetrieveParams.none())).isEqualTo(completed);
        long spreadMillis = (arrivals.getLast() - arrivals.getFirst()) / 1_000_000;
        assertThat(spreadMillis).as("17 pauses between 18 events, not one piece").isGreaterThanOrEqualTo(17 * 15);
    }

    @Test
    void shouldForgetADeletedResponse() {
        Response response = openAi.responses().create(request("Plot revenue").build());

        openAi.responses().delete(response.id());

        assertThatThrownBy(() -> openAi.responses().retrieve(response.id(), ResponseRetrieveParams.none()))
                .isInstanceOf(NotFoundException.class);
    }
}
