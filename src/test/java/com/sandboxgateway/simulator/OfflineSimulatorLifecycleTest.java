package com.sandboxgateway.simulator;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.io.IOException;
import java.net.ConnectException;
import java.net.ServerSocket;
import java.net.Socket;
import java.nio.charset.StandardCharsets;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.stream.IntStream;

import com.openai.client.OpenAIClient;
import com.openai.core.http.StreamResponse;
import com.openai.models.files.FileCreateParams;
import com.openai.models.files.FilePurpose;
import com.openai.models.responses.ResponseCreateParams;
import com.openai.models.responses.ResponseStreamEvent;
import com.openai.models.responses.Tool;
import org.junit.jupiter.api.Test;

class OfflineSimulatorLifecycleTest {

    @Test
    void shouldListenOnLoopbackAtTheChosenFreePort() {
        try (OfflineSimulator simulator = OfflineSimulator.start(0)) {
            assertThat(simulator.port()).isPositive();
            assertThat(simulator.baseUrl()).isEqualTo("http://127.0.0.1:" + simulator.port());
        }
    }

    @Test
    void shouldStartOnARequestedPort() throws IOException {
        int free;
        try (ServerSocket probe = new ServerSocket(0)) {
            free = probe.getLocalPort();
        }

        try (OfflineSimulator simulator = OfflineSimulator.start(free)) {
            assertThat(simulator.port()).isEqualTo(free);
        }
    }

    @Test
    void shouldReleaseThePortOnClose() {
        OfflineSimulator simulator = OfflineSimulator.start(0);
        int port = simulator.port();

        simulator.close();

        assertThatThrownBy(() -> new Socket("127.0.0.1", port).close()).isInstanceOf(ConnectException.class);
    }

    @Test
    void shouldExplainWhenThePortIsTaken() {
        try (OfflineSimulator first = OfflineSimulator.start(0)) {
            assertThatThrownBy(() -> OfflineSimulator.start(first.port()))
                    .isInstanceOf(IllegalStateException.class)
                    .hasMessageContaining(String.valueOf(first.port()));
        }
    }

    @Test
    void shouldRefuseAPortOutsideTheValidRange() {
        assertThatThrownBy(() -> OfflineSimulator.start(70_000))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("70000");
    }

    @Test
    void shouldStartEachSimulatorEmpty() {
        try (OfflineSimulator first = OfflineSimulator.start(0); OfflineSimulator second = OfflineSimulator.start(0)) {
            OpenAIClient one = SimulatorClients.sdkFor(first);
            one.files().create(FileCreateParams.builder().file("a,b\n1,2\n".getBytes(StandardCharsets.UTF_8))
                    .purpose(FilePurpose.USER_DATA).build());

            assertThat(one.files().list().data()).hasSize(1);
            assertThat(SimulatorClients.sdkFor(second).files().list().data()).isEmpty();
        }
    }

    @Test
    void shouldServeManyStreamsAtOnce() throws Exception {
        int streams = 48;
        try (OfflineSimulator simulator = OfflineSimulator.start(0);
                ExecutorService pool = Executors.newFixedThreadPool(streams)) {
            OpenAIClient openAi = SimulatorClients.sdkFor(simulator);
            ResponseCreateParams request = ResponseCreateParams.builder().model("gpt-4.1").input("plot")
                    .addTool(Tool.CodeInterpreter.builder().container(Tool.CodeInterpreter.Container.CodeInterpreterToolAuto.builder()
                            .build()).build()).build();

            List<CompletableFuture<Long>> counts = IntStream.range(0, streams)
                    .mapToObj(i -> CompletableFuture.supplyAsync(() -> countEvents(openAi, request), pool))
                    .toList();

            assertThat(counts).allSatisfy(count -> assertThat(count.get()).isEqualTo(18L));
            openAi.close();
        }
    }

    private static long countEvents(OpenAIClient openAi, ResponseCreateParams request) {
        try (StreamResponse<ResponseStreamEvent> stream = openAi.responses().createStreaming(request)) {
            return stream.stream().count();
        }
    }
}
