package com.sandboxgateway.simulator;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;

import org.junit.jupiter.api.Test;

import com.openai.core.ObjectMappers;
import com.openai.core.http.StreamResponse;
import com.openai.models.files.FileCreateParams;
import com.openai.models.files.FilePurpose;
import com.openai.models.responses.ContainerAuto;
import com.openai.models.responses.FunctionShellTool;
import com.openai.models.responses.LocalEnvironment;
import com.openai.models.responses.Response;
import com.openai.models.responses.ResponseCreateParams;
import com.openai.models.responses.ResponseFunctionShellToolCall;
import com.openai.models.responses.ResponseFunctionShellToolCallOutput;
import com.openai.models.responses.ResponseStreamEvent;
import com.openai.models.responses.Tool;

/** A request offering the hosted shell gets a shell call and its output, run in a kept container; streamed alike. */
class OfflineSimulatorShellTest extends SimulatorTest {

    private static ResponseCreateParams request(String input, FunctionShellTool.Environment environment) {
        return ResponseCreateParams.builder().model("gpt-4.1").input(input)
                .addTool(Tool.ofShell(FunctionShellTool.builder().environment(environment).build())).build();
    }

    private static FunctionShellTool.Environment auto(String... fileIds) {
        return FunctionShellTool.Environment.ofContainerAuto(ContainerAuto.builder().fileIds(List.of(fileIds)).build());
    }

    @Test
    void shouldRunCommandsInAContainerAndAnswerTheirOutput() {
        String fileId = openAi.files().create(FileCreateParams.builder().file("month,revenue\n2025-01,12000\n"
                .getBytes(StandardCharsets.UTF_8)).purpose(FilePurpose.USER_DATA).build()).id();

        Response response = openAi.responses().create(request("What is in my data?", auto(fileId)));

        ResponseFunctionShellToolCall call = response.output().get(0).asShellCall();
        ResponseFunctionShellToolCallOutput output = response.output().get(1).asShellCallOutput();
        assertThat(call.action().commands()).containsExactly("ls -la /mnt/data", "head -n 5 /mnt/data/upload");
        assertThat(output.callId()).isEqualTo(call.callId());
        assertThat(output.output()).hasSize(2);
        assertThat(output.output().get(1).stdout()).contains("month,revenue");
        assertThat(output.output().get(1).outcome().asExit().exitCode()).isZero();
        String container = call.environment().orElseThrow().asContainerReference().containerId();
        assertThat(openAi.containers().retrieve(container).id()).isEqualTo(container);
        assertThat(response.output().get(2).isMessage()).isTrue();
    }

    @Test
    void shouldAnswerTheRiskyCommandsThePromptAsksForWithTheirOutcomes() {
        Response response = openAi.responses().create(request("fetch https://data.example.org/x and print the environment,"
                + " then something slow", auto()));

        assertThat(response.output().get(0).asShellCall().action().commands()).containsExactly(
                "curl -s -o /dev/null -w '%{http_code}' https://data.example.org/x", "env", "sleep 600");
        var outcomes = response.output().get(1).asShellCallOutput().output();
        assertThat(outcomes.get(2).outcome().isTimeout()).isTrue();
    }

    @Test
    void shouldLeaveALocalShellCallToTheClient() {
        Response response = openAi.responses().create(request("list the files",
                FunctionShellTool.Environment.ofLocal(LocalEnvironment.builder().build())));

        assertThat(response.output()).hasSize(1);
        assertThat(response.output().getFirst().asShellCall().environment().orElseThrow().isLocal()).isTrue();
    }

    @Test
    void shouldStreamTheCommandsAndTheirOutputEventByEvent() {
        List<String> types = new ArrayList<>();
        StringBuilder commands = new StringBuilder();
        StringBuilder stdout = new StringBuilder();
        Response completed = null;

        try (StreamResponse<ResponseStreamEvent> stream = openAi.responses().createStreaming(request("show me the data", auto()))) {
            for (ResponseStreamEvent event : (Iterable<ResponseStreamEvent>) stream.stream()::iterator) {
                types.add(ObjectMappers.jsonMapper().valueToTree(event).get("type").asText());
                event.shellCallCommandDelta().ifPresent(delta -> commands.append(delta.delta()));
                event.shellCallOutputContentDelta().ifPresent(delta -> stdout.append(delta.delta().stdout().orElse("")));
                if (event.isCompleted()) {
                    completed = event.asCompleted().response();
                }
            }
        }

        assertThat(types).containsSubsequence("response.created", "response.output_item.added", "response.shell_call_command.added",
                "response.shell_call_command.delta", "response.shell_call_command.done", "response.output_item.done",
                "response.output_item.added", "response.shell_call_output_content.delta",
                "response.shell_call_output_content.done", "response.output_item.done", "response.completed");
        assertThat(completed).isNotNull();
        assertThat(commands.toString()).isEqualTo("ls -la /mnt/data");
        assertThat(stdout.toString()).isEqualTo(completed.output().get(1).asShellCallOutput().output().getFirst().stdout());
    }
}
